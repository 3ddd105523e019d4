//! The daily sweep (task `reminders_sweep`, run by the scheduler): claims the reminders due on a
//! day and hands each to a background worker, and records `document_expired` for documents
//! whose expiration date has come. Every step is a conditional update in the database, so the
//! sweep can run twice, run concurrently, or run again after a crash.

use std::collections::HashMap;

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait, LockBehavior, LockType, Query, SelectStatement, UpdateStatement},
    DbBackend, FromQueryResult, Order,
};
use uuid::Uuid;

use super::{
    _entities::{activities, documents, vendors},
    activities::DOCUMENT_EXPIRED,
    compliance::{CoiType, DocumentType},
    reminders::{self, Claim, ClaimPolicy, Cursor},
};
use crate::{
    settings::Settings,
    workers::reminders::{ReminderArgs, ReminderWorker},
};

/// What one sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Reminders claimed and handed to workers.
    pub reminders_claimed: u64,
    /// Documents newly recorded as expired (one `document_expired` entry each).
    pub documents_expired: u64,
}

/// The claiming rules of a sweep over `day`, from the `settings.reminders` block.
///
/// # Errors
/// When the settings are missing or invalid.
pub fn policy(ctx: &AppContext, day: NaiveDate) -> Result<ClaimPolicy> {
    let settings = Settings::from_context(ctx)?.reminders;
    Ok(ClaimPolicy {
        day,
        now: reminders::now(),
        batch_size: Ord::max(settings.batch_size, 1),
        claim_timeout: Duration::seconds(
            i64::try_from(settings.claim_timeout_seconds).unwrap_or(i64::MAX),
        ),
        max_attempts: settings.max_attempts,
    })
}

/// Runs the sweep for `day`: reminders first, then expiries, each attempted even when the
/// other fails.
///
/// # Errors
/// The first failure: a database error, a job that could not be enqueued, or (with workers in
/// the foreground) an email the mail server refused. Reminders not sent stay pending.
pub async fn run(ctx: &AppContext, day: NaiveDate) -> Result<SweepReport> {
    let policy = policy(ctx, day)?;
    let claimed = dispatch_due_reminders(ctx, &policy).await;
    let expired = record_expired_documents(&ctx.db, day, policy.now, policy.batch_size).await;
    let report = SweepReport {
        reminders_claimed: *claimed.as_ref().unwrap_or(&0),
        documents_expired: *expired.as_ref().unwrap_or(&0),
    };
    tracing::info!(%day, reminders = report.reminders_claimed, expired = report.documents_expired, "reminder sweep");
    claimed?;
    expired?;
    Ok(report)
}

/// Claims the due reminders batch by batch and enqueues one job per reminder (its id and the
/// claim token: the worker re-reads everything else). Returns how many were claimed.
///
/// # Errors
/// Database errors; an enqueue error, after which the batch's claims are released.
pub async fn dispatch_due_reminders(ctx: &AppContext, policy: &ClaimPolicy) -> Result<u64> {
    claim_all_due(&ctx.db, policy, |claim| async move {
        let jobs = claim
            .reminders
            .iter()
            .map(|r| ReminderArgs {
                reminder_id: r.id,
                claim_token: claim.token.clone(),
            })
            .collect();
        if let Err(err) = ReminderWorker::perform_all_later(ctx, jobs).await {
            // Not enqueued (or, with foreground workers, failed part way): whatever is still
            // unsent goes back now rather than after the claim timeout.
            reminders::Model::release_all(&ctx.db, &claim).await?;
            return Err(err);
        }
        Ok(())
    })
    .await
}

/// Walks the due reminders once, claiming batch after batch and handing each claim to
/// `each`, until nothing is left to claim. Returns how many were claimed.
///
/// # Errors
/// Database errors, or the first error of `each` (which stops the walk).
pub async fn claim_all_due<F, Fut>(
    db: &DatabaseConnection,
    policy: &ClaimPolicy,
    mut each: F,
) -> Result<u64>
where
    F: FnMut(Claim) -> Fut,
    Fut: std::future::Future<Output = Result<()>>,
{
    let mut claimed = 0;
    let mut after: Option<Cursor> = None;
    loop {
        let claim = reminders::Model::claim_due(db, policy, after).await?;
        if claim.is_empty() {
            return Ok(claimed);
        }
        after = claim.cursor();
        claimed += claim.reminders.len() as u64;
        each(claim).await?;
    }
}

/// Records `document_expired` once for every current document whose expiration date is on or
/// before `day`: a batch is one transaction that sets `expired_recorded_at` where it is still
/// empty and writes an activity entry for exactly the rows that update changed.
///
/// # Errors
/// Database errors.
pub async fn record_expired_documents(
    db: &DatabaseConnection,
    day: NaiveDate,
    now: DateTimeWithTimeZone,
    batch_size: u64,
) -> Result<u64> {
    let mut recorded = 0;
    loop {
        let txn = db.begin().await?;
        let expired = mark_expired_batch(&txn, day, now, batch_size).await?;
        if expired.is_empty() {
            txn.commit().await?;
            return Ok(recorded);
        }
        recorded += expired.len() as u64;
        record_activities(&txn, &expired).await?;
        txn.commit().await?;
    }
}

