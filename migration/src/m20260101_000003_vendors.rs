use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "vendors",
            &[
                ("id", ColType::PkAuto),
                // The company key: the vendor's public id, unique across all organizations.
                ("key", ColType::StringLenUniq(8)),
                ("name", ColType::String),
                ("email", ColType::String),
                ("phone", ColType::StringNull),
                ("service_type", ColType::String),
                ("address", ColType::StringNull),
                ("city", ColType::StringNull),
                ("state", ColType::StringNull),
                ("zip_code", ColType::StringNull),
                ("notes", ColType::TextNull),
                // JSON array of slot keys the upload portal asks for.
                ("required_documents", ColType::Text),
            ],
            &[("organization", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-vendors-organization")
                .table(Alias::new("vendors"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("name"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "vendors").await
    }
}
