//! Claiming due reminders for sending. The database decides who sends what: a claim is a row of
//! `reminder_claims` keyed by the reminder, written for a whole batch by one `INSERT ... SELECT
//! ... ON CONFLICT` that returns the reminders it claimed, so two sweeps running at once, or a
//! sweep re-run after a crash, never hand the same reminder to two workers. Loco's queue does
//! not retry failed jobs; a claim that is never finished simply goes stale, and the next sweep
//! takes it over. The claim goes when the reminder is sent.

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait, InsertStatement, OnConflict, Query, SelectStatement},
    FromQueryResult, Order, TransactionTrait,
};
use uuid::Uuid;

use super::{reminders, Entity, Model};
use crate::models::_entities::reminder_claims;

/// What one sweep may claim.
#[derive(Debug, Clone, Copy)]
pub struct ClaimPolicy {
    /// Reminders dated on or before this day are due.
    pub day: NaiveDate,
    /// The sweep's clock: claims are stamped with it and judged stale against it.
    pub now: DateTimeWithTimeZone,
    pub batch_size: u64,
    /// A claim older than this belongs to a worker that died.
    pub claim_timeout: Duration,
    /// Reminders claimed this many times are not claimed again.
    pub max_attempts: i32,
}

/// A position in the walk over due reminders: one sweep walks them once, in (date, id) order,
/// so a later batch never re-reads the rows an earlier one covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromQueryResult)]
pub struct Cursor {
    pub reminder_date: NaiveDate,
    pub id: i64,
}

/// A batch of reminders that belong to whoever holds `token`.
#[derive(Debug, Clone)]
pub struct Claim {
    pub token: String,
    pub reminders: Vec<ClaimedReminder>,
    /// Where the next batch starts; `None` when this batch reached the end of what is due.
    pub next: Option<Cursor>,
}

/// What a claim returns of each reminder: enough to enqueue its job (the worker re-reads the
/// rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimedReminder {
    pub id: i64,
}

impl Claim {
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.reminders.is_empty()
    }
}

impl ClaimPolicy {
    /// A claim another sweep may take over: given back after a failed send, or left by a
    /// worker that died; and not given up on.
    fn takeover(&self) -> Condition {
        let stale_before = self.now - self.claim_timeout;
        Condition::all()
            .add(
                Condition::any()
                    .add(
                        Expr::col((reminder_claims::Entity, reminder_claims::Column::ClaimedAt))
                            .is_null(),
                    )
                    .add(
                        Expr::col((reminder_claims::Entity, reminder_claims::Column::ClaimedAt))
                            .lt(stale_before),
                    ),
            )
            .add(
                Expr::col((reminder_claims::Entity, reminder_claims::Column::Attempts))
                    .lt(self.max_attempts),
            )
    }

    /// Where the next batch ends: the `batch_size`-th unsent reminder due after `after`, in
    /// (date, id) order; no row when fewer are left. It reads only the due index (an index-only
    /// scan on `PostgreSQL`). Public so the benchmark can show its plan
    /// (docs/benchmarks/reminder-sweep.md).
    #[must_use]
    pub fn batch_end_statement(&self, after: Option<Cursor>) -> SelectStatement {
        let mut end = due_reminders(self.day, after, None);
        end.columns([reminders::Column::ReminderDate, reminders::Column::Id])
            .order_by(reminders::Column::ReminderDate, Order::Asc)
            .order_by(reminders::Column::Id, Order::Asc)
            .offset(self.batch_size.saturating_sub(1))
            .limit(1);
        end
    }

    /// The claim of one batch: one `INSERT ... SELECT` that puts a claim with `token` on each
    /// unsent reminder due after `after` and up to `upto` (to the end when `None`), and returns
    /// the ones it claimed. A reminder that already has a claim is taken over only when that
    /// claim is stale or given back and has attempts left (`ON CONFLICT ... DO UPDATE ...
    /// WHERE`); it then counts one more attempt. Public so the benchmark can show its plan.
    ///
    /// Two sweeps at once stay apart because the claim is the primary key of
    /// `reminder_claims`: the second insert of the same reminder waits for the first, then
    /// finds its live claim and leaves it (`PostgreSQL` re-checks the `WHERE` on the row it
    /// locked; `SQLite` has one writer at a time). `RETURNING` hands back only the rows this
    /// statement wrote. The selection reads only the due index; `reminders` itself is not
    /// written until a reminder is sent.
    #[must_use]
    pub fn claim_statement(
        &self,
        token: &str,
        after: Option<Cursor>,
        upto: Option<Cursor>,
    ) -> InsertStatement {
        let mut due = due_reminders(self.day, after, upto);
        due.column((Entity, reminders::Column::Id))
            .expr(Expr::val(token))
            .expr(Expr::val(self.now))
            .expr(Expr::val(1));
        let mut claim = Query::insert();
        claim
            .into_table(reminder_claims::Entity)
            .columns([
                reminder_claims::Column::ReminderId,
                reminder_claims::Column::Token,
                reminder_claims::Column::ClaimedAt,
                reminder_claims::Column::Attempts,
            ])
            .select_from(due)
            .expect("four columns for four values")
            .on_conflict(
                OnConflict::column(reminder_claims::Column::ReminderId)
                    .update_columns([
                        reminder_claims::Column::Token,
                        reminder_claims::Column::ClaimedAt,
                    ])
                    .value(
                        reminder_claims::Column::Attempts,
                        Expr::col((reminder_claims::Entity, reminder_claims::Column::Attempts))
                            .add(1),
                    )
                    .action_cond_where(self.takeover())
                    .to_owned(),
            )
            .returning_col(reminder_claims::Column::ReminderId);
        claim
    }
}

