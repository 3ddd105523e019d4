//! Claiming due reminders for sending. The database decides who sends what: a claim is one
//! conditional `UPDATE ... RETURNING` that stamps a batch of unclaimed (or abandoned) reminders
//! with a fresh token and returns them, so two sweeps running at once, or a sweep re-run after a
//! crash, never hand the same reminder to two workers. Loco's queue does not retry failed jobs; a claim that is never
//! finished simply goes stale, and the next sweep claims the reminder again.

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait, Query, SelectStatement, UpdateStatement},
    FromQueryResult, Order, QueryTrait,
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
    /// Where the next batch ends: the `batch_size`-th unsent reminder due after `after`, in
    /// (date, id) order; no row when fewer are left. It reads only the due index (an index-only
    /// scan on `PostgreSQL`). Public so the benchmark can show its plan
    /// (docs/benchmarks/reminder-sweep.md).
    #[must_use]
    pub fn batch_end_statement(&self, after: Option<Cursor>) -> SelectStatement {
        let mut end = Query::select();
        end.columns([reminders::Column::ReminderDate, reminders::Column::Id])
            .from(Entity)
            // `sent_at IS NULL` word for word as the partial index's predicate.
            .and_where(reminders::Column::SentAt.is_null())
            .and_where(reminders::Column::ReminderDate.lte(self.day))
            .order_by(reminders::Column::ReminderDate, Order::Asc)
            .order_by(reminders::Column::Id, Order::Asc)
            .offset(self.batch_size.saturating_sub(1))
            .limit(1);
        if let Some(after) = after {
            end.and_where(after_cursor(after));
        }
        end
    }

    /// The claim of one batch: one `UPDATE` that stamps `token` on the claimable reminders due
    /// after `after` and up to `upto` (to the end when `None`), counts an attempt on each, and
    /// returns them. Public so the benchmark can show its plan.
    ///
    /// A range of the due index rather than `id IN (SELECT ... LIMIT n)`: the update walks the
    /// index once and touches only the rows it changes, with no second look-up by primary key
    /// and no row locks taken ahead of it. Two sweeps at once stay apart because the update
    /// checks `claimable` on each row after locking it (`PostgreSQL` re-reads a row another
    /// transaction changed meanwhile; `SQLite` has one writer at a time).
    ///
    /// `RETURNING` reads the claim back in the same statement. A separate read by token would
    /// need an index on `claim_token`, and any index on a column the claim writes stops
    /// `PostgreSQL` from making the claim a HOT update (no index writes); measured, the index
    /// made each claim about four times slower.
    #[must_use]
    pub fn claim_statement(
        &self,
        token: &str,
        after: Option<Cursor>,
        upto: Option<Cursor>,
    ) -> UpdateStatement {
        let mut range = Condition::all().add(reminders::Column::ReminderDate.lte(self.day));
        if let Some(after) = after {
            range = range.add(after_cursor(after));
        }
        if let Some(upto) = upto {
            range = range.add(up_to_cursor(upto));
        }
        let mut claim = Entity::update_many()
            .col_expr(reminders::Column::ClaimToken, Expr::val(token))
            .col_expr(reminders::Column::ClaimedAt, Expr::val(self.now))
            .col_expr(reminders::Column::UpdatedAt, Expr::val(self.now))
            .col_expr(
                reminders::Column::Attempts,
                Expr::col(reminders::Column::Attempts).add(1),
            )
            .filter(self.claimable())
            .filter(range)
            .into_query();
        claim.returning(
            Query::returning().columns([reminders::Column::Id, reminders::Column::ReminderDate]),
        );
        claim
    }
}

impl Model {
    /// Claims the next batch of due reminders after `after` (at most `batch_size`), counting
    /// an attempt on each, in one atomic statement that returns exactly the rows it stamped
    /// with the new claim token. The batch may hold fewer, even none, when other sweeps hold
    /// some of its rows; `next` says where the walk goes on.
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
            .map(|row| ClaimedReminder::from_query_result(row, ""))
            .collect::<Result<Vec<_>, _>>()?;
        reminders.sort_by_key(|r| (r.reminder_date, r.id));
        Ok(Claim {
            token,
            reminders,
            next,
        })
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
