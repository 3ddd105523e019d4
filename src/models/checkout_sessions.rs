//! The Stripe Checkout sessions of each organization: those the server created, and those
//! that upgraded it (each at most once; see `models::billing`).

use chrono::Utc;
use loco_rs::prelude::*;
use sea_orm::sea_query::{Expr, OnConflict};

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
    let inserted = Entity::insert(ActiveModel {
        session_id: ActiveValue::Set(session_id.to_string()),
        price_id: ActiveValue::Set(price_id.to_string()),
        expires_at: ActiveValue::Set(None),
        upgraded_at: ActiveValue::Set(Some(now.into())),
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
