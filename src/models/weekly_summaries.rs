//! The weekly summary emails sent, one a week per organization (see
//! `workers::weekly_summary`).

use chrono::{NaiveDate, Utc};
use loco_rs::prelude::*;
use sea_orm::sea_query::OnConflict;

pub use super::_entities::weekly_summaries::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// Takes the organization's summary of the week starting `week`; `false` when it was already
/// taken (sent, or being sent).
///
/// # Errors
/// Database errors.
pub async fn claim(db: &DatabaseConnection, org_id: i64, week: NaiveDate) -> Result<bool> {
    let now = Utc::now();
    let inserted = Entity::insert(ActiveModel {
        organization_id: ActiveValue::Set(org_id),
        week_start: ActiveValue::Set(week),
        created_at: ActiveValue::Set(now.into()),
        updated_at: ActiveValue::Set(now.into()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            weekly_summaries::Column::OrganizationId,
            weekly_summaries::Column::WeekStart,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(inserted > 0)
}

/// Whether the organization's summary of the week starting `week` is taken (sent, or being
/// sent): the hourly task then queues nothing for it.
///
/// # Errors
/// Database errors.
pub async fn is_taken(db: &DatabaseConnection, org_id: i64, week: NaiveDate) -> Result<bool> {
    Ok(Entity::find()
        .filter(weekly_summaries::Column::OrganizationId.eq(org_id))
        .filter(weekly_summaries::Column::WeekStart.eq(week))
        .count(db)
        .await?
        > 0)
}

/// Gives a claimed week back (its emails could not be handed on).
///
/// # Errors
/// Database errors.
pub async fn release(db: &DatabaseConnection, org_id: i64, week: NaiveDate) -> Result<()> {
    Entity::delete_many()
        .filter(weekly_summaries::Column::OrganizationId.eq(org_id))
        .filter(weekly_summaries::Column::WeekStart.eq(week))
        .exec(db)
        .await?;
    Ok(())
}
