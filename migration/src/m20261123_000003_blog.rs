use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// The blog: posts written in Markdown by admins, and the slugs a post used to have (they
/// answer with a permanent redirect to its current one).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "blog_posts",
            &[
                ("id", ColType::PkAuto),
                ("slug", ColType::StringUniq),
                ("title", ColType::String),
                ("excerpt", ColType::Text),
                ("content", ColType::Text),
                ("author", ColType::String),
                ("status", ColType::String),
                // JSON array of strings.
                ("tags", ColType::Text),
                ("views", ColType::BigIntegerWithDefault(0)),
                ("meta_title", ColType::StringNull),
                ("meta_description", ColType::StringNull),
                ("published_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[],
        )
        .await?;
        create_table(
            m,
            "blog_slug_redirects",
            &[("id", ColType::PkAuto), ("old_slug", ColType::StringUniq)],
            &[("blog_post", "")],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "blog_slug_redirects").await?;
        drop_table(m, "blog_posts").await
    }
}
