//! "Request corrections": the days a vendor was emailed its gaps, at most once a day per vendor
//! (docs/product.md, "Requirements and gaps").

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{sea_query::OnConflict, ActiveValue};

pub use super::_entities::gap_requests::{self, ActiveModel, Entity, Model};
use super::{_entities::vendors, refusal::Refusal};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// Notes that `vendor` is asked today; the unique index decides between two requests at once.
///
/// # Errors
/// `AlreadyRequested` when it was asked today already; database errors.
pub async fn record<C: ConnectionTrait>(
    db: &C,
    vendor: &vendors::Model,
    today: NaiveDate,
) -> Result<()> {
    let now = chrono::Utc::now();
    let inserted = Entity::insert(ActiveModel {
        organization_id: ActiveValue::Set(vendor.organization_id),
        vendor_id: ActiveValue::Set(vendor.id),
        requested_on: ActiveValue::Set(today),
        created_at: ActiveValue::Set(now.into()),
        updated_at: ActiveValue::Set(now.into()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            gap_requests::Column::VendorId,
            gap_requests::Column::RequestedOn,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    if inserted == 0 {
        return Err(Refusal::AlreadyRequested(format!(
            "{} was asked for corrections today already. You can ask again tomorrow.",
            vendor.name
        ))
        .into());
    }
    Ok(())
}

/// Forgets today's request, when its email could not be sent: the person may try again.
///
/// # Errors
/// Database errors.
pub async fn forget<C: ConnectionTrait>(
    db: &C,
    vendor: &vendors::Model,
    today: NaiveDate,
) -> Result<()> {
    Entity::delete_many()
        .filter(gap_requests::Column::VendorId.eq(vendor.id))
        .filter(gap_requests::Column::RequestedOn.eq(today))
        .exec(db)
        .await?;
    Ok(())
}
