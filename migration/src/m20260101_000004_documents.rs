use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "documents",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("document_type", ColType::String),
                ("coi_type", ColType::StringNull),
                ("slot", ColType::String),
                // Display text only; the file lives under the generated storage key.
                ("file_name", ColType::String),
                ("storage_key", ColType::String),
                ("content_type", ColType::String),
                ("size", ColType::BigInteger),
                ("expiration_date", ColType::DateNull),
                ("notes", ColType::TextNull),
                ("source", ColType::String),
                ("version", ColType::Integer),
                ("is_current", ColType::Boolean),
                ("superseded_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[("organization", ""), ("vendor", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-documents-org-current")
                .table(Alias::new("documents"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("is_current"))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-documents-vendor-slot")
                .table(Alias::new("documents"))
                .col(Alias::new("vendor_id"))
                .col(Alias::new("slot"))
                .col(Alias::new("is_current"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "documents").await
    }
}
