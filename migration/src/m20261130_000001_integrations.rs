use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// The integrations of docs/product.md ("Integrations"):
///
/// - `api_keys`: an organization's keys, each kept as the SHA-256 digest of the key (never the
///   key) and its first eight characters to tell keys apart; made by `user_id`, through whom
///   the key acts (removing the person ends their keys).
/// - `calendar_feeds`: an organization's secret calendar link; the link is derived from the
///   feed's `pid` and `generation` (rotating raises the generation), so nothing secret is kept.
/// - `webhook_endpoints`: where an organization wants events sent, which events, and the secret
///   the deliveries are signed with.
/// - `webhook_deliveries`: every event for every endpoint, from the moment it happens until it
///   is delivered or given up: the database is the queue's source of truth, a worker job only
///   carries a row's id.
/// - `webhook_vendor_states`: what each vendor's status, gaps and expiring and expired documents
///   were at the last look, so a change with no request behind it (a date passing) becomes an
///   event once.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The webhooks' endpoints, deliveries and last looks at the vendors.
async fn webhook_tables(m: &SchemaManager<'_>) -> Result<(), DbErr> {
    create_table(
        m,
        "webhook_endpoints",
        &[
            ("id", ColType::PkAuto),
            ("pid", ColType::UuidUniq),
            ("url", ColType::Text),
            ("events", ColType::Text),
            ("secret", ColType::String),
        ],
        &[("organization", "")],
    )
    .await?;
    create_table(
        m,
        "webhook_deliveries",
        &[
            ("id", ColType::PkAuto),
            ("pid", ColType::UuidUniq),
            ("event_id", ColType::String),
            ("event_type", ColType::String),
            ("payload", ColType::Text),
            ("status", ColType::String),
            ("attempts", ColType::Integer),
            ("next_attempt_at", ColType::TimestampWithTimeZone),
            ("claimed_until", ColType::TimestampWithTimeZoneNull),
            ("response_status", ColType::IntegerNull),
            ("response_snippet", ColType::TextNull),
            ("error", ColType::TextNull),
            ("last_attempt_at", ColType::TimestampWithTimeZoneNull),
        ],
        &[("organization", ""), ("webhook_endpoint", "")],
    )
    .await?;
    m.create_index(
        Index::create()
            .name("idx-webhook-deliveries-due")
            .table(Alias::new("webhook_deliveries"))
            .col(Alias::new("status"))
            .col(Alias::new("next_attempt_at"))
            .to_owned(),
    )
    .await?;
    m.create_index(
        Index::create()
            .name("idx-webhook-deliveries-log")
            .table(Alias::new("webhook_deliveries"))
            .col(Alias::new("webhook_endpoint_id"))
            .col(Alias::new("id"))
            .to_owned(),
    )
    .await?;
    create_table(
        m,
        "webhook_vendor_states",
        &[
            ("id", ColType::PkAuto),
            ("status", ColType::String),
            ("gaps", ColType::Text),
            ("expiring", ColType::Text),
            ("expired", ColType::Text),
        ],
        &[("organization", ""), ("vendor", "")],
    )
    .await?;
    unique(
        m,
        "idx-webhook-vendor-states-one-per-vendor",
        "webhook_vendor_states",
        "vendor_id",
    )
    .await
}

/// A unique index of one column.
async fn unique(m: &SchemaManager<'_>, name: &str, table: &str, col: &str) -> Result<(), DbErr> {
    m.create_index(
        Index::create()
            .name(name)
            .table(Alias::new(table))
            .col(Alias::new(col))
            .unique()
            .to_owned(),
    )
    .await
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "api_keys",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("name", ColType::String),
                ("scope", ColType::String),
                ("prefix", ColType::String),
                ("digest", ColType::StringUniq),
                ("last_used_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[("organization", ""), ("user", "")],
        )
        .await?;
        create_table(
            m,
            "calendar_feeds",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("generation", ColType::Integer),
            ],
            &[("organization", "")],
        )
        .await?;
        unique(
            m,
            "idx-calendar-feeds-one-per-organization",
            "calendar_feeds",
            "organization_id",
        )
        .await?;
        webhook_tables(m).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            "webhook_vendor_states",
            "webhook_deliveries",
            "webhook_endpoints",
            "calendar_feeds",
            "api_keys",
        ] {
            drop_table(m, table).await?;
        }
        Ok(())
    }
}
