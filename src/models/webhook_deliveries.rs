//! The deliveries as a queue kept in the database. A row is `pending` until an attempt gets a
//! 2xx answer (`delivered`) or its event is 24 hours old (`failed`). The `webhooks` task takes
//! the rows that are due, holding each for a while (`claimed_until`) and handing its id to a
//! worker; an attempt that ends records its outcome and frees the row. A worker that dies
//! mid-attempt leaves the row held, and the task takes it again once the hold has passed: the
//! event is delivered later, with the same id, never lost.

use chrono::{DateTime, Duration, Utc};
use loco_rs::prelude::*;
use sea_orm::{
    entity::prelude::{DeriveActiveEnum, EnumIter, StringLen},
    sea_query::Expr,
    Condition,
};

pub use super::_entities::webhook_deliveries::{ActiveModel, Column, Entity, Model};

impl ActiveModelBehavior for ActiveModel {}

/// How long after its event a delivery is given up on.
pub const GIVE_UP_AFTER: Duration = Duration::hours(24);
/// Characters of an endpoint's answer kept for the delivery log.
pub const SNIPPET_CHARS: usize = 500;
/// Deliveries the log shows per endpoint.
pub const LOG_LENGTH: u64 = 50;
/// How long finished deliveries are kept.
pub const KEPT_FOR: Duration = Duration::days(30);

// `webhook_deliveries.status` (decision 49).
/// Where a delivery stands.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
#[schema(as = WebhookDeliveryStatus)]
pub enum Status {
    /// Not yet delivered: due at `next_attempt_at`.
    #[sea_orm(string_value = "pending")]
    Pending,
    /// An attempt got a 2xx answer.
    #[sea_orm(string_value = "delivered")]
    Delivered,
    /// Every attempt for 24 hours failed.
    #[sea_orm(string_value = "failed")]
    Failed,
}

impl Model {
    /// Where the delivery stands (a row changed by hand to an unknown state reads as failed:
    /// it is not sent again).
    #[must_use]
    pub fn status(&self) -> Status {
        super::state::stored("webhook_deliveries.status", &self.status, Status::Failed)
    }
}

/// The wait after the `attempts`-th failed attempt: 30 seconds, then 2, 10 and 30 minutes,
/// then 1, 2, 4 and 8 hours, then 8 hours again; the last try is made at 24 hours.
#[must_use]
pub fn wait_after(attempts: i32) -> Duration {
    match attempts {
        ..=1 => Duration::seconds(30),
        2 => Duration::minutes(2),
        3 => Duration::minutes(10),
        4 => Duration::minutes(30),
        5 => Duration::hours(1),
        6 => Duration::hours(2),
        7 => Duration::hours(4),
        _ => Duration::hours(8),
    }
}

/// What one attempt gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The endpoint's status code, when it answered.
    pub status: Option<u16>,
    /// The start of its answer.
    pub snippet: Option<String>,
    /// Why the attempt failed, in words, when it did.
    pub error: Option<String>,
}

