//! The daily sweep (task `reminders_sweep`, run by the scheduler): claims the reminders due on a
//! day and hands each to a background worker, and records `document_expired` for documents
//! whose expiration date has come. Every step is a conditional update in the database, so the
//! sweep can run twice, run concurrently, or run again after a crash.

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{
        Alias, BinOper, CommonTableExpression, DeleteStatement, DynIden, Expr, ExprTrait, Func,
        InsertStatement, IntoIden, OnConflict, Query, SelectStatement,
    },
    DbBackend, Order, TryGetableMany,
};

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
                due_by: Some(policy.day),
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

/// Records `document_expired` once for every current document whose expiration date is on or
/// before `day`, batch by batch, on the database server, and returns how many entries this
/// sweep wrote. Each expiry's entry id was fixed when it started waiting, and `ON CONFLICT
/// ("pid") DO NOTHING` skips an entry already written, so two sweeps at once, or a sweep run
/// again after a crash, never write one twice. A batch is one transaction
/// (`expiry_batch_statements`):
///
/// - `PostgreSQL`: one statement, `WITH gone AS (DELETE ... RETURNING) INSERT ... SELECT ...
///   FROM gone`: the rows this statement deleted become entries, each page of
///   `pending_expiries` is visited once, and a second sweep blocks on the rows the first is
///   deleting, then finds them gone.
/// - `SQLite` (no `DELETE` in a `WITH`): the `INSERT ... SELECT` from `pending_expiries`, then
///   a `DELETE` of the rows whose entry exists. The insert is a write, so the transaction holds
///   the database's one write lock from its first statement on.
///
/// # Errors
/// Database errors.
pub async fn record_expired_documents(
    db: &DatabaseConnection,
    day: NaiveDate,
    batch_size: u64,
) -> Result<u64> {
    let backend = db.get_database_backend();
    let mut recorded = 0;
    loop {
        // Read before the transaction: on `SQLite` a transaction that reads first and then
        // writes fails at once ("database is locked") when another writer got in between,
        // where one that starts with its write waits its turn. The end is only where this
        // batch stops; the statements decide what is taken.
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
        let statements = expiry_batch_statements(backend, day, end, reminders::now());
        recorded += txn.execute(&statements.entries).await?.rows_affected();
        if let Some(delete) = &statements.delete {
            txn.execute(delete).await?;
        }
        txn.commit().await?;
        if end.is_none() {
            return Ok(recorded);
        }
    }
}

/// The statements of one batch of expiries (see `record_expired_documents`).
pub struct ExpiryBatch {
    /// Writes the entries (on `PostgreSQL` also takes the rows off `pending_expiries`).
    pub entries: InsertStatement,
    /// `SQLite`: then takes off the rows whose entry exists.
    pub delete: Option<DeleteStatement>,
}

/// The statements of the batch of expiries due by `day` and up to `end` (all due when `None`),
/// their entries stamped `now`. Public so the benchmark can show their plans.
#[must_use]
pub fn expiry_batch_statements(
    backend: DbBackend,
    day: NaiveDate,
    end: Option<(NaiveDate, i64)>,
    now: DateTimeWithTimeZone,
) -> ExpiryBatch {
    if backend == DbBackend::Postgres {
        let gone = Alias::new("gone");
        let mut delete = Query::delete();
        delete
            .from_table(pending_expiries::Entity)
            .cond_where(due_expiries(day, end))
            .returning(Query::returning().columns([
                pending_expiries::Column::DocumentId,
                pending_expiries::Column::EntryPid,
            ]));
        let mut entries = expiry_entries(backend, gone.clone().into_iden(), None, now);
        entries.with_cte(
            CommonTableExpression::new()
                .query(delete)
                .table_name(gone)
                .to_owned(),
        );
        ExpiryBatch {
            entries,
            delete: None,
        }
    } else {
        let mut entry = Query::select();
        entry.expr(Expr::val(1)).from(activities::Entity).and_where(
            Expr::col((activities::Entity, activities::Column::Pid))
                .equals((pending_expiries::Entity, pending_expiries::Column::EntryPid)),
        );
        let mut delete = Query::delete();
        delete
            .from_table(pending_expiries::Entity)
            .cond_where(due_expiries(day, end))
            .and_where(Expr::exists(entry));
        ExpiryBatch {
            entries: expiry_entries(
                backend,
                pending_expiries::Entity.into_iden(),
                Some(due_expiries(day, end)),
                now,
            ),
            delete: Some(delete),
        }
    }
}

