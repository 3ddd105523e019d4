use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// `organizations.time_zone`: the organization's IANA time zone (`America/Los_Angeles`), asked
/// at sign-up from the browser's and changeable on the Account page. "Today" for its documents,
/// dashboard, reports, reminders and weekly summary is its local day, and its emails go out in
/// its morning (docs/product.md, "Time zones"). Existing organizations keep UTC, the day they
/// had until now.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            m,
            "organizations",
            "time_zone",
            ColType::StringWithDefault("UTC".to_string()),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        remove_column(m, "organizations", "time_zone").await
    }
}
