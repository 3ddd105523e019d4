//! A job's worker gathers its organization's claimed reminders under one token of its own, so
//! that a day's reminders become one email per recipient however the sweep split them: over
//! batches (a job per organization per batch) or between two sweeps at once. It takes its own
//! job's claims and the live claims of jobs of the same organization that no worker has
//! started yet (their token is still a sweep's); a started job's claims carry a worker's token
//! and are never taken by another worker, only, once stale, by a sweep, as before.

use std::collections::{BTreeMap, HashSet};

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, Query},
    QuerySelect,
};
use uuid::Uuid;

use super::{claims::now, reminders, Entity, Model};
use crate::models::_entities::reminder_claims;

/// How a worker's token begins; a sweep's is a bare UUID.
pub const WORKER_TOKEN_PREFIX: &str = "w:";

/// The reminders one worker holds for one organization.
#[derive(Debug, Clone)]
pub struct Group {
    /// The worker's token, on every claim of the group.
    pub token: String,
    pub organization_id: i64,
    /// Each reminder held, with the attempts counted on its claim.
    pub attempts: BTreeMap<i64, i32>,
}

impl Model {
    /// Moves to a new worker token the claims of the organization of `ids` that this job may
    /// send: those `job_token` holds, and the live ones (claimed at or after `fresh_after`) of
    /// other jobs not started yet, on reminders due by `due_by`. `None` when the job's
    /// reminders are all gone.
    ///
    /// One transaction, taking the claims one by one in the order a sweep's claim statement
    /// reaches them, (date, id): two workers of the same organization meet at its first claim,
    /// and the second waits there until the first has gathered everything and committed, then
    /// finds nothing left to take (`PostgreSQL` re-checks the condition on the row it waited
    /// for; `SQLite` writes one transaction at a time), so they do not split the organization
    /// between them. A sweep's claim statement locks rows in the same order: no deadlock.
    ///
    /// # Errors
    /// Database errors.
    pub async fn gather(
        db: &DatabaseConnection,
        ids: &[i64],
        job_token: &str,
        due_by: NaiveDate,
        fresh_after: DateTimeWithTimeZone,
    ) -> Result<Option<Group>> {
        let Some(organization_id) = Entity::find()
            .select_only()
            .column(reminders::Column::OrganizationId)
            .filter(reminders::Column::Id.is_in(ids.iter().copied()))
            .into_tuple::<i64>()
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        let token = format!("{WORKER_TOKEN_PREFIX}{}", Uuid::new_v4().simple());
        let mut attempts = BTreeMap::new();
        let txn = crate::models::begin_write(db).await?;
        let mut claims = candidates(&txn, organization_id, job_token, due_by, fresh_after).await?;
        let dates: BTreeMap<i64, NaiveDate> = Entity::find()
            .select_only()
            .columns([reminders::Column::Id, reminders::Column::ReminderDate])
            .filter(reminders::Column::Id.is_in(claims.iter().map(|c| c.reminder_id)))
            .into_tuple::<(i64, NaiveDate)>()
            .all(&txn)
            .await?
            .into_iter()
            .collect();
        claims.sort_by_key(|c| (dates.get(&c.reminder_id).copied(), c.reminder_id));
        for claim in claims {
            let res = reminder_claims::Entity::update_many()
                .col_expr(reminder_claims::Column::Token, Expr::val(&token))
                .col_expr(reminder_claims::Column::ClaimedAt, Expr::val(now()))
                .filter(reminder_claims::Column::ReminderId.eq(claim.reminder_id))
                .filter(takeable(job_token, fresh_after))
                .exec(&txn)
                .await?;
            if res.rows_affected == 1 {
                attempts.insert(claim.reminder_id, claim.attempts);
            }
        }
        txn.commit().await?;
        Ok(Some(Group {
            token,
            organization_id,
            attempts,
        }))
    }

    /// Renews, just before an email goes out, the claims `token` holds on `ids`; the ones still
    /// held (the others were taken over, or their reminder is sent or gone).
    ///
    /// # Errors
    /// Database errors.
    pub async fn renew_held<C: ConnectionTrait>(
        db: &C,
        token: &str,
        ids: &[i64],
    ) -> Result<HashSet<i64>> {
        let mut held = HashSet::new();
        for &id in ids {
            if Self::renew_claim(db, id, token).await? {
                held.insert(id);
            }
        }
        Ok(held)
    }
}

/// The claims a job may take: its own, or a live one of a job not started.
fn takeable(job_token: &str, fresh_after: DateTimeWithTimeZone) -> Condition {
    Condition::any()
        .add(reminder_claims::Column::Token.eq(job_token))
        .add(
            Condition::all()
                .add(reminder_claims::Column::Token.not_like(format!("{WORKER_TOKEN_PREFIX}%")))
                .add(reminder_claims::Column::ClaimedAt.gte(fresh_after)),
        )
}

/// The claims on the organization's unsent reminders that look takeable now: its own (any
/// date: they are what the sweep handed this job), others' due by `due_by`.
async fn candidates<C: ConnectionTrait>(
    db: &C,
    organization_id: i64,
    job_token: &str,
    due_by: NaiveDate,
    fresh_after: DateTimeWithTimeZone,
) -> Result<Vec<reminder_claims::Model>> {
    let unsent = |due: Option<NaiveDate>| {
        let mut q = Query::select();
        q.column(reminders::Column::Id)
            .from(Entity)
            .and_where(reminders::Column::OrganizationId.eq(organization_id))
            .and_where(reminders::Column::SentAt.is_null());
        if let Some(due) = due {
            q.and_where(reminders::Column::ReminderDate.lte(due));
        }
        q
    };
    Ok(reminder_claims::Entity::find()
        .filter(
            Condition::any()
                .add(
                    Condition::all()
                        .add(reminder_claims::Column::Token.eq(job_token))
                        .add(reminder_claims::Column::ReminderId.in_subquery(unsent(None))),
                )
                .add(
                    Condition::all()
                        .add(takeable(job_token, fresh_after))
                        .add(reminder_claims::Column::ReminderId.in_subquery(unsent(Some(due_by)))),
                ),
        )
        .order_by_asc(reminder_claims::Column::ReminderId)
        .all(db)
        .await?)
}
