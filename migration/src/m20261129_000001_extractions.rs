use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// `extractions`: each reading of a COI document's certificate by the AI service
/// (docs/product.md, "Reading certificates with AI"). One row per attempt: `queued` ->
/// `running` -> `done`, `failed` or `unavailable`, with the reason in words; the suggestion
/// (`coverage` JSON text), each field's confidence and the notes on what was dropped; the
/// model, tokens and cost in millionths of a US dollar. A suggestion never writes the
/// document's coverage: a person accepts it (`documents.coverage_source` `confirmed`). A
/// reading of a portal upload has `portal_token_digest`: the SHA-256 of the token the upload
/// answered, with which the vendor (and no one else) sees and corrects that one reading.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "extractions",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("status", ColType::String),
                ("reason", ColType::TextNull),
                ("suggestion", ColType::TextNull),
                ("confidence", ColType::TextNull),
                ("notes", ColType::TextNull),
                ("model", ColType::StringNull),
                ("prompt_tokens", ColType::Integer),
                ("completion_tokens", ColType::Integer),
                ("cost_micros", ColType::BigInteger),
                ("requested_by_pid", ColType::UuidNull),
                ("portal_token_digest", ColType::StringNull),
                ("started_at", ColType::TimestampWithTimeZoneNull),
                ("finished_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[("organization", ""), ("document", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-extractions-organization-created")
                .table(Alias::new("extractions"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("created_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-extractions-status")
                .table(Alias::new("extractions"))
                .col(Alias::new("status"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "extractions").await
    }
}