/// What the activity entry needs of a document that expired.
#[derive(Debug, FromQueryResult)]
struct ExpiredDocument {
    pid: Uuid,
    organization_id: i64,
    vendor_id: i64,
    file_name: String,
    document_type: String,
    coi_type: Option<String>,
}

impl ExpiredDocument {
    /// As `documents::Model::label`: the insurance type of a COI, else the document type.
    fn label(&self) -> &'static str {
        self.coi_type
            .as_deref()
            .and_then(CoiType::parse)
            .map(CoiType::label)
            .or_else(|| DocumentType::parse(&self.document_type).map(DocumentType::label))
            .unwrap_or("Document")
    }
}

/// One conditional update: `RETURNING` hands back exactly the documents this statement
/// moved, so a concurrent sweep cannot record the same one.
async fn mark_expired_batch<C: ConnectionTrait>(
    db: &C,
    day: NaiveDate,
    now: DateTimeWithTimeZone,
    batch_size: u64,
) -> Result<Vec<ExpiredDocument>> {
    let update = expiry_statement(db.get_database_backend(), day, now, batch_size);
    let rows = db.query_all(&update).await?;
    rows.iter()
        .map(|row| ExpiredDocument::from_query_result(row, "").map_err(Into::into))
        .collect()
}

/// Records the next batch of expired documents and returns them. Public so the benchmark can
/// show its plan (docs/benchmarks/reminder-sweep.md).
#[must_use]
pub fn expiry_statement(
    backend: DbBackend,
    day: NaiveDate,
    now: DateTimeWithTimeZone,
    batch_size: u64,
) -> UpdateStatement {
    let mut update = Query::update();
    update
        .table(documents::Entity)
        .value(documents::Column::ExpiredRecordedAt, now)
        .and_where(
            Expr::col(documents::Column::Id).in_subquery(expiry_batch(backend, day, batch_size)),
        )
        .and_where(Expr::col(documents::Column::ExpiredRecordedAt).is_null())
        .returning(Query::returning().columns([
            documents::Column::Pid,
            documents::Column::OrganizationId,
            documents::Column::VendorId,
            documents::Column::FileName,
            documents::Column::DocumentType,
            documents::Column::CoiType,
        ]));
    update
}

/// The ids of the next documents to record as expired.
fn expiry_batch(backend: DbBackend, day: NaiveDate, batch_size: u64) -> SelectStatement {
    let mut pending = Query::select();
    pending
        .column(documents::Column::Id)
        .from(documents::Entity)
        // Bare `is_current`, as in the partial index's predicate (see the sweep indexes).
        .and_where(Expr::col(documents::Column::IsCurrent))
        .and_where(Expr::col(documents::Column::ExpiredRecordedAt).is_null())
        .and_where(Expr::col(documents::Column::ExpirationDate).lte(day))
        // In index order: without it PostgreSQL reckons that a scan of the whole table finds
        // the first rows soon enough, and scans a million rows to find a thousand.
        .order_by(documents::Column::ExpirationDate, Order::Asc)
        .order_by(documents::Column::Id, Order::Asc)
        .limit(batch_size);
    if backend == DbBackend::Postgres {
        // A concurrent sweep takes other rows instead of waiting on these.
        pending.lock_with_behavior(LockType::Update, LockBehavior::SkipLocked);
    }
    pending
}

async fn record_activities<C: ConnectionTrait>(db: &C, expired: &[ExpiredDocument]) -> Result<()> {
    let vendor_ids: Vec<i64> = expired.iter().map(|d| d.vendor_id).collect();
    // id -> (name, company key)
    let vendors: HashMap<i64, (String, String)> = vendors::Entity::find()
        .select_only()
        .columns([
            vendors::Column::Id,
            vendors::Column::Name,
            vendors::Column::Key,
        ])
        .filter(vendors::Column::Id.is_in(vendor_ids))
        .into_tuple::<(i64, String, String)>()
        .all(db)
        .await?
        .into_iter()
        .map(|(id, name, key)| (id, (name, key)))
        .collect();
    let entries: Vec<activities::ActiveModel> = expired
        .iter()
        .map(|d| {
            let vendor = vendors.get(&d.vendor_id);
            let vendor_name = vendor.map_or("a vendor", |(name, _)| name.as_str());
            activities::ActiveModel {
                pid: ActiveValue::Set(Uuid::new_v4()),
                activity_type: ActiveValue::Set(DOCUMENT_EXPIRED.to_string()),
                description: ActiveValue::Set(format!(
                    "{} \"{}\" for {vendor_name} expired",
                    d.label(),
                    d.file_name
                )),
                vendor_key: ActiveValue::Set(vendor.map(|(_, key)| key.clone())),
                document_pid: ActiveValue::Set(Some(d.pid.to_string())),
                organization_id: ActiveValue::Set(d.organization_id),
                ..Default::default()
            }
        })
        .collect();
    activities::Entity::insert_many(entries)
        .exec_without_returning(db)
        .await?;
    Ok(())
}
