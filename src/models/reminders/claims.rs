//! Claiming due reminders for sending. The database decides who sends what: a claim is one
//! conditional `UPDATE ... RETURNING` that stamps a batch of unclaimed (or abandoned) reminders
//! with a fresh token and returns them, so two sweeps running at once, or a sweep re-run after a
//! crash, never hand the same reminder to two workers. Loco's queue does not retry failed jobs; a claim that is never
//! finished simply goes stale, and the next sweep claims the reminder again.

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait, LockBehavior, LockType, Query, SelectStatement, UpdateStatement},
    DbBackend, FromQueryResult, Order, QueryTrait,
};
use uuid::Uuid;

use super::{reminders, Entity, Model};

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

/// Where a batch ended: one sweep walks the due reminders once, in (date, id) order, so a later
/// batch never re-reads the rows an earlier one claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub reminder_date: NaiveDate,
    pub id: i64,
}

/// A batch of reminders that belong to whoever holds `token`.
#[derive(Debug, Clone)]
pub struct Claim {
    pub token: String,
    pub reminders: Vec<ClaimedReminder>,
}

/// What a claim returns of each reminder: enough to enqueue its job and move the cursor (the
/// worker re-reads the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromQueryResult)]
pub struct ClaimedReminder {
    pub id: i64,
    pub reminder_date: NaiveDate,
}

impl Claim {
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.reminders.is_empty()
    }

    /// The last reminder of the batch in claiming order.
    #[must_use]
    pub fn cursor(&self) -> Option<Cursor> {
        self.reminders
            .iter()
            .map(|r| Cursor {
                reminder_date: r.reminder_date,
                id: r.id,
            })
            .max_by_key(|c| (c.reminder_date, c.id))
    }
}

impl ClaimPolicy {
    /// Unsent, not held by a live claim, not given up on.
    fn claimable(&self) -> Condition {
        let stale_before = self.now - self.claim_timeout;
        Condition::all()
            .add(reminders::Column::SentAt.is_null())
            .add(
                Condition::any()
                    .add(reminders::Column::ClaimedAt.is_null())
                    .add(reminders::Column::ClaimedAt.lt(stale_before)),
            )
            .add(reminders::Column::Attempts.lt(self.max_attempts))
    }
}

impl ClaimPolicy {
    /// The claim of the next batch: one `UPDATE` that stamps `token` on the first
    /// `batch_size` claimable reminders after `after` (in due order) and returns their ids. Public
    /// so the benchmark can show its plan (docs/benchmarks/reminder-sweep.md).
    ///
    /// `RETURNING` reads the claim back in the same statement. A separate read by token would
    /// need an index on `claim_token`, and any index on a column the claim writes stops
    /// `PostgreSQL` from making the claim a HOT update (no index writes); measured, the index
    /// made each claim about four times slower.
    #[must_use]
    pub fn claim_statement(
        &self,
        backend: DbBackend,
        token: &str,
        after: Option<Cursor>,
    ) -> UpdateStatement {
        let mut claim = Entity::update_many()
            .col_expr(reminders::Column::ClaimToken, Expr::val(token))
            .col_expr(reminders::Column::ClaimedAt, Expr::val(self.now))
            .col_expr(reminders::Column::UpdatedAt, Expr::val(self.now))
            .col_expr(
                reminders::Column::Attempts,
                Expr::col(reminders::Column::Attempts).add(1),
            )
            .filter(reminders::Column::Id.in_subquery(self.due_batch(backend, after)))
            // Checked again on the row itself: between the selection and the update another
            // sweep may have claimed it (PostgreSQL re-evaluates this after the row lock).
            .filter(self.claimable())
            .into_query();
        claim.returning(
            Query::returning().columns([reminders::Column::Id, reminders::Column::ReminderDate]),
        );
        claim
    }

    /// The ids of the next batch to claim: due, claimable, after `after` in (date, id) order.
    fn due_batch(&self, backend: DbBackend, after: Option<Cursor>) -> SelectStatement {
        let mut due = Query::select();
        due.column(reminders::Column::Id)
            .from(Entity)
            .cond_where(self.claimable())
            .and_where(reminders::Column::ReminderDate.lte(self.day))
            .order_by(reminders::Column::ReminderDate, Order::Asc)
            .order_by(reminders::Column::Id, Order::Asc)
            .limit(self.batch_size);
        if let Some(after) = after {
            due.and_where(after_cursor(after));
        }
        if backend == DbBackend::Postgres {
            // A second sweep skips the rows the first is claiming instead of waiting for them.
            due.lock_with_behavior(LockType::Update, LockBehavior::SkipLocked);
        }
        due
    }
}

