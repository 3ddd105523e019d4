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
    FromQueryResult, Order,
};
use uuid::Uuid;

use super::{reminders, Entity, Model};
use crate::models::{_entities::reminder_claims, sweep::Scope};

/// What one sweep may claim.
#[derive(Debug, Clone)]
pub struct ClaimPolicy {
    /// Reminders dated on or before this day are due.
    pub day: NaiveDate,
    /// The organizations whose reminders are claimed: those for which `day` is their day.
    pub scope: Scope,
    /// The sweep's clock: claims are stamped with it and judged stale against it.
    pub now: DateTimeWithTimeZone,
    pub batch_size: u64,
    /// A claim older than this belongs to a worker that died.
    pub claim_timeout: Duration,
    /// Reminders claimed this many times are not claimed again.
    pub max_attempts: i32,
    /// Only reminders a sweep already claimed, whose claim went stale (their job lost with
    /// the queue, or their worker dead): the frequent retake, which sends nothing the daily
    /// sweep has not handed out yet.
    pub only_stale_claims: bool,
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

/// What a claim returns of each reminder: enough to enqueue its job, one per organization (the
/// worker re-reads the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimedReminder {
    pub id: i64,
    pub organization_id: i64,
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
        let mut end = self.due_reminders(after, None);
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
    ///
    /// # Panics
    /// Never in practice: the selection names the same four columns as the insert, which is
    /// all `select_from` checks.
    #[must_use]
    pub fn claim_statement(
        &self,
        token: &str,
        after: Option<Cursor>,
        upto: Option<Cursor>,
    ) -> InsertStatement {
        let mut due = self.due_reminders(after, upto);
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

impl ClaimPolicy {
    /// `SELECT ... FROM reminders` over the unsent reminders due by `day`, after `after` and up
    /// to `upto` in (date, id) order: a range of the due index; with `only_stale_claims`, those
    /// whose claim another sweep may take over.
    fn due_reminders(&self, after: Option<Cursor>, upto: Option<Cursor>) -> SelectStatement {
        let mut due = Query::select();
        due.from(Entity)
            // `sent_at IS NULL` word for word as the partial index's predicate.
            .and_where(reminders::Column::SentAt.is_null())
            .and_where(reminders::Column::ReminderDate.lte(self.day));
        if let Some(orgs) = self.scope.organization_ids() {
            due.and_where(Expr::col((Entity, reminders::Column::OrganizationId)).in_subquery(orgs));
        }
        if let Some(after) = after {
            due.and_where(after_cursor(after));
        }
        if let Some(upto) = upto {
            due.and_where(up_to_cursor(upto));
        }
        if self.only_stale_claims {
            let mut stale = Query::select();
            stale
                .expr(Expr::val(1))
                .from(reminder_claims::Entity)
                .and_where(
                    Expr::col((reminder_claims::Entity, reminder_claims::Column::ReminderId))
                        .equals((Entity, reminders::Column::Id)),
                )
                .cond_where(self.takeover());
            due.and_where(Expr::exists(stale));
        }
        due
    }
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
        let ids = db
            .query_all(&claim)
            .await?
            .iter()
            .map(|row| row.try_get::<i64>("", "reminder_id"))
            .collect::<Result<Vec<_>, _>>()?;
        // Their organizations, for one job per organization: a second statement, as `SQLite`
        // cannot join what an INSERT returns. A reminder deleted meanwhile is left out (its
        // claim went with it, or the next sweep's `drop_orphan_claims` takes it).
        let mut reminders: Vec<ClaimedReminder> = if ids.is_empty() {
            vec![]
        } else {
            Entity::find()
                .select_only()
                .columns([reminders::Column::Id, reminders::Column::OrganizationId])
                .filter(reminders::Column::Id.is_in(ids))
                .into_tuple::<(i64, i64)>()
                .all(db)
                .await?
                .into_iter()
                .map(|(id, organization_id)| ClaimedReminder {
                    id,
                    organization_id,
                })
                .collect()
        };
        reminders.sort_by_key(|r| r.id);
        Ok(Claim {
            token,
            reminders,
            next,
        })
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
