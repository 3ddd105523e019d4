//! The blog's answers.

use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use utoipa::ToSchema;

use crate::models::blog_posts;

/// A post as the admin area sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPost {
    pub id: i64,
    pub slug: String,
    pub title: String,
    pub excerpt: String,
    /// Markdown.
    pub content: String,
    pub author: String,
    pub tags: Vec<String>,
    pub status: blog_posts::PostStatus,
    pub published: bool,
    /// Minutes.
    pub read_time: u32,
    pub views: i64,
    pub meta_title: Option<String>,
    pub meta_description: Option<String>,
    pub created_at: DateTime<FixedOffset>,
    pub updated_at: DateTime<FixedOffset>,
    pub published_at: Option<DateTime<FixedOffset>>,
}

impl AdminPost {
    #[must_use]
    pub fn new(p: &blog_posts::Model) -> Self {
        Self {
            id: p.id,
            slug: p.slug.clone(),
            title: p.title.clone(),
            excerpt: p.excerpt.clone(),
            content: p.content.clone(),
            author: p.author.clone(),
            tags: p.tag_list(),
            status: p.status(),
            published: p.is_published(),
            read_time: p.read_time(),
            views: p.views,
            meta_title: p.meta_title.clone(),
            meta_description: p.meta_description.clone(),
            created_at: p.created_at,
            updated_at: p.updated_at,
            published_at: p.published_at,
        }
    }
}

/// A published post in the public list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicPostSummary {
    pub id: i64,
    pub slug: String,
    pub title: String,
    pub excerpt: String,
    pub author: String,
    pub tags: Vec<String>,
    pub read_time: u32,
    pub created_at: DateTime<FixedOffset>,
    pub updated_at: DateTime<FixedOffset>,
    pub published_at: Option<DateTime<FixedOffset>>,
    pub views: i64,
    pub meta_title: Option<String>,
    pub meta_description: Option<String>,
}

impl PublicPostSummary {
    #[must_use]
    pub fn new(p: &blog_posts::Model) -> Self {
        Self {
            id: p.id,
            slug: p.slug.clone(),
            title: p.title.clone(),
            excerpt: p.excerpt.clone(),
            author: p.author.clone(),
            tags: p.tag_list(),
            read_time: p.read_time(),
            created_at: p.created_at,
            updated_at: p.updated_at,
            published_at: p.published_at,
            views: p.views,
            meta_title: p.meta_title.clone(),
            meta_description: p.meta_description.clone(),
        }
    }
}

/// One published post: the summary, its Markdown and its sanitised HTML.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicPost {
    #[serde(flatten)]
    pub summary: PublicPostSummary,
    pub content: String,
    pub html: String,
}

impl PublicPost {
    #[must_use]
    pub fn new(p: &blog_posts::Model) -> Self {
        Self {
            summary: PublicPostSummary::new(p),
            content: p.content.clone(),
            html: p.html(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PostPreview {
    pub html: String,
}
