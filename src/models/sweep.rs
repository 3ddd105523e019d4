//! The daily sweep (task `reminders_sweep`, run by the scheduler): claims the reminders due on a
//! day and hands each to a background worker, and records `document_expired` for documents
//! whose expiration date has come. Every step is a conditional update in the database, so the
//! sweep can run twice, run concurrently, or run again after a crash.

use std::collections::HashMap;

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{DeleteStatement, Expr, ExprTrait, Query, SelectStatement},
    FromQueryResult, Order, QuerySelect, TryGetableMany,
};
use uuid::Uuid;

use super::{
    _entities::{activities, documents, pending_expiries, vendors},
    activities::DOCUMENT_EXPIRED,
    compliance,
    reminders::{self, Claim, ClaimPolicy},
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

/// The largest batch the sweep takes, whatever the settings say: a batch's ids are bound values
/// of one statement, and `SQLite` takes at most 32,766 of them.
pub const MAX_BATCH_SIZE: u64 = 10_000;

/// The claiming rules of a sweep over `day`, from the `settings.reminders` block.
///
/// # Errors
/// When the settings are missing or invalid.
pub fn policy(ctx: &AppContext, day: NaiveDate) -> Result<ClaimPolicy> {
    let settings = Settings::from_context(ctx)?.reminders;
    Ok(ClaimPolicy {
        day,
        now: reminders::now(),
        batch_size: settings.batch_size.clamp(1, MAX_BATCH_SIZE),
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
    let expired = record_expired_documents(&ctx.db, day, policy.batch_size).await;
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
    let mut after = None;
    loop {
        let claim = reminders::Model::claim_due(db, policy, after).await?;
        let next = claim.next;
        if !claim.is_empty() {
            claimed += claim.reminders.len() as u64;
            each(claim).await?;
        }
        match next {
            Some(next) => after = Some(next),
            None => return Ok(claimed),
        }
    }
}

/// Records `document_expired` once for every current document whose expiration date is on or
/// before `day`. A batch is one transaction that deletes the documents' `pending_expiries` rows
/// and writes an activity entry for exactly the rows that delete removed, so two sweeps at once,
/// or a sweep run again after a crash, record each expiry once.
///
/// # Errors
/// Database errors.
pub async fn record_expired_documents(
    db: &DatabaseConnection,
    day: NaiveDate,
    batch_size: u64,
) -> Result<u64> {
    let mut recorded = 0;
    loop {
        // Read before the transaction: on `SQLite` a transaction that reads first and then
        // writes fails at once ("database is locked") when another writer got in between,
        // where one that starts with its write waits its turn. The end is only where this
        // batch stops; the delete decides what is taken.
        let end = match db
            .query_one(&expiry_batch_end_statement(day, batch_size))
            .await?
        {
            Some(row) => {
                Some(<(NaiveDate, i64)>::try_get_many_by_index(&row).map_err(DbErr::from)?)
            }
            None => None,
        };
        let txn = db.begin().await?;
        let ids = txn
            .query_all(&expiry_statement(day, end))
            .await?
            .iter()
            .map(|row| row.try_get::<i64>("", "document_id"))
            .collect::<Result<Vec<_>, _>>()?;
        if !ids.is_empty() {
            recorded += ids.len() as u64;
            record_activities(&txn, ids).await?;
        }
        txn.commit().await?;
        if end.is_none() {
            return Ok(recorded);
        }
    }
}

/// Where the next batch of expiries ends, as `(expiration_date, document_id)`: the
/// `batch_size`-th pending expiry due by `day`; no row when fewer are left. An index-only read of the due index.
#[must_use]
pub fn expiry_batch_end_statement(day: NaiveDate, batch_size: u64) -> SelectStatement {
    let mut end = Query::select();
    end.columns([
        pending_expiries::Column::ExpirationDate,
        pending_expiries::Column::DocumentId,
    ])
    .from(pending_expiries::Entity)
    .and_where(pending_expiries::Column::ExpirationDate.lte(day))
    .order_by(pending_expiries::Column::ExpirationDate, Order::Asc)
    .order_by(pending_expiries::Column::DocumentId, Order::Asc)
    .offset(batch_size.saturating_sub(1))
    .limit(1);
    end
}

/// Takes a batch of expiries off `pending_expiries`: those due by `day`, up to `end` in index
/// order (all of them when `None`), returning the documents' ids. `RETURNING` hands back only
/// the rows this statement deleted: a row another sweep deleted first is not returned twice.
/// Public so the benchmark can show its plan (docs/benchmarks/reminder-sweep.md).
#[must_use]
pub fn expiry_statement(day: NaiveDate, end: Option<(NaiveDate, i64)>) -> DeleteStatement {
    let mut delete = Query::delete();
    delete
        .from_table(pending_expiries::Entity)
        .and_where(pending_expiries::Column::ExpirationDate.lte(day));
    if let Some((date, id)) = end {
        delete.and_where(
            Expr::tuple([
                Expr::col(pending_expiries::Column::ExpirationDate),
                Expr::col(pending_expiries::Column::DocumentId),
            ])
            .lte(Expr::tuple([Expr::val(date), Expr::val(id)])),
        );
    }
    delete.returning_col(pending_expiries::Column::DocumentId);
    delete
}

/// What the activity entry needs of a document that expired.
#[derive(Debug, FromQueryResult)]
struct ExpiredDocument {
    pid: Uuid,
    organization_id: i64,
    file_name: String,
    document_type: String,
    coi_type: Option<String>,
    vendor_id: i64,
}

impl ExpiredDocument {
    fn label(&self) -> &'static str {
        compliance::stored_label(&self.document_type, self.coi_type.as_deref())
    }
}

/// Rows per `INSERT` of activity entries.
const ENTRIES_PER_INSERT: usize = 1000;

/// One `document_expired` entry per document, with its vendor's name and key.
///
/// Documents and vendors are read by primary key in two queries, not joined: for a join with
/// a thousand ids `PostgreSQL` chose to hash the whole vendors table (62 ms of a 72 ms query
/// with 100,000 vendors, and growing with them).
async fn record_activities<C: ConnectionTrait>(db: &C, ids: Vec<i64>) -> Result<()> {
    let expired = documents::Entity::find()
        .select_only()
        .columns([
            documents::Column::Pid,
            documents::Column::OrganizationId,
            documents::Column::FileName,
            documents::Column::DocumentType,
            documents::Column::CoiType,
            documents::Column::VendorId,
        ])
        .filter(documents::Column::Id.is_in(ids))
        .into_model::<ExpiredDocument>()
        .all(db)
        .await?;
    let mut vendor_ids: Vec<i64> = expired.iter().map(|d| d.vendor_id).collect();
    vendor_ids.sort_unstable();
    vendor_ids.dedup();
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
    if expired.is_empty() {
        return Ok(());
    }
    // One multi-row INSERT built with sea-query: the same statement `insert_many` sends, but
    // built in linear time (measured: `insert_many` took 49 ms to build 1,000 rows, longer
    // than PostgreSQL took to run them).
    let now = reminders::now();
    // At most 1,000 rows (8,000 values) per statement: SQLite takes at most 32,766 bound values
    // in one statement, PostgreSQL 65,535, and a batch may be larger.
    for chunk in expired.chunks(ENTRIES_PER_INSERT) {
        let mut insert = Query::insert();
        insert.into_table(activities::Entity).columns([
            activities::Column::Pid,
            activities::Column::ActivityType,
            activities::Column::Description,
            activities::Column::VendorKey,
            activities::Column::DocumentPid,
            activities::Column::OrganizationId,
            activities::Column::CreatedAt,
            activities::Column::UpdatedAt,
        ]);
        for d in chunk {
            let vendor = vendors.get(&d.vendor_id);
            let vendor_name = vendor.map_or("a vendor", |(name, _)| name.as_str());
            insert.values_panic([
                // Time-ordered, so a batch's entries land side by side in the `pid` index.
                Uuid::now_v7().into(),
                DOCUMENT_EXPIRED.into(),
                format!(
                    "{} \"{}\" for {vendor_name} expired",
                    d.label(),
                    d.file_name
                )
                .into(),
                vendor.map(|(_, key)| key.clone()).into(),
                Some(d.pid.to_string()).into(),
                d.organization_id.into(),
                now.into(),
                now.into(),
            ]);
        }
        db.execute(&insert).await?;
    }
    Ok(())
}
