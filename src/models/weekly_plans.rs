//! The weekly plan (docs/product.md, "Content engine"): 3, 5 or 7 AI drafts a week, each a
//! generation job scheduled over the next 5 days for one unused keyword; the scheduler queues
//! each when it is due. One plan is active at a time; cancelling it cancels the drafts not yet
//! started.

use chrono::{DateTime, Duration, NaiveTime, Utc};
use loco_rs::prelude::*;
use sea_orm::entity::prelude::{ActiveEnum, DeriveActiveEnum, EnumIter, StringLen};
use sea_orm::ConnectionTrait;

pub use super::_entities::weekly_plans::{self, ActiveModel, Column, Entity, Model};
use super::{
    generation_jobs::{self as jobs, DEFAULT_WORD_COUNT, TONES},
    keywords,
    refusal::Refusal,
};
use crate::services::ai::Brief;

// `weekly_plans.status` (decision 49) stores `active` or `cancelled`; `finished` is an active
// plan none of whose drafts is still to come (`Plan::status`).
/// Where a weekly plan is: `finished` once none of its drafts is still to come.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum WeeklyPlanStatus {
    #[sea_orm(string_value = "active")]
    Active,
    #[sea_orm(string_value = "cancelled")]
    Cancelled,
    #[sea_orm(string_value = "finished")]
    Finished,
}

/// Posts a week and the plan's cost a month in US dollars (about $0.20 a post, 4.3 weeks a
/// month, rounded as the admin screen shows it).
pub const PLANS: [(i32, i32); 3] = [(3, 9), (5, 15), (7, 21)];
/// The drafts are spread over this many days from the next morning.
pub const SPREAD_DAYS: i64 = 5;
/// The hour (UTC) the first draft of a plan is due.
pub const FIRST_HOUR_UTC: u32 = 9;

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// A plan and its drafts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub plan: Model,
    pub jobs: Vec<jobs::Model>,
}

impl Model {
    /// The stored status; one no variant stores is read as cancelled.
    #[must_use]
    pub fn status(&self) -> WeeklyPlanStatus {
        super::state::stored(
            "weekly_plans.status",
            &self.status,
            WeeklyPlanStatus::Cancelled,
        )
    }
}

impl Plan {
    /// `Active`, `Cancelled`, or `Finished` once no draft is still to come.
    #[must_use]
    pub fn status(&self) -> WeeklyPlanStatus {
        if self.plan.status() == WeeklyPlanStatus::Cancelled {
            WeeklyPlanStatus::Cancelled
        } else if self.jobs.iter().any(|j| j.status().is_pending()) {
            WeeklyPlanStatus::Active
        } else {
            WeeklyPlanStatus::Finished
        }
    }
}

/// The plan of `posts_per_week` posts: `(posts, monthly cost)`.
///
/// # Errors
/// `Invalid` for a number other than 3, 5 or 7.
pub fn plan_of(posts_per_week: i64) -> Result<(i32, i32), Refusal> {
    PLANS
        .iter()
        .copied()
        .find(|(n, _)| i64::from(*n) == posts_per_week)
        .ok_or_else(|| Refusal::field("postsPerWeek", "Choose 3, 5 or 7 posts per week"))
}

/// When each of `count` drafts is due: spread evenly over [`SPREAD_DAYS`] days from the next
/// [`FIRST_HOUR_UTC`] o'clock.
#[must_use]
pub fn schedule(now: DateTime<Utc>, count: i32) -> Vec<DateTime<Utc>> {
    let morning = NaiveTime::from_hms_opt(FIRST_HOUR_UTC, 0, 0).unwrap_or_default();
    let mut first = now.date_naive().and_time(morning).and_utc();
    if first <= now {
        first += Duration::days(1);
    }
    let window = SPREAD_DAYS * 24 * 60;
    (0..count)
        .map(|i| first + Duration::minutes(window * i64::from(i) / i64::from(count.max(1))))
        .collect()
}