impl Model {
    /// Claims up to `batch_size` due reminders after `after`, counting an attempt on each, in
    /// one atomic statement that returns exactly the rows it stamped with the new claim token.
    /// An empty claim means nothing is left to claim.
    ///
    /// # Errors
    /// Database errors.
    pub async fn claim_due<C: ConnectionTrait>(
        db: &C,
        policy: &ClaimPolicy,
        after: Option<Cursor>,
    ) -> Result<Claim> {
        let token = Uuid::new_v4().to_string();
        let claim = policy.claim_statement(db.get_database_backend(), &token, after);
        let mut reminders = db
            .query_all(&claim)
            .await?
            .iter()
            .map(|row| ClaimedReminder::from_query_result(row, ""))
            .collect::<Result<Vec<_>, _>>()?;
        reminders.sort_by_key(|r| (r.reminder_date, r.id));
        Ok(Claim { token, reminders })
    }

    /// The reminder, if it is still unsent and `token` still holds it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn find_claimed<C: ConnectionTrait>(
        db: &C,
        id: i64,
        token: &str,
    ) -> Result<Option<Self>> {
        Ok(Entity::find()
            .filter(Self::held_by(id, token))
            .one(db)
            .await?)
    }

    /// Renews the claim just before an email goes out, so a slow worker is not taken for a dead
    /// one. `false`: the claim was lost (taken over, or the reminder is sent or gone); stop.
    ///
    /// # Errors
    /// Database errors.
    pub async fn renew_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<bool> {
        let res = Entity::update_many()
            .col_expr(reminders::Column::ClaimedAt, Expr::val(now()))
            .filter(Self::held_by(id, token))
            .exec(db)
            .await?;
        Ok(res.rows_affected == 1)
    }

    /// Marks the reminder sent, only if `token` still holds it: whoever lost the claim cannot
    /// mark it. `false` when it was not ours (any more).
    ///
    /// # Errors
    /// Database errors.
    pub async fn mark_sent<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<bool> {
        let at = now();
        let res = Entity::update_many()
            .col_expr(reminders::Column::SentAt, Expr::val(at))
            .col_expr(reminders::Column::UpdatedAt, Expr::val(at))
            .col_expr(
                reminders::Column::ClaimToken,
                Expr::val(Option::<String>::None),
            )
            .filter(Self::held_by(id, token))
            .exec(db)
            .await?;
        Ok(res.rows_affected == 1)
    }

    /// Gives the reminder back after a failed send, so the next sweep claims it at once instead
    /// of waiting for the claim to go stale.
    ///
    /// # Errors
    /// Database errors.
    pub async fn release_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<()> {
        Self::release(db, Self::held_by(id, token)).await
    }

    /// Gives back every unsent reminder of a claim (its jobs could not be enqueued).
    ///
    /// # Errors
    /// Database errors.
    pub async fn release_all<C: ConnectionTrait>(db: &C, claim: &Claim) -> Result<()> {
        Self::release(
            db,
            Condition::all()
                .add(reminders::Column::Id.is_in(claim.reminders.iter().map(|r| r.id)))
                .add(reminders::Column::ClaimToken.eq(&claim.token))
                .add(reminders::Column::SentAt.is_null()),
        )
        .await
    }

    async fn release<C: ConnectionTrait>(db: &C, which: Condition) -> Result<()> {
        Entity::update_many()
            .col_expr(
                reminders::Column::ClaimToken,
                Expr::val(Option::<String>::None),
            )
            .col_expr(
                reminders::Column::ClaimedAt,
                Expr::val(Option::<DateTimeWithTimeZone>::None),
            )
            .filter(which)
            .exec(db)
            .await?;
        Ok(())
    }

    pub(super) fn held_by(id: i64, token: &str) -> Condition {
        Condition::all()
            .add(reminders::Column::Id.eq(id))
            .add(reminders::Column::ClaimToken.eq(token))
            .add(reminders::Column::SentAt.is_null())
    }
}

/// `(reminder_date, id) > cursor`: a range on the due index.
fn after_cursor(after: Cursor) -> Expr {
    Expr::tuple([
        Expr::col((Entity, reminders::Column::ReminderDate)),
        Expr::col((Entity, reminders::Column::Id)),
    ])
    .gt(Expr::tuple([
        Expr::val(after.reminder_date),
        Expr::val(after.id),
    ]))
}

/// The clock claims are stamped with: UTC, in the column's type.
#[must_use]
pub fn now() -> DateTimeWithTimeZone {
    chrono::Utc::now().fixed_offset()
}
