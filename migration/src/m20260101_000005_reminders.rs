use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "reminders",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("reminder_date", ColType::Date),
                ("offset_days", ColType::Integer),
                ("sent_at", ColType::TimestampWithTimeZoneNull),
                ("claimed_at", ColType::TimestampWithTimeZoneNull),
                ("claim_token", ColType::StringNull),
                ("attempts", ColType::IntegerWithDefault(0)),
            ],
            &[("organization", ""), ("document", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-reminders-org-date")
                .table(Alias::new("reminders"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("reminder_date"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "reminders").await
    }
}
