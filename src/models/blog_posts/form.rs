//! The editor's form, parsed: what an admin sends becomes a [`PostForm`] or a refusal naming
//! each field.

use serde::Deserialize;

use super::{markdown, PostStatus};
use crate::models::{
    refusal::{FieldErrors, Refusal},
    state,
};

/// The editor's fields, as sent (`POST /api/admin/blog-posts`, and `PUT` with them).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PostFields {
    /// 1 to 200 characters, not blank, on one line, without control characters.
    #[schema(
        required = true,
        max_length = 200,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$"
    )]
    pub title: String,
    /// Markdown; required, not blank; no control characters but tabs and line breaks.
    #[schema(
        required = true,
        pattern = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*[^\s\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F][^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$"
    )]
    pub content: String,
    /// At most 500 characters; empty: the first 200 characters of the text. No control
    /// characters but tabs and line breaks.
    #[schema(pattern = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$")]
    pub excerpt: Option<String>,
    /// At most 10, each at most 40 characters; control characters in a tag are removed.
    #[schema(max_items = 10)]
    pub tags: Option<Vec<String>>,
    /// At most 70 characters, on one line, without control characters.
    #[schema(pattern = r"^[^\x00-\x1F\x7F-\x9F]*$")]
    pub meta_title: Option<String>,
    /// At most 160 characters, on one line, without control characters.
    #[schema(pattern = r"^[^\x00-\x1F\x7F-\x9F]*$")]
    pub meta_description: Option<String>,
    pub published: Option<bool>,
    /// Made into a slug (at most 200 characters); empty: from the title. On one line, without
    /// control characters.
    #[schema(pattern = r"^[^\x00-\x1F\x7F-\x9F]*$")]
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

/// `text` without control characters, but for tabs and line breaks: what a post's body may
/// hold. An AI draft is cleaned with it; the editor's form refuses them instead.
#[must_use]
pub fn without_controls(text: &str) -> String {
    text.chars().filter(|&c| !is_forbidden(c, true)).collect()
}

/// A character no post field may hold: a control character (one in a feed makes the whole feed
/// unreadable), or, outside the body and excerpt, a line break or tab.
fn is_forbidden(c: char, lines: bool) -> bool {
    c.is_control() && !(lines && matches!(c, '\t' | '\n' | '\r'))
}

const CONTROLS: &str = "Remove the control characters (invisible characters that cannot be shown)";

/// A post's Markdown, at most (bytes, so that the bound holds for the text stored).
pub const MAX_CONTENT_BYTES: usize = 200_000;

/// The content's bound, shared by the editor's form and its preview.
///
/// # Errors
/// The message when `content` is too long.
pub fn check_content_length(content: &str) -> Result<(), &'static str> {
    if content.len() > MAX_CONTENT_BYTES {
        Err("The content must be at most 200,000 characters")
    } else {
        Ok(())
    }
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
        match self.status.as_deref().map(state::parse::<PostStatus>) {
            Some(Some(PostStatus::Published))
                if self.title.is_empty() && self.content.is_empty() =>
            {
                Ok(PostChange::Publish)
            }
            Some(Some(_)) | None => self.form().map(PostChange::Edit),
            Some(None) => Err(Refusal::field("status", "Use published or draft")),
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
            .is_some_and(|s| state::parse::<PostStatus>(s).is_none())
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
        } else if let Err(message) = check_content_length(&content) {
            push("content", message);
        }
        let excerpt = text(self.excerpt.as_ref()).unwrap_or_else(|| markdown::excerpt_of(&content));
        if excerpt.chars().count() > 500 {
            push("excerpt", "The excerpt must be at most 500 characters");
        }
        // Counted as sent, as the document's `maxItems` counts them.
        let sent = self.tags.as_ref().map_or(0, Vec::len);
        let tags: Vec<String> = self
            .tags
            .unwrap_or_default()
            .iter()
            .map(|t| {
                t.chars()
                    .filter(|c| !c.is_control())
                    .collect::<String>()
                    .trim()
                    .to_string()
            })
            .filter(|t| !t.is_empty())
            .collect();
        if sent > 10 || tags.iter().any(|t| t.chars().count() > 40) {
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
        let one_line = [
            ("title", Some(&self.title)),
            ("metaTitle", self.meta_title.as_ref()),
            ("metaDescription", self.meta_description.as_ref()),
            ("slug", self.slug.as_ref()),
        ];
        for (field, value) in one_line {
            if value.is_some_and(|v| v.chars().any(|c| is_forbidden(c, false))) {
                push(field, CONTROLS);
            }
        }
        let bodies = [
            ("content", Some(&self.content)),
            ("excerpt", self.excerpt.as_ref()),
        ];
        for (field, value) in bodies {
            if value.is_some_and(|v| v.chars().any(|c| is_forbidden(c, true))) {
                push(field, CONTROLS);
            }
        }
        let slug = text(self.slug.as_ref());
        if slug.as_ref().is_some_and(|s| s.chars().count() > 200) {
            push("slug", "The slug must be at most 200 characters");
        }
        if !errs.is_empty() {
            return Err(Refusal::Invalid(errs));
        }
        let published = self.published.unwrap_or(
            self.status.as_deref().and_then(state::parse) == Some(PostStatus::Published),
        );
        Ok(PostForm {
            title,
            content,
            excerpt,
            tags,
            meta_title,
            meta_description,
            published,
            slug,
        })
    }
}
