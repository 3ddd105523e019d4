//! The editor's form, parsed: what an admin sends becomes a [`PostForm`] or a refusal naming
//! each field.

use serde::Deserialize;

use super::markdown;
use crate::models::refusal::{FieldErrors, Refusal};

/// The editor's fields, as sent (`POST /api/admin/blog-posts`, and `PUT` with them).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PostFields {
    /// 1 to 200 characters, not blank.
    #[schema(required = true, max_length = 200, pattern = r"\S")]
    pub title: String,
    /// Markdown; required, not blank.
    #[schema(required = true, pattern = r"\S")]
    pub content: String,
    /// At most 500 characters; empty: the first 200 characters of the text.
    pub excerpt: Option<String>,
    /// At most 10, each at most 40 characters.
    pub tags: Option<Vec<String>>,
    /// At most 70 characters.
    pub meta_title: Option<String>,
    /// At most 160 characters.
    pub meta_description: Option<String>,
    pub published: Option<bool>,
    /// Made into a slug; empty: from the title.
    pub slug: Option<String>,
    /// `published` or `draft`; on a `PUT`, `published` alone publishes (the admin list's Publish
    /// button).
    #[schema(pattern = "^(published|draft)$")]
    pub status: Option<String>,
}

/// The form, checked and trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostForm {
    pub title: String,
    pub content: String,
    pub excerpt: String,
    pub tags: Vec<String>,
    pub meta_title: Option<String>,
    pub meta_description: Option<String>,
    pub published: bool,
    pub slug: Option<String>,
}

/// What a `PUT` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PostChange {
    Publish,
    Edit(PostForm),
}

fn text(value: Option<&String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

impl PostFields {
    /// A `PUT`: `{status: "published"}` alone publishes; anything else is the whole form.
    ///
    /// # Errors
    /// `Invalid`, naming each field.
    pub fn change(self) -> Result<PostChange, Refusal> {
        match self.status.as_deref() {
            Some("published") if self.title.is_empty() && self.content.is_empty() => {
                Ok(PostChange::Publish)
            }
            Some("published" | "draft") | None => self.form().map(PostChange::Edit),
            Some(_) => Err(Refusal::field("status", "Use published or draft")),
        }
    }

    /// # Errors
    /// `Invalid`, naming each field.
    pub fn form(self) -> Result<PostForm, Refusal> {
        let mut errs = FieldErrors::new();
        let mut push =
            |f: &str, m: &str| errs.entry(f.to_string()).or_default().push(m.to_string());
        if self
            .status
            .as_deref()
            .is_some_and(|s| s != "published" && s != "draft")
        {
            push("status", "Use published or draft");
        }
        let title = self.title.trim().to_string();
        if title.is_empty() {
            push("title", "Please fill in both title and content fields.");
        } else if title.chars().count() > 200 {
            push("title", "The title must be at most 200 characters");
        }
        let content = self.content.trim().to_string();
        if content.is_empty() {
            push("content", "Please fill in both title and content fields.");
        } else if content.len() > 200_000 {
            push("content", "The content must be at most 200,000 characters");
        }
        let excerpt = text(self.excerpt.as_ref()).unwrap_or_else(|| markdown::excerpt_of(&content));
        if excerpt.chars().count() > 500 {
            push("excerpt", "The excerpt must be at most 500 characters");
        }
        let tags: Vec<String> = self
            .tags
            .unwrap_or_default()
            .iter()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        if tags.len() > 10 || tags.iter().any(|t| t.chars().count() > 40) {
            push("tags", "At most 10 tags of at most 40 characters");
        }
        let meta_title = text(self.meta_title.as_ref());
        if meta_title.as_ref().is_some_and(|m| m.chars().count() > 70) {
            push("metaTitle", "The meta title must be at most 70 characters");
        }
        let meta_description = text(self.meta_description.as_ref());
        if meta_description
            .as_ref()
            .is_some_and(|m| m.chars().count() > 160)
        {
            push(
                "metaDescription",
                "The meta description must be at most 160 characters",
            );
        }
        if !errs.is_empty() {
            return Err(Refusal::Invalid(errs));
        }
        let published = self
            .published
            .unwrap_or(self.status.as_deref() == Some("published"));
        Ok(PostForm {
            title,
            content,
            excerpt,
            tags,
            meta_title,
            meta_description,
            published,
            slug: text(self.slug.as_ref()),
        })
    }
}