impl Outcome {
    #[must_use]
    pub fn succeeded(&self) -> bool {
        self.error.is_none() && self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// Rows that may be taken at `now`: pending, due, and held by no one (or by someone whose hold
/// has passed).
fn takeable(now: DateTime<Utc>) -> Condition {
    Condition::all()
        .add(Column::Status.eq(Status::Pending))
        .add(Column::NextAttemptAt.lte(now))
        .add(
            Condition::any()
                .add(Column::ClaimedUntil.is_null())
                .add(Column::ClaimedUntil.lt(now)),
        )
}

/// Takes up to `limit` due deliveries, holding each until `now + hold`; returns their ids.
/// Each row is taken by one statement that checks it is still free, so two tasks at once never
/// take the same row.
///
/// # Errors
/// Database errors.
pub async fn take_due(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
    hold: Duration,
    limit: u64,
) -> Result<Vec<i64>> {
    let due: Vec<i64> = Entity::find()
        .select_only()
        .column(Column::Id)
        .filter(takeable(now))
        .order_by_asc(Column::NextAttemptAt)
        .limit(limit)
        .into_tuple()
        .all(db)
        .await?;
    let mut taken = Vec::with_capacity(due.len());
    for id in due {
        if hold_row(db, id, now, hold).await? {
            taken.push(id);
        }
    }
    Ok(taken)
}

/// Holds row `id` until `now + hold` if it is free; whether it was.
///
/// # Errors
/// Database errors.
pub async fn hold_row(
    db: &DatabaseConnection,
    id: i64,
    now: DateTime<Utc>,
    hold: Duration,
) -> Result<bool> {
    let updated = Entity::update_many()
        .col_expr(Column::ClaimedUntil, Expr::val(now + hold))
        .filter(Column::Id.eq(id))
        .filter(takeable(now))
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// Records what an attempt on pending delivery `row` gave at `now`, and frees it: delivered,
/// due again after [`wait_after`] (never later than 24 hours after its event), or failed when
/// those 24 hours are over.
///
/// # Errors
/// Database errors.
pub async fn record(
    db: &DatabaseConnection,
    row: &Model,
    outcome: &Outcome,
    now: DateTime<Utc>,
) -> Result<()> {
    let attempts = row.attempts + 1;
    let deadline = row.created_at.to_utc() + GIVE_UP_AFTER;
    let (status, next) = if outcome.succeeded() {
        (Status::Delivered, row.next_attempt_at.to_utc())
    } else if now >= deadline {
        (Status::Failed, row.next_attempt_at.to_utc())
    } else {
        (
            Status::Pending,
            Ord::min(now + wait_after(attempts), deadline),
        )
    };
    Entity::update_many()
        .col_expr(Column::Status, Expr::val(status))
        .col_expr(Column::Attempts, Expr::val(attempts))
        .col_expr(Column::NextAttemptAt, Expr::val(next))
        .col_expr(Column::ClaimedUntil, Expr::val(None::<DateTime<Utc>>))
        .col_expr(
            Column::ResponseStatus,
            Expr::val(outcome.status.map(i32::from)),
        )
        .col_expr(Column::ResponseSnippet, Expr::val(outcome.snippet.clone()))
        .col_expr(Column::Error, Expr::val(outcome.error.clone()))
        .col_expr(Column::LastAttemptAt, Expr::val(now))
        .col_expr(Column::UpdatedAt, Expr::val(now))
        .filter(Column::Id.eq(row.id))
        .filter(Column::Status.eq(Status::Pending))
        .exec(db)
        .await?;
    Ok(())
}

/// The endpoint's latest deliveries, newest first.
///
/// # Errors
/// Database errors.
pub async fn log(db: &DatabaseConnection, endpoint_id: i64) -> Result<Vec<Model>> {
    Ok(Entity::find()
        .filter(Column::WebhookEndpointId.eq(endpoint_id))
        .order_by_desc(Column::Id)
        .limit(LOG_LENGTH)
        .all(db)
        .await?)
}

/// The latest delivery of each of `endpoint_ids`, in one read.
///
/// # Errors
/// Database errors.
pub async fn latest_of(
    db: &DatabaseConnection,
    endpoint_ids: &[i64],
) -> Result<std::collections::HashMap<i64, Model>> {
    let newest = sea_orm::sea_query::Query::select()
        .expr(sea_orm::sea_query::Func::max(Expr::col(Column::Id)))
        .from(Entity)
        .and_where(Column::WebhookEndpointId.is_in(endpoint_ids.iter().copied()))
        .group_by_col(Column::WebhookEndpointId)
        .to_owned();
    Ok(Entity::find()
        .filter(Column::Id.in_subquery(newest))
        .all(db)
        .await?
        .into_iter()
        .map(|row| (row.webhook_endpoint_id, row))
        .collect())
}

/// Deletes delivered and failed deliveries older than [`KEPT_FOR`]; how many.
///
/// # Errors
/// Database errors.
pub async fn prune(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<u64> {
    Ok(Entity::delete_many()
        .filter(Column::Status.ne(Status::Pending))
        .filter(Column::CreatedAt.lt(now - KEPT_FOR))
        .exec(db)
        .await?
        .rows_affected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_waits_grow_and_the_first_retry_comes_within_a_minute() {
        assert!(wait_after(1) < Duration::minutes(1));
        let waits: Vec<Duration> = (1..=12).map(wait_after).collect();
        assert!(waits.windows(2).all(|w| w[0] <= w[1]));
        // Tried until 24 hours have passed: the waits before the ninth attempt add up to less.
        let first_eight: Duration = waits.iter().take(8).copied().sum();
        assert!(first_eight < GIVE_UP_AFTER);
    }

    #[test]
    fn statuses_are_stored_as_the_contract_names_them() {
        super::super::state::assert_pinned(&[
            (Status::Pending, "pending"),
            (Status::Delivered, "delivered"),
            (Status::Failed, "failed"),
        ]);
    }

    #[test]
    fn only_a_2xx_answer_delivers() {
        let outcome = |status: Option<u16>, error: Option<&str>| Outcome {
            status,
            snippet: None,
            error: error.map(ToString::to_string),
        };
        assert!(outcome(Some(200), None).succeeded());
        assert!(outcome(Some(204), None).succeeded());
        assert!(!outcome(Some(302), None).succeeded());
        assert!(!outcome(Some(500), None).succeeded());
        assert!(!outcome(None, Some("No answer within 10 seconds")).succeeded());
    }
}
