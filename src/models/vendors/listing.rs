//! The vendor list and the dashboard's vendor counts, filtered, counted and paged in SQL: only
//! the page's vendors and their current documents are read.

use std::collections::HashMap;

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Alias, Expr, ExprTrait, Func, Query},
    FromQueryResult,
};

use super::{today, vendors, Entity, Model, VendorStanding};
use crate::models::{
    _entities::documents,
    compliance::{
        sql::{rank, vendor_rank},
        Status,
    },
    search::{self, Page},
};

/// Filters of the vendor list.
#[derive(Debug, Default, Clone)]
pub struct VendorQuery {
    pub status: Option<Status>,
    /// Text in the name, email, service type or company key.
    pub q: Option<String>,
    pub page: Page,
}

/// How many of the organization's vendors have each status.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct VendorCounts {
    pub total: u64,
    pub current: u64,
    pub expiring_soon: u64,
    pub expired: u64,
    pub missing: u64,
}

/// What a vendor's standing needs of one of its current documents.
#[derive(Debug, Clone, FromQueryResult)]
struct SlotDocument {
    vendor_id: i64,
    pid: Uuid,
    slot: String,
    expiration_date: Option<NaiveDate>,
}

impl Model {
    /// The organization's vendors matching `query`, by name, with their standing (the page
    /// only), and how many match in all.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(
        db: &DatabaseConnection,
        org_id: i64,
        query: &VendorQuery,
    ) -> Result<(Vec<VendorStanding>, u64)> {
        let today = today();
        let mut select = Entity::find().in_tenant(org_id);
        if let Some(q) = search::text(query.q.as_deref()) {
            select = select.filter(
                [
                    vendors::Column::Name,
                    vendors::Column::Email,
                    vendors::Column::ServiceType,
                    vendors::Column::Key,
                ]
                .into_iter()
                .fold(Condition::any(), |any, col| {
                    any.add(search::contains_ci((vendors::Entity, col), q))
                }),
            );
        }
        if let Some(status) = query.status {
            select = select.filter(vendor_rank(today).eq(rank(status)));
        }
        let total = select.clone().count(db).await?;
        let page = query
            .page
            .apply(
                select
                    .order_by_asc(vendors::Column::Name)
                    .order_by_asc(vendors::Column::Id),
            )
            .all(db)
            .await?;
        Ok((Self::standings_of(db, page, today).await?, total))
    }

    /// The standing of each of `vendors`, from one query for their current documents.
    async fn standings_of(
        db: &DatabaseConnection,
        vendors: Vec<Self>,
        today: NaiveDate,
    ) -> Result<Vec<VendorStanding>> {
        if vendors.is_empty() {
            return Ok(vec![]);
        }
        let current = documents::Entity::find()
            .select_only()
            .columns([
                documents::Column::VendorId,
                documents::Column::Pid,
                documents::Column::Slot,
                documents::Column::ExpirationDate,
            ])
            .filter(documents::Column::VendorId.is_in(vendors.iter().map(|v| v.id)))
            .filter(documents::Column::IsCurrent.eq(true))
            .into_model::<SlotDocument>()
            .all(db)
            .await?;
        let mut by_vendor: HashMap<i64, Vec<SlotDocument>> = HashMap::new();
        for doc in current {
            by_vendor.entry(doc.vendor_id).or_default().push(doc);
        }
        Ok(vendors
            .into_iter()
            .map(|v| {
                let docs = by_vendor.remove(&v.id).unwrap_or_default();
                VendorStanding::of(
                    v,
                    docs.iter()
                        .map(|d| (d.slot.as_str(), d.expiration_date, d.pid)),
                    today,
                )
            })
            .collect())
    }

    /// How many of the organization's vendors have each status (one grouped query).
    ///
    /// # Errors
    /// Database errors.
    pub async fn counts_by_status(db: &DatabaseConnection, org_id: i64) -> Result<VendorCounts> {
        let rank_of = Alias::new("vendor_rank");
        let inner = Query::select()
            .expr_as(vendor_rank(today()), rank_of.clone())
            .from(vendors::Entity)
            .and_where(Expr::col((vendors::Entity, vendors::Column::OrganizationId)).eq(org_id))
            .to_owned();
        let n = Alias::new("n");
        let grouped = Query::select()
            .column(rank_of.clone())
            .expr_as(Func::count(Expr::col(rank_of.clone())), n.clone())
            .from_subquery(inner, Alias::new("ranked"))
            .group_by_col(rank_of)
            .to_owned();
        let mut counts = VendorCounts::default();
        for row in db.query_all(&grouped).await? {
            let r: i32 = row.try_get("", "vendor_rank")?;
            let n = u64::try_from(row.try_get::<i64>("", "n")?).unwrap_or(0);
            counts.total += n;
            let slot = if r == rank(Status::Current) {
                &mut counts.current
            } else if r == rank(Status::ExpiringSoon) {
                &mut counts.expiring_soon
            } else if r == rank(Status::Expired) {
                &mut counts.expired
            } else {
                &mut counts.missing
            };
            *slot += n;
        }
        Ok(counts)
    }
}
