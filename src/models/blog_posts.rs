//! Blog posts (docs/product.md, "Blog"): written in Markdown by admins, drafts until
//! published, read by anyone once published. A published post keeps its slug unless the editor
//! changes it; the old one then redirects.

use chrono::Utc;
use loco_rs::prelude::*;
use sea_orm::entity::prelude::{ActiveEnum, DeriveActiveEnum, EnumIter, StringLen};
use sea_orm::{
    sea_query::{Expr, ExprTrait},
    ConnectionTrait,
};

pub use super::_entities::blog_posts::{self, ActiveModel, Column, Entity, Model};
use super::{blog_slug_redirects, refusal::Refusal, search::Page};

pub mod form;
pub mod markdown;
pub mod views;

pub use form::{check_content_length, PostChange, PostFields, PostForm};

// `blog_posts.status` (decision 49).
/// Whether a blog post is out.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum PostStatus {
    #[sea_orm(string_value = "draft")]
    Draft,
    #[sea_orm(string_value = "published")]
    Published,
}

impl PostStatus {
    #[must_use]
    pub const fn of(published: bool) -> Self {
        if published {
            Self::Published
        } else {
            Self::Draft
        }
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// Counts of the admin area's cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct BlogStats {
    pub posts: u64,
    pub published: u64,
    pub drafts: u64,
    pub views: i64,
}

impl Model {
    #[must_use]
    pub fn status(&self) -> PostStatus {
        super::state::stored("blog_posts.status", &self.status, PostStatus::Draft)
    }

    #[must_use]
    pub fn is_published(&self) -> bool {
        self.status() == PostStatus::Published
    }

    #[must_use]
    pub fn tag_list(&self) -> Vec<String> {
        serde_json::from_str(&self.tags).unwrap_or_default()
    }

    #[must_use]
    pub fn read_time(&self) -> u32 {
        markdown::read_time(&self.content)
    }

    #[must_use]
    pub fn html(&self) -> String {
        markdown::render(&self.content)
    }

    /// A post by id (or, failing that, by slug), draft or published: the admin's look-up.
    ///
    /// # Errors
    /// `NotFound`; database errors.
    pub async fn find_for_admin(db: &DatabaseConnection, id_or_slug: &str) -> Result<Self> {
        let by_id = match id_or_slug.parse::<i64>() {
            Ok(id) => Entity::find_by_id(id).one(db).await?,
            Err(_) => None,
        };
        let found = match by_id {
            Some(post) => Some(post),
            None => {
                Entity::find()
                    .filter(Column::Slug.eq(id_or_slug))
                    .one(db)
                    .await?
            }
        };
        Ok(found.ok_or(Refusal::NotFound)?)
    }

    /// A published post by its slug or by one it used to have.
    ///
    /// # Errors
    /// `NotFound` for a draft or an unknown slug; database errors.
    pub async fn find_published(db: &DatabaseConnection, slug: &str) -> Result<Self> {
        Ok(Self::published(db, slug).await?.ok_or(Refusal::NotFound)?)
    }

    /// A published post by its slug or by one it used to have; `None` for a draft or an
    /// unknown slug.
    ///
    /// # Errors
    /// Database errors.
    pub async fn published(db: &DatabaseConnection, slug: &str) -> Result<Option<Self>> {
        let mut post = Entity::find().filter(Column::Slug.eq(slug)).one(db).await?;
        if post.is_none() {
            if let Some(old) = blog_slug_redirects::Entity::find()
                .filter(blog_slug_redirects::blog_slug_redirects::Column::OldSlug.eq(slug))
                .one(db)
                .await?
            {
                post = Entity::find_by_id(old.blog_post_id).one(db).await?;
            }
        }
        Ok(post.filter(Self::is_published))
    }

    /// Posts newest first with the total; only published ones unless `drafts_too`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(
        db: &DatabaseConnection,
        drafts_too: bool,
        page: Page,
    ) -> Result<(Vec<Self>, u64)> {
        let mut select = Entity::find();
        if !drafts_too {
            select = select.filter(Column::Status.eq(PostStatus::Published));
        }
        let count = select.clone().count(db);
        let ordered = select
            .order_by_desc(Expr::col(Column::PublishedAt).if_null(Expr::col(Column::CreatedAt)))
            .order_by_desc(Column::Id);
        let rows = page.apply(ordered).all(db).await?;
        let total = page.total(rows.len(), count).await?;
        Ok((rows, total))
    }

