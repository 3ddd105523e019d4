use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// The Stripe Checkout sessions of each organization: those the server created (so that a
/// second click hands back the one still open rather than creating another) and those that
/// upgraded it. `upgraded_at` makes a session upgrade at most once: a paid session kept in the
/// browser's history cannot upgrade again after the subscription it started has ended.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "checkout_sessions",
            &[
                ("id", ColType::PkAuto),
                // Stripe's `cs_...` id.
                ("session_id", ColType::StringUniq),
                // The price the session was created for (a session of an older price is not
                // handed back once the configured price has changed).
                ("price_id", ColType::String),
                // When Stripe expires it, if the server created it.
                ("expires_at", ColType::TimestampWithTimeZoneNull),
                ("upgraded_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[("organization", "")],
        )
        .await?;
        // The organization's latest session, on each click of Upgrade.
        m.create_index(
            Index::create()
                .name("idx-checkout-sessions-organization")
                .table(Alias::new("checkout_sessions"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("id"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "checkout_sessions").await
    }
}