/// `SELECT ... FROM reminders` over the unsent reminders due by `day`, after `after` and up to
/// `upto` in (date, id) order: a range of the due index.
fn due_reminders(day: NaiveDate, after: Option<Cursor>, upto: Option<Cursor>) -> SelectStatement {
    let mut due = Query::select();
    due.from(Entity)
        // `sent_at IS NULL` word for word as the partial index's predicate.
        .and_where(reminders::Column::SentAt.is_null())
        .and_where(reminders::Column::ReminderDate.lte(day));
    if let Some(after) = after {
        due.and_where(after_cursor(after));
    }
    if let Some(upto) = upto {
        due.and_where(up_to_cursor(upto));
    }
    due
}

impl Model {
    /// Claims the next batch of due reminders after `after` (at most `batch_size`), counting
    /// an attempt on each, in one atomic statement that returns exactly the reminders it
    /// claimed with the new token. The batch may hold fewer, even none, when other sweeps hold
    /// some of its reminders; `next` says where the walk goes on.
    ///
    /// # Errors
    /// Database errors.
    pub async fn claim_due<C: ConnectionTrait>(
        db: &C,
        policy: &ClaimPolicy,
        after: Option<Cursor>,
    ) -> Result<Claim> {
        let next = match db.query_one(&policy.batch_end_statement(after)).await? {
            Some(row) => Some(Cursor::from_query_result(&row, "")?),
            None => None,
        };
        let token = Uuid::new_v4().to_string();
        let claim = policy.claim_statement(&token, after, next);
        let mut reminders = db
            .query_all(&claim)
            .await?
            .iter()
            .map(|row| {
                row.try_get::<i64>("", "reminder_id")
                    .map(|id| ClaimedReminder { id })
            })
            .collect::<Result<Vec<_>, _>>()?;
        reminders.sort_by_key(|r| r.id);
        Ok(Claim {
            token,
            reminders,
            next,
        })
    }

    /// The reminder and the attempts counted on it, if it is still unsent and `token` still
    /// holds its claim.
    ///
    /// # Errors
    /// Database errors.
    pub async fn find_claimed<C: ConnectionTrait>(
        db: &C,
        id: i64,
        token: &str,
    ) -> Result<Option<(Self, i32)>> {
        let Some(claim) = reminder_claims::Entity::find()
            .filter(held_by(id, token))
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        Ok(Entity::find_by_id(id)
            .filter(reminders::Column::SentAt.is_null())
            .one(db)
            .await?
            .map(|reminder| (reminder, claim.attempts)))
    }

    /// Renews the claim just before an email goes out, so a slow worker is not taken for a dead
    /// one. `false`: the claim was lost (taken over, or the reminder is sent or gone); stop.
    ///
    /// # Errors
    /// Database errors.
    pub async fn renew_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<bool> {
        let res = reminder_claims::Entity::update_many()
            .col_expr(reminder_claims::Column::ClaimedAt, Expr::val(now()))
            .filter(held_by(id, token))
            .exec(db)
            .await?;
        Ok(res.rows_affected == 1)
    }

    /// Marks the reminder sent, only if `token` still holds it: whoever lost the claim cannot
    /// mark it. The claim goes in the same transaction. `false` when it was not ours (any more).
    ///
    /// # Errors
    /// Database errors.
    pub async fn mark_sent(db: &DatabaseConnection, id: i64, token: &str) -> Result<bool> {
        let at = now();
        let txn = db.begin().await?;
        if !end_claim(&txn, id, token).await? {
            return Ok(false);
        }
        let res = Entity::update_many()
            .col_expr(reminders::Column::SentAt, Expr::val(at))
            .col_expr(reminders::Column::UpdatedAt, Expr::val(at))
            .filter(reminders::Column::Id.eq(id))
            .filter(reminders::Column::SentAt.is_null())
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(res.rows_affected == 1)
    }

