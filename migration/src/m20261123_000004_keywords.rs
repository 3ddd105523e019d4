use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// The content engine's keywords, and their uploads: an upload is cut into chunks of rows, each
/// a job; the chunk rows record what is still to do, so a job that failed is found and finished.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "keywords",
            &[
                ("id", ColType::PkAuto),
                ("keyword", ColType::String),
                // Trimmed and lower-cased: one keyword whatever its case.
                ("keyword_key", ColType::StringUniq),
                ("search_volume", ColType::BigIntegerNull),
                ("difficulty", ColType::IntegerNull),
                ("priority", ColType::String),
                ("category", ColType::String),
                ("blog_post_id", ColType::BigIntegerNull),
            ],
            &[],
        )
        .await?;
        create_table(
            m,
            "keyword_ingests",
            &[
                ("id", ColType::PkAuto),
                ("accepted", ColType::Integer),
                ("dropped", ColType::Integer),
                ("chunks", ColType::Integer),
                ("chunks_done", ColType::Integer),
                ("inserted", ColType::Integer),
                ("merged", ColType::Integer),
            ],
            &[],
        )
        .await?;
        create_table(
            m,
            "keyword_ingest_chunks",
            &[
                ("id", ColType::PkAuto),
                ("position", ColType::Integer),
                // JSON array of the chunk's rows.
                ("rows", ColType::Text),
                ("done", ColType::BooleanWithDefault(false)),
            ],
            &[("keyword_ingest", "")],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in ["keyword_ingest_chunks", "keyword_ingests", "keywords"] {
            drop_table(m, table).await?;
        }
        Ok(())
    }
}
