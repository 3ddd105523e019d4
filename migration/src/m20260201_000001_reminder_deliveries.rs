use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// One row per reminder email the mail server accepted. A reminder goes to several people (the
/// organization's users and the vendor); when a worker dies between two of them, the next
/// attempt skips the ones already accepted instead of sending them again.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "reminder_deliveries",
            &[
                ("id", ColType::PkAuto),
                // `organization` (a user of the client) or `vendor` (the renewal request).
                ("kind", ColType::String),
                ("recipient", ColType::String),
            ],
            &[("reminder", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-reminder-deliveries-once")
                .table(Alias::new("reminder_deliveries"))
                .col(Alias::new("reminder_id"))
                .col(Alias::new("kind"))
                .col(Alias::new("recipient"))
                .unique()
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "reminder_deliveries").await
    }
}
