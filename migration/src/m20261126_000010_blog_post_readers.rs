use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// Who read which post on which day, so that a reader adds one view a day however often they
/// load it. `reader` is a digest of the day, the client address and its user agent under the
/// server's secret: it names nobody, and the same person is a different reader the next day.
/// Rows older than yesterday are deleted as views are written.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "blog_post_readers",
            &[
                ("id", ColType::PkAuto),
                ("post_id", ColType::BigInteger),
                ("day", ColType::Date),
                ("reader", ColType::String),
            ],
            &[],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-blog-post-readers-once-a-day")
                .table(Alias::new("blog_post_readers"))
                .col(Alias::new("post_id"))
                .col(Alias::new("day"))
                .col(Alias::new("reader"))
                .unique()
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-blog-post-readers-day")
                .table(Alias::new("blog_post_readers"))
                .col(Alias::new("day"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "blog_post_readers").await
    }
}