impl Model {
    /// Starts a plan (from [`plan_of`]) of drafts for the best unused keywords.
    ///
    /// # Errors
    /// `Taken` when a plan still has drafts to come; database errors (nothing recorded).
    pub async fn start(
        db: &DatabaseConnection,
        (count, monthly_cost): (i32, i32),
        now: DateTime<Utc>,
    ) -> Result<Plan> {
        let txn = crate::models::begin_write(db).await?;
        if let Some(current) = current(&txn).await? {
            if current.status() == WeeklyPlanStatus::Active {
                return Err(Refusal::Taken {
                    code: "conflict",
                    message: "A weekly plan is already running. Cancel it to start another."
                        .to_string(),
                }
                .into());
            }
        }
        let plan = ActiveModel {
            posts_per_week: ActiveValue::Set(count),
            monthly_cost: ActiveValue::Set(monthly_cost),
            status: ActiveValue::Set(WeeklyPlanStatus::Active.to_value()),
            created_at: ActiveValue::Set(now.into()),
            updated_at: ActiveValue::Set(now.into()),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        let picked = keywords::pick_for_plan(&txn, u64::try_from(count).unwrap_or(5)).await?;
        let mut created = Vec::new();
        for (keyword, due) in picked.iter().zip(schedule(now, count)) {
            let brief = Brief {
                keywords: vec![keyword.keyword.clone()],
                category: keyword.category.clone(),
                tone: TONES[0].to_string(),
                word_count: DEFAULT_WORD_COUNT,
            };
            created.push(jobs::Model::create(&txn, &brief, Some(due), Some(plan.id)).await?);
        }
        txn.commit().await?;
        Ok(Plan {
            plan,
            jobs: created,
        })
    }

    /// Cancels the active plan: its drafts not yet started are cancelled and their keywords
    /// freed; `None` when no plan is active.
    ///
    /// # Errors
    /// Database errors.
    pub async fn cancel(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<Option<Plan>> {
        let txn = crate::models::begin_write(db).await?;
        let Some(current) = current(&txn).await? else {
            return Ok(None);
        };
        if current.status() != WeeklyPlanStatus::Active {
            return Ok(None);
        }
        for job in &current.jobs {
            if job.status() == jobs::JobStatus::Scheduled {
                let mut active = job.clone().into_active_model();
                active.status = ActiveValue::Set(jobs::JobStatus::Cancelled.to_value());
                active.updated_at = ActiveValue::Set(now.into());
                active.update(&txn).await?;
                keywords::release(&txn, job.id).await?;
            }
        }
        let id = current.plan.id;
        let mut plan = current.plan.into_active_model();
        plan.status = ActiveValue::Set(WeeklyPlanStatus::Cancelled.to_value());
        plan.cancelled_at = ActiveValue::Set(Some(now.into()));
        plan.updated_at = ActiveValue::Set(now.into());
        plan.update(&txn).await?;
        let cancelled = current_by_id(&txn, Some(id)).await?;
        txn.commit().await?;
        Ok(cancelled)
    }

    /// The newest plan with its drafts.
    ///
    /// # Errors
    /// Database errors.
    pub async fn latest(db: &DatabaseConnection) -> Result<Option<Plan>> {
        current(db).await
    }
}

async fn current_id<C: ConnectionTrait>(db: &C) -> Result<Option<i64>> {
    Ok(Entity::find()
        .select_only()
        .column(Column::Id)
        .order_by_desc(Column::Id)
        .into_tuple()
        .one(db)
        .await?)
}

async fn current_by_id<C: ConnectionTrait>(db: &C, id: Option<i64>) -> Result<Option<Plan>> {
    let Some(id) = id else { return Ok(None) };
    let Some(plan) = Entity::find_by_id(id).one(db).await? else {
        return Ok(None);
    };
    let jobs = jobs::Entity::find()
        .filter(jobs::Column::WeeklyPlanId.eq(plan.id))
        .order_by_asc(jobs::Column::ScheduledFor)
        .order_by_asc(jobs::Column::Id)
        .all(db)
        .await?;
    Ok(Some(Plan { plan, jobs }))
}

async fn current<C: ConnectionTrait>(db: &C) -> Result<Option<Plan>> {
    current_by_id(db, current_id(db).await?).await
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn weekly_plan_statuses_are_stored_and_serialized_as_before() {
        super::super::state::assert_pinned(&[
            (WeeklyPlanStatus::Active, "active"),
            (WeeklyPlanStatus::Cancelled, "cancelled"),
            (WeeklyPlanStatus::Finished, "finished"),
        ]);
    }

    #[test]
    fn a_plan_is_spread_over_five_days_from_the_next_morning() {
        let now = Utc.with_ymd_and_hms(2026, 11, 23, 14, 0, 0).unwrap();
        let five = schedule(now, 5);
        assert_eq!(
            five[0],
            Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap()
        );
        assert_eq!(
            five[4],
            Utc.with_ymd_and_hms(2026, 11, 28, 9, 0, 0).unwrap()
        );
        let seven = schedule(now, 7);
        assert_eq!(seven.len(), 7);
        assert!(seven[6] < Utc.with_ymd_and_hms(2026, 11, 29, 9, 0, 0).unwrap());
        let early = Utc.with_ymd_and_hms(2026, 11, 23, 8, 59, 0).unwrap();
        assert_eq!(
            schedule(early, 3)[0],
            Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap()
        );
    }
}