    /// Every published post (the sitemap and the feed), newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn all_published(db: &DatabaseConnection) -> Result<Vec<Self>> {
        Ok(Self::list(db, false, Page::default()).await?.0)
    }

    /// # Errors
    /// Database errors.
    pub async fn stats(db: &DatabaseConnection) -> Result<BlogStats> {
        let posts = Entity::find().count(db).await?;
        let published = Entity::find()
            .filter(Column::Status.eq(PostStatus::Published))
            .count(db)
            .await?;
        // Summed here: a blog has hundreds of posts, and `SUM` of a BIGINT is a NUMERIC on
        // PostgreSQL.
        let views: i64 = Entity::find()
            .select_only()
            .column(Column::Views)
            .into_tuple::<i64>()
            .all(db)
            .await?
            .into_iter()
            .sum();
        Ok(BlogStats {
            posts,
            published,
            drafts: posts - published,
            views,
        })
    }

    /// Creates a post from the editor's form (or an AI draft, inside the job's transaction).
    ///
    /// # Errors
    /// Database errors.
    pub async fn create<C: crate::models::writes::Writable>(
        db: &C,
        form: &PostForm,
        author: &str,
    ) -> Result<Self> {
        let txn = crate::models::begin_write(db).await?;
        let slug = free_slug(&txn, form.slug.as_deref().unwrap_or(&form.title), None).await?;
        let now = Utc::now();
        let post = ActiveModel {
            slug: ActiveValue::Set(slug),
            title: ActiveValue::Set(form.title.clone()),
            excerpt: ActiveValue::Set(form.excerpt.clone()),
            content: ActiveValue::Set(form.content.clone()),
            author: ActiveValue::Set(author.to_string()),
            status: ActiveValue::Set(PostStatus::of(form.published).to_value()),
            tags: ActiveValue::Set(
                serde_json::to_string(&form.tags).unwrap_or_else(|_| "[]".into()),
            ),
            views: ActiveValue::Set(0),
            meta_title: ActiveValue::Set(form.meta_title.clone()),
            meta_description: ActiveValue::Set(form.meta_description.clone()),
            published_at: ActiveValue::Set(form.published.then(|| now.into())),
            created_at: ActiveValue::Set(now.into()),
            updated_at: ActiveValue::Set(now.into()),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        txn.commit().await?;
        Ok(post)
    }

    /// Applies a change: publishing, or the editor's form (a new slug for a published post
    /// leaves a redirect from the old one).
    ///
    /// # Errors
    /// Database errors.
    pub async fn change(self, db: &DatabaseConnection, change: &PostChange) -> Result<Self> {
        let txn = crate::models::begin_write(db).await?;
        let now = Utc::now();
        let (old_slug, was_published, id) = (self.slug.clone(), self.is_published(), self.id);
        let first_published = self.published_at;
        let mut active = self.into_active_model();
        let publish = match change {
            PostChange::Publish => true,
            PostChange::Edit(form) => {
                let wanted = form.slug.as_deref().unwrap_or(&old_slug);
                let slug = if wanted == old_slug {
                    old_slug.clone()
                } else {
                    free_slug(&txn, wanted, Some(id)).await?
                };
                if slug != old_slug && was_published {
                    blog_slug_redirects::ActiveModel {
                        old_slug: ActiveValue::Set(old_slug.clone()),
                        blog_post_id: ActiveValue::Set(id),
                        created_at: ActiveValue::Set(now.into()),
                        updated_at: ActiveValue::Set(now.into()),
                        ..Default::default()
                    }
                    .insert(&txn)
                    .await?;
                }
                active.slug = ActiveValue::Set(slug);
                active.title = ActiveValue::Set(form.title.clone());
                active.excerpt = ActiveValue::Set(form.excerpt.clone());
                active.content = ActiveValue::Set(form.content.clone());
                active.tags = ActiveValue::Set(
                    serde_json::to_string(&form.tags).unwrap_or_else(|_| "[]".into()),
                );
                active.meta_title = ActiveValue::Set(form.meta_title.clone());
                active.meta_description = ActiveValue::Set(form.meta_description.clone());
                form.published
            }
        };
        active.status = ActiveValue::Set(PostStatus::of(publish).to_value());
        if publish && first_published.is_none() {
            active.published_at = ActiveValue::Set(Some(now.into()));
        }
        active.updated_at = ActiveValue::Set(now.into());
        let post = active.update(&txn).await?;
        txn.commit().await?;
        Ok(post)
    }

    /// Deletes the post and its old slugs.
    ///
    /// # Errors
    /// Database errors.
    pub async fn delete_post(self, db: &DatabaseConnection) -> Result<()> {
        let txn = crate::models::begin_write(db).await?;
        blog_slug_redirects::Entity::delete_many()
            .filter(blog_slug_redirects::blog_slug_redirects::Column::BlogPostId.eq(self.id))
            .exec(&txn)
            .await?;
        Entity::delete_by_id(self.id).exec(&txn).await?;
        txn.commit().await?;
        Ok(())
    }
}

/// A slug made from `wanted` that no other post has or had: `title`, `title-2`, ...
async fn free_slug<C: ConnectionTrait>(db: &C, wanted: &str, own: Option<i64>) -> Result<String> {
    let mut base = slug::slugify(wanted);
    base.truncate(80);
    let base = base.trim_end_matches('-').to_string();
    let base = if base.is_empty() {
        "post".to_string()
    } else {
        base
    };
    for n in 1..1000 {
        let candidate = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        let taken = Entity::find()
            .filter(Column::Slug.eq(&candidate))
            .one(db)
            .await?
            .is_some_and(|p| Some(p.id) != own);
        let was = blog_slug_redirects::Entity::find()
            .filter(blog_slug_redirects::blog_slug_redirects::Column::OldSlug.eq(&candidate))
            .one(db)
            .await?
            .is_some_and(|r| Some(r.blog_post_id) != own);
        if !taken && !was {
            return Ok(candidate);
        }
    }
    Err(Error::string("no free slug"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_statuses_are_stored_and_serialized_as_before() {
        super::super::state::assert_pinned(&[
            (PostStatus::Draft, "draft"),
            (PostStatus::Published, "published"),
        ]);
    }
}
