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
use sea_orm::{DbBackend, Statement};

pub use super::_entities::vendor_figures::{ActiveModel, Entity, Model};
use super::{
    compliance::{self, Status},
    vendors::{self, VendorCounts},
};

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
    let backend = db.get_database_backend();
    let param = match backend {
        DbBackend::Postgres => "$1",
        _ => "?",
    };
    let sql = format!(
        "SELECT CASE WHEN current_documents > 0 THEN 1 ELSE 0 END AS has_current, \
         first_expiration, COUNT(*) AS n, SUM(missing_required) AS missing \
         FROM vendor_figures WHERE organization_id = {param} \
         GROUP BY CASE WHEN current_documents > 0 THEN 1 ELSE 0 END, first_expiration"
    );
    let rows = db
        .query_all_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [org_id.into()],
        ))
        .await?;
    let mut figures = OrganizationFigures::default();
    for row in rows {
        let has_current: i32 = row.try_get("", "has_current")?;
        let first: Option<NaiveDate> = row.try_get("", "first_expiration")?;
        let n = u64::try_from(row.try_get::<i64>("", "n")?).unwrap_or(0);
        let missing = u64::try_from(row.try_get::<i64>("", "missing")?).unwrap_or(0);
        let counts = &mut figures.vendors;
        counts.total += n;
        figures.missing_required += missing;
        *if has_current == 0 {
            &mut counts.missing
        } else {
            match compliance::document_status(first, today) {
                Status::Current | Status::Missing => &mut counts.current,
                Status::ExpiringSoon => &mut counts.expiring_soon,
                Status::Expired => &mut counts.expired,
            }
        } += n;
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
