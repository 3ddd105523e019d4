//! Each vendor's figures kept by the database (migration `m20261204_000001_vendor_figures`):
//! how many current documents it has, the earliest expiration date among them, and how many
//! of its required documents have no current document in their slot. Triggers write them in
//! the transaction of every change that can move them, so the dashboard, the compliance
//! report's today and the weekly summary count one row per vendor instead of every current
//! document (docs/benchmarks/lists.md, "fifteenth pass").
//! [`vendors::Model::counts_by_status`] and [`vendors::Model::missing_required`] count the
//! same from the documents themselves; the tests hold the two to each other.

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::sea_query::{Alias, Expr, Query};

pub use super::_entities::vendor_figures::{ActiveModel, Entity, Model};
use super::vendors::{self, VendorCounts};

impl ActiveModelBehavior for ActiveModel {}

/// The organization's vendors by status on `today`, and the required documents they lack.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OrganizationFigures {
    pub vendors: VendorCounts,
    /// Required slots without a current document, over every vendor (the dashboard's
    /// "Missing" documents).
    pub missing_required: u64,
}

/// The organization's figures on `today`, from its vendors' kept rows: one statement, grouped by
/// whether a vendor has a current document and by its earliest expiration date (from the
/// index alone), each group's status decided here as a vendor's is.
///
/// # Errors
/// Database errors.
pub async fn of_organization<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    today: NaiveDate,
) -> Result<OrganizationFigures> {
    use super::_entities::vendor_figures::Column as F;
    let has_current = Expr::cust("CASE WHEN current_documents > 0 THEN 1 ELSE 0 END");
    let grouped = Query::select()
        .expr_as(has_current.clone(), Alias::new("has_current"))
        .column(F::FirstExpiration)
        .expr_as(Expr::cust("COUNT(*)"), Alias::new("n"))
        .expr_as(Expr::cust("SUM(missing_required)"), Alias::new("missing"))
        .from(Entity)
        .and_where(F::OrganizationId.eq(org_id))
        .add_group_by([has_current, Expr::col(F::FirstExpiration)])
        .to_owned();
    let mut figures = OrganizationFigures::default();
    for row in db.query_all(&grouped).await? {
        let has_current: i32 = row.try_get("", "has_current")?;
        let first: Option<NaiveDate> = row.try_get("", "first_expiration")?;
        let n = u64::try_from(row.try_get::<i64>("", "n")?).unwrap_or(0);
        let missing = u64::try_from(row.try_get::<i64>("", "missing")?).unwrap_or(0);
        figures.missing_required += missing;
        figures.vendors.add(has_current != 0, first, today, n);
    }
    Ok(figures)
}

/// The organization's figures counted from its documents, as the kept rows should give them
/// (the tests' reference).
///
/// # Errors
/// Database errors.
pub async fn counted(
    db: &DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
) -> Result<OrganizationFigures> {
    Ok(OrganizationFigures {
        vendors: vendors::Model::counts_by_status(db, org_id, today).await?,
        missing_required: vendors::Model::missing_required(db, org_id).await?,
    })
}

#[cfg(test)]
mod tests {
    use crate::models::compliance::Slot;

    #[test]
    fn the_migration_counts_over_every_slot() {
        let slots: Vec<&str> = Slot::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(slots, migration::VENDOR_FIGURE_SLOTS);
    }
}
