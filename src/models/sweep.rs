//! The sweep (task `reminders_sweep`, run by the scheduler every hour): claims the reminders due
//! on each organization's day and hands each to a background worker, and records
//! `document_expired` for documents whose expiration date has come (`expiries`). Which day is
//! whose, and when it is swept: `scope` (8:00 in the organization's time zone). The database decides every step (a claim is
//! keyed by its reminder, an expiry leaves `pending_expiries` only with its entry written), so
//! the sweep can run twice, run concurrently, or run again after a crash.

use chrono::{DateTime, Days, Duration, NaiveDate, Utc};
use loco_rs::prelude::*;

mod expiries;
mod scope;

pub use expiries::{
    expiry_batch_end_statement, expiry_batch_statements, record_expired_documents, ExpiryBatch,
    ExpiryKey, EXPIRY_BATCHES_AT_ONCE,
};
pub use scope::{due_days, Due, Scope};

use super::reminders::{self, Claim, ClaimPolicy};
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

/// The largest batch the sweep takes, whatever the settings say: a batch whose jobs could not
/// be enqueued is given back by naming its ids in one statement (`release_all`), and `SQLite`
/// takes at most 32,766 bound values.
pub const MAX_BATCH_SIZE: u64 = 10_000;

/// The claiming rules of a sweep over `day` for every organization, from the
/// `settings.reminders` block.
///
/// # Errors
/// When the settings are missing or invalid.
pub fn policy(ctx: &AppContext, day: NaiveDate) -> Result<ClaimPolicy> {
    let settings = Settings::from_context(ctx)?.reminders;
    Ok(ClaimPolicy {
        day,
        scope: Scope::all(),
        now: reminders::now(),
        batch_size: settings.batch_size.clamp(1, MAX_BATCH_SIZE),
        claim_timeout: Duration::seconds(
            i64::try_from(settings.claim_timeout_seconds).unwrap_or(i64::MAX),
        ),
        max_attempts: settings.max_attempts,
        only_stale_claims: false,
    })
}

/// Hands out again the reminders due by today that a sweep claimed and whose claim went stale
/// (`claim_timeout_seconds`, renewed by a worker before each email): their job was lost with a
/// queue that keeps nothing across a restart, or their worker died. Run every 10 minutes (task
/// `reminders_retake`), so they go out within half an hour rather than at the next daily
/// sweep; nothing the daily sweep has not handed out yet, and never twice (the claim's token).
/// Returns how many were handed out.
///
/// # Errors
/// As [`dispatch_due_reminders`].
pub async fn retake_stale_claims(ctx: &AppContext) -> Result<u64> {
    // Every claim was made by a sweep of its organization's day, so any stale one is due: the
    // day is the latest any organization has (no zone is a whole day ahead of UTC).
    let now = Utc::now();
    let latest = now
        .date_naive()
        .checked_add_days(Days::new(1))
        .unwrap_or(now.date_naive());
    let policy = ClaimPolicy {
        only_stale_claims: true,
        ..policy(ctx, latest)?
    };
    let retaken = dispatch_due_reminders(ctx, &policy).await?;
    if retaken > 0 {
        tracing::info!(
            reminders = retaken,
            "reminders whose claim went stale handed out again"
        );
    }
    Ok(retaken)
}

/// The scheduled sweep at `now`: each organization's latest day whose morning has come
/// ([`due_days`]), the organizations sharing a day swept together. Returns what each day's
/// sweep did.
///
/// # Errors
/// As [`run_in`]; the days after a failed one are left to the next run.
pub async fn run_due(
    ctx: &AppContext,
    now: DateTime<Utc>,
) -> Result<Vec<(NaiveDate, SweepReport)>> {
    let mut reports = Vec::new();
    for (day, scope) in due_days(&ctx.db, now).await? {
        reports.push((day, run_in(ctx, day, scope).await?));
    }
    Ok(reports)
}

/// Runs the sweep for `day` in every organization (an operator's `date:`).
///
/// # Errors
/// As [`run_in`].
pub async fn run(ctx: &AppContext, day: NaiveDate) -> Result<SweepReport> {
    run_in(ctx, day, Scope::all()).await
}

/// Runs the sweep for `day` in the organizations of `scope`: reminders and expiries at the same
/// time, on connections of their own (they write different tables; on `SQLite` they take turns
/// at the one write lock), each carried through even when the other fails.
///
/// # Errors
/// The first failure: a database error, a job that could not be enqueued, or (with workers in
/// the foreground) an email the mail server refused. Reminders not sent stay pending.
pub async fn run_in(ctx: &AppContext, day: NaiveDate, scope: Scope) -> Result<SweepReport> {
    let policy = ClaimPolicy {
        scope,
        ..policy(ctx, day)?
    };
    let (claimed, expired) = tokio::join!(
        dispatch_due_reminders(ctx, &policy),
        record_expired_documents(&ctx.db, day, &policy.scope, policy.batch_size)
    );
    let report = SweepReport {
        reminders_claimed: *claimed.as_ref().unwrap_or(&0),
        documents_expired: *expired.as_ref().unwrap_or(&0),
    };
    tracing::info!(%day, reminders = report.reminders_claimed, expired = report.documents_expired, "reminder sweep");
    claimed?;
    expired?;
    Ok(report)
}

/// Claims the due reminders batch by batch and enqueues one job per organization of each batch
/// (the ids and the claim token: the worker re-reads everything else, and groups the emails:
/// `reminders::delivery`). Returns how many were claimed.
///
/// # Errors
/// Database errors; an enqueue error, after which the batch's claims are released.
pub async fn dispatch_due_reminders(ctx: &AppContext, policy: &ClaimPolicy) -> Result<u64> {
    claim_all_due(&ctx.db, policy, |claim| async move {
        let jobs = jobs_of(&claim, policy.day);
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

/// One job per organization of the claim, its reminders in id order.
fn jobs_of(claim: &Claim, day: NaiveDate) -> Vec<ReminderArgs> {
    let mut by_org: std::collections::BTreeMap<i64, Vec<i64>> = std::collections::BTreeMap::new();
    for r in &claim.reminders {
        by_org.entry(r.organization_id).or_default().push(r.id);
    }
    by_org
        .into_values()
        .map(|ids| ReminderArgs::new(ids, &claim.token, day))
        .collect()
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
    let orphans = reminders::Model::drop_orphan_claims(db).await?;
    if orphans > 0 {
        tracing::info!(orphans, "claims of deleted or sent reminders removed");
    }
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
