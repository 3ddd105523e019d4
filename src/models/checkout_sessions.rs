//! The Stripe Checkout sessions of each organization: those the server created, and those
//! that upgraded it (each at most once; see `models::billing`).

use chrono::{DateTime, Utc};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, OnConflict},
    QueryOrder,
};

pub use super::_entities::checkout_sessions::{self, ActiveModel, Column, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// Marks `session_id` as having upgraded organization `org_id`; `false` when it already has
/// (or is another organization's), so that the same paid session never upgrades twice. Two
/// writers at once mark it once: the conditional update and the unique session id decide.
///
/// # Errors
/// Database errors.
pub async fn mark_upgraded<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    session_id: &str,
    price_id: &str,
) -> Result<bool> {
    let now = Utc::now();
    let marked = Entity::update_many()
        .col_expr(Column::UpgradedAt, Expr::value(now.fixed_offset()))
        .col_expr(Column::UpdatedAt, Expr::value(now.fixed_offset()))
        .filter(Column::SessionId.eq(session_id))
        .filter(Column::OrganizationId.eq(org_id))
        .filter(Column::UpgradedAt.is_null())
        .exec(db)
        .await?
        .rows_affected;
    if marked > 0 {
        return Ok(true);
    }
    // A session the server did not create (one started before this table, or a Payment Link
    // for the Professional price) is recorded on its first upgrade.
    insert(db, org_id, session_id, price_id, None, Some(now)).await
}

/// Records a session the server created for organization `org_id`.
///
/// # Errors
/// Database errors.
pub async fn record_created<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    session_id: &str,
    price_id: &str,
    expires_at: Option<DateTime<Utc>>,
) -> Result<()> {
    insert(db, org_id, session_id, price_id, expires_at, None).await?;
    Ok(())
}

/// Inserts a session unless its id is already recorded; `true` when this call wrote it.
async fn insert<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    session_id: &str,
    price_id: &str,
    expires_at: Option<DateTime<Utc>>,
    upgraded_at: Option<DateTime<Utc>>,
) -> Result<bool> {
    let now = Utc::now();
    let inserted = Entity::insert(ActiveModel {
        session_id: ActiveValue::Set(session_id.to_string()),
        price_id: ActiveValue::Set(price_id.to_string()),
        expires_at: ActiveValue::Set(expires_at.map(Into::into)),
        upgraded_at: ActiveValue::Set(upgraded_at.map(Into::into)),
        organization_id: ActiveValue::Set(org_id),
        created_at: ActiveValue::Set(now.into()),
        updated_at: ActiveValue::Set(now.into()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(Column::SessionId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(inserted > 0)
}

/// A session handed back is one the customer still has time to pay on.
const REUSE_MARGIN_MINUTES: i64 = 10;

/// The organization's latest session the server created for `price_id` that has not
/// upgraded it and does not expire within the next minutes: the one a second click of
/// Upgrade hands back, if Stripe says it is still open.
///
/// # Errors
/// Database errors.
pub async fn latest_reusable<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    price_id: &str,
) -> Result<Option<Model>> {
    let soon = Utc::now() + chrono::Duration::minutes(REUSE_MARGIN_MINUTES);
    Ok(Entity::find()
        .filter(Column::OrganizationId.eq(org_id))
        .filter(Column::PriceId.eq(price_id))
        .filter(Column::UpgradedAt.is_null())
        .filter(Column::ExpiresAt.gt(soon.fixed_offset()))
        .order_by_desc(Column::Id)
        .one(db)
        .await?)
}
