use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "activities",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("activity_type", ColType::String),
                ("description", ColType::Text),
                // Kept as plain values: the entry outlives the vendor or document it names.
                ("vendor_key", ColType::StringNull),
                ("document_pid", ColType::StringNull),
            ],
            &[("organization", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-activities-org-created")
                .table(Alias::new("activities"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("created_at"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "activities").await
    }
}
