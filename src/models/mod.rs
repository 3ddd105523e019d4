pub mod _entities;
pub mod activities;
pub mod api_keys;
pub mod billing;
pub mod blog_post_readers;
pub mod blog_posts;
pub mod blog_slug_redirects;
pub mod bulk;
pub mod calendar_feeds;
pub mod checkout_sessions;
pub mod compliance;
pub mod coverage;
pub mod demo;
pub mod documents;
pub mod email;
pub mod exports;
pub mod extractions;
pub mod file_type;
pub mod gap_requests;
pub mod gaps;
pub mod generation_jobs;
pub mod invitations;
pub mod keyword_ingest_chunks;
pub mod keyword_ingests;
pub mod keywords;
pub mod members;
pub mod organizations;
pub mod orphan_files;
pub mod outgoing_emails;
pub mod pending_expiries;
pub mod refusal;
pub mod reminder_claims;
pub mod reminder_deliveries;
pub mod reminders;
pub mod renewal_requests;
pub mod report_snapshots;
pub mod reports;
pub mod requirement_sets;
pub mod revoked_tokens;
pub mod search;
pub mod secret_tokens;
pub mod sheet;
pub mod state;
pub mod stripe_events;
pub mod sweep;
pub mod unsubscribe;
pub mod users;
pub mod vendor_import;
pub mod vendors;
pub mod waivers;
pub mod webhook_deliveries;
pub mod webhook_endpoints;
pub mod webhook_vendor_states;
pub mod webhooks;
pub mod weekly_plans;
pub mod weekly_summaries;

/// Begins a transaction that writes. On `SQLite` it takes the write lock at its start
/// (`BEGIN IMMEDIATE`), waiting its turn under the busy timeout: a deferred transaction that
/// reads first and writes later is refused at once with "database is locked" when another
/// connection wrote in between, which no busy timeout waits out (two uploads at once failed
/// so). On `PostgreSQL`, a plain `BEGIN`.
///
/// # Errors
/// When the transaction cannot begin (on `SQLite`: the write lock still held by another
/// connection when the busy timeout runs out).
pub async fn begin_write<C: sea_orm::TransactionTrait>(
    db: &C,
) -> Result<C::Transaction, sea_orm::DbErr> {
    db.begin_with_options(sea_orm::TransactionOptions {
        sqlite_transaction_mode: Some(sea_orm::SqliteTransactionMode::Immediate),
        ..Default::default()
    })
    .await
}
