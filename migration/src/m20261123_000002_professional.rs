use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// The Professional features: a daily compliance snapshot per organization (the reports'
/// trend), the renewal requests sent by hand (at most one a day per vendor), the weekly
/// summary email (once a week per organization; users may opt out).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "report_snapshots",
            &[
                ("id", ColType::PkAuto),
                ("day", ColType::Date),
                ("vendors_current", ColType::Integer),
                ("vendors_expiring_soon", ColType::Integer),
                ("vendors_expired", ColType::Integer),
                ("vendors_missing", ColType::Integer),
                ("documents_current", ColType::Integer),
                ("documents_expiring_soon", ColType::Integer),
                ("documents_expired", ColType::Integer),
            ],
            &[("organization", "")],
        )
        .await?;
        unique_index(
            m,
            "report_snapshots",
            "idx-report-snapshots-day",
            &["organization_id", "day"],
        )
        .await?;
        create_table(
            m,
            "renewal_requests",
            &[("id", ColType::PkAuto), ("requested_on", ColType::Date)],
            &[("organization", ""), ("vendor", "")],
        )
        .await?;
        unique_index(
            m,
            "renewal_requests",
            "idx-renewal-requests-once-a-day",
            &["vendor_id", "requested_on"],
        )
        .await?;
        create_table(
            m,
            "weekly_summaries",
            &[("id", ColType::PkAuto), ("week_start", ColType::Date)],
            &[("organization", "")],
        )
        .await?;
        unique_index(
            m,
            "weekly_summaries",
            "idx-weekly-summaries-once",
            &["organization_id", "week_start"],
        )
        .await?;
        add_column(
            m,
            "users",
            "weekly_summary",
            ColType::BooleanWithDefault(true),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        remove_column(m, "users", "weekly_summary").await?;
        for table in ["weekly_summaries", "renewal_requests", "report_snapshots"] {
            drop_table(m, table).await?;
        }
        Ok(())
    }
}

async fn unique_index(
    m: &SchemaManager<'_>,
    table: &str,
    name: &str,
    columns: &[&str],
) -> Result<(), DbErr> {
    let mut index = Index::create();
    index.name(name).table(Alias::new(table)).unique();
    for column in columns {
        index.col(Alias::new(*column));
    }
    m.create_index(index).await
}
