use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// Stripe billing: what the organization's subscription says (renewal, a cancellation date, a
/// failed payment), and one row per Stripe event handled, written in the same transaction as
/// the change it made, so that an event delivered twice changes nothing the second time.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            m,
            "organizations",
            "subscription_status",
            ColType::StringNull,
        )
        .await?;
        add_column(
            m,
            "organizations",
            "plan_renews_at",
            ColType::TimestampWithTimeZoneNull,
        )
        .await?;
        add_column(
            m,
            "organizations",
            "plan_cancel_at",
            ColType::TimestampWithTimeZoneNull,
        )
        .await?;
        add_column(m, "organizations", "payment_problem", ColType::StringNull).await?;
        create_table(
            m,
            "stripe_events",
            &[
                ("id", ColType::PkAuto),
                ("event_id", ColType::StringUniq),
                ("event_type", ColType::String),
            ],
            &[],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "stripe_events").await?;
        for column in [
            "payment_problem",
            "plan_cancel_at",
            "plan_renews_at",
            "subscription_status",
        ] {
            remove_column(m, "organizations", column).await?;
        }
        Ok(())
    }
}
