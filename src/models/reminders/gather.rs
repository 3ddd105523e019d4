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
    /// One row per statement: a single-row update holds no other lock while it waits, so it
    /// cannot deadlock with a sweep's claim statement. A claim another worker moved meanwhile
    /// no longer matches (`PostgreSQL` re-checks the condition on the row it waited for).
    ///
    /// # Errors
    /// Database errors.
    pub async fn gather<C: ConnectionTrait>(
        db: &C,
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
        for claim in candidates(db, organization_id, job_token, due_by, fresh_after).await? {
            let res = reminder_claims::Entity::update_many()
                .col_expr(reminder_claims::Column::Token, Expr::val(&token))
                .col_expr(reminder_claims::Column::ClaimedAt, Expr::val(now()))
                .filter(reminder_claims::Column::ReminderId.eq(claim.reminder_id))
                .filter(takeable(job_token, fresh_after))
                .exec(db)
                .await?;
            if res.rows_affected == 1 {
                attempts.insert(claim.reminder_id, claim.attempts);
            }
        }
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