/// The due pending expiries, up to `end` in (date, document) order when given. Columns are
/// qualified: `documents` has an `expiration_date` too.
fn due_expiries(day: NaiveDate, end: Option<(NaiveDate, i64)>) -> Condition {
    let date = || {
        Expr::col((
            pending_expiries::Entity,
            pending_expiries::Column::ExpirationDate,
        ))
    };
    let mut due = Condition::all().add(date().lte(day));
    if let Some((end_date, end_id)) = end {
        due = due.add(
            Expr::tuple([
                date(),
                Expr::col((
                    pending_expiries::Entity,
                    pending_expiries::Column::DocumentId,
                )),
            ])
            .lte(Expr::tuple([Expr::val(end_date), Expr::val(end_id)])),
        );
    }
    due
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
    .cond_where(due_expiries(day, None))
    .order_by(pending_expiries::Column::ExpirationDate, Order::Asc)
    .order_by(pending_expiries::Column::DocumentId, Order::Asc)
    .offset(batch_size.saturating_sub(1))
    .limit(1);
    end
}

/// One `document_expired` entry for each row of `source` (`pending_expiries`, or the rows a
/// `WITH` deleted from it) that `due` selects, written from the document and its vendor in one
/// `INSERT ... SELECT`: "COI - General "coi.pdf" for Acme Plumbing expired", with the vendor's
/// company key and the document's id. An entry already written (same `pid`) is left alone.
fn expiry_entries(
    backend: DbBackend,
    source: DynIden,
    due: Option<Condition>,
    now: DateTimeWithTimeZone,
) -> InsertStatement {
    let doc = |c: documents::Column| Expr::col((documents::Entity, c));
    let vendor = |c: vendors::Column| Expr::col((vendors::Entity, c));
    let label = compliance::stored_label_sql(
        doc(documents::Column::DocumentType),
        doc(documents::Column::CoiType),
    );
    // `||` is SQL's string concatenation in both databases.
    let concat = |parts: Vec<Expr>| {
        parts
            .into_iter()
            .reduce(|all, part| all.binary(BinOper::Custom("||"), part))
            .expect("parts")
    };
    let description = concat(vec![
        label,
        Expr::val(" \""),
        doc(documents::Column::FileName),
        Expr::val("\" for "),
        Func::coalesce([vendor(vendors::Column::Name), Expr::val("a vendor")]).into(),
        Expr::val(" expired"),
    ]);
    let mut rows = Query::select();
    rows.expr(Expr::col((
        source.clone(),
        pending_expiries::Column::EntryPid,
    )))
    .expr(Expr::val(DOCUMENT_EXPIRED))
    .expr(description)
    .expr(vendor(vendors::Column::Key))
    .expr(uuid_text(backend, doc(documents::Column::Pid)))
    .expr(doc(documents::Column::OrganizationId))
    .expr(Expr::val(now))
    .expr(Expr::val(now))
    .from(source.clone())
    .inner_join(
        documents::Entity,
        doc(documents::Column::Id).equals((source, pending_expiries::Column::DocumentId)),
    )
    .left_join(
        vendors::Entity,
        vendor(vendors::Column::Id).equals((documents::Entity, documents::Column::VendorId)),
    )
    // A `WHERE` is also what SQLite needs to read `ON CONFLICT` after a join as the insert's.
    .cond_where(due.unwrap_or_else(|| Condition::all().add(Expr::val(true))));
    let mut insert = Query::insert();
    insert
        .into_table(activities::Entity)
        .columns([
            activities::Column::Pid,
            activities::Column::ActivityType,
            activities::Column::Description,
            activities::Column::VendorKey,
            activities::Column::DocumentPid,
            activities::Column::OrganizationId,
            activities::Column::CreatedAt,
            activities::Column::UpdatedAt,
        ])
        .select_from(rows)
        .expect("eight columns for eight values")
        .on_conflict(
            OnConflict::column(activities::Column::Pid)
                .do_nothing()
                .to_owned(),
        );
    insert
}

/// A uuid column as the text `activities.document_pid` keeps (`Uuid::to_string`): `PostgreSQL`
/// casts it; `SQLite` holds the 16 bytes, which are spelled out in hex.
fn uuid_text(backend: DbBackend, uuid: Expr) -> Expr {
    match backend {
        // `?`: where `cust_with_exprs` puts the expression, in SQLite's placeholder.
        DbBackend::Sqlite => Expr::cust_with_exprs(
            "(SELECT lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) \
             || '-' || substr(h, 17, 4) || '-' || substr(h, 21)) FROM (SELECT hex(?) AS h))",
            [uuid],
        ),
        _ => uuid.cast_as("text"),
    }
}