    /// Deletes the claimed reminder unsent (its document is no longer current), if `token`
    /// still holds it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_claimed(db: &DatabaseConnection, id: i64, token: &str) -> Result<()> {
        let txn = db.begin().await?;
        if end_claim(&txn, id, token).await? {
            Entity::delete_many()
                .filter(reminders::Column::Id.eq(id))
                .filter(reminders::Column::SentAt.is_null())
                .exec(&txn)
                .await?;
        }
        txn.commit().await?;
        Ok(())
    }

    /// Gives the reminder back after a failed send, so the next sweep claims it at once instead
    /// of waiting for the claim to go stale. The claim keeps its attempts.
    ///
    /// # Errors
    /// Database errors.
    pub async fn release_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<()> {
        release(db, held_by(id, token)).await
    }

    /// Gives back every reminder of a claim (its jobs could not be enqueued).
    ///
    /// # Errors
    /// Database errors.
    pub async fn release_all<C: ConnectionTrait>(db: &C, claim: &Claim) -> Result<()> {
        release(
            db,
            Condition::all()
                .add(
                    reminder_claims::Column::ReminderId.is_in(claim.reminders.iter().map(|r| r.id)),
                )
                .add(reminder_claims::Column::Token.eq(&claim.token)),
        )
        .await
    }

    /// Deletes the claims of the document's unsent reminders, before the reminders go.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_claims_of_document<C: ConnectionTrait>(
        db: &C,
        document_id: i64,
    ) -> Result<()> {
        let mut unsent = Query::select();
        unsent
            .column(reminders::Column::Id)
            .from(Entity)
            .and_where(reminders::Column::DocumentId.eq(document_id))
            .and_where(reminders::Column::SentAt.is_null());
        reminder_claims::Entity::delete_many()
            .filter(reminder_claims::Column::ReminderId.in_subquery(unsent))
            .exec(db)
            .await?;
        Ok(())
    }

    /// Deletes claims whose reminder is gone or sent: reminders deleted with their document or
    /// vendor (the claims table has no foreign key to cascade from), and the claim a sweep may
    /// have written from a snapshot taken just before the reminder was marked sent (its job
    /// finds the reminder sent and does nothing). The claims table holds only what is in
    /// flight, so this reads a few rows. Returns how many went.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_orphan_claims<C: ConnectionTrait>(db: &C) -> Result<u64> {
        let mut unsent = Query::select();
        unsent
            .expr(Expr::val(1))
            .from(Entity)
            .and_where(
                Expr::col((Entity, reminders::Column::Id))
                    .equals((reminder_claims::Entity, reminder_claims::Column::ReminderId)),
            )
            .and_where(reminders::Column::SentAt.is_null());
        let res = reminder_claims::Entity::delete_many()
            .filter(Expr::exists(unsent).not())
            .exec(db)
            .await?;
        Ok(res.rows_affected)
    }
}

/// Deletes the claim if `token` holds it; `true` when it did (the row is then locked until the
/// transaction ends, so no sweep takes it over meanwhile).
async fn end_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<bool> {
    let res = reminder_claims::Entity::delete_many()
        .filter(held_by(id, token))
        .exec(db)
        .await?;
    Ok(res.rows_affected == 1)
}

async fn release<C: ConnectionTrait>(db: &C, which: Condition) -> Result<()> {
    reminder_claims::Entity::update_many()
        .col_expr(
            reminder_claims::Column::ClaimedAt,
            Expr::val(Option::<DateTimeWithTimeZone>::None),
        )
        .filter(which)
        .exec(db)
        .await?;
    Ok(())
}

fn held_by(id: i64, token: &str) -> Condition {
    Condition::all()
        .add(reminder_claims::Column::ReminderId.eq(id))
        .add(reminder_claims::Column::Token.eq(token))
}

/// `(reminder_date, id) > cursor`: where a range of the due index starts.
fn after_cursor(after: Cursor) -> Expr {
    due_order().gt(after.tuple())
}

/// `(reminder_date, id) <= cursor`: where it ends.
fn up_to_cursor(upto: Cursor) -> Expr {
    due_order().lte(upto.tuple())
}

fn due_order() -> Expr {
    Expr::tuple([
        Expr::col((Entity, reminders::Column::ReminderDate)),
        Expr::col((Entity, reminders::Column::Id)),
    ])
}

impl Cursor {
    fn tuple(self) -> Expr {
        Expr::tuple([Expr::val(self.reminder_date), Expr::val(self.id)])
    }
}

/// The clock claims are stamped with: UTC, in the column's type.
#[must_use]
pub fn now() -> DateTimeWithTimeZone {
    chrono::Utc::now().fixed_offset()
}
