//! The vendor list and the dashboard's vendor counts, filtered, counted and paged in SQL: only
//! the page's vendors and their current documents are read.

use std::collections::HashMap;

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Alias, Expr, ExprTrait, Func, JoinType, Query, QueryStatementBuilder},
    FromQueryResult,
};

use super::{parse_required, vendors, Entity, Model, VendorStanding, SERVICE_TYPES};
use crate::models::{
    _entities::documents,
    compliance::{
        sql::{document_rank, rank, vendor_rank},
        Status,
    },
    search::{self, Page, Sort},
};

/// Filters of the vendor list.
#[derive(Debug, Default, Clone, PartialEq, Eq, Hash)]
pub struct VendorQuery {
    pub status: Option<Status>,
    /// Text in the name, email, service type or company key.
    pub q: Option<String>,
    /// Only the vendors with a gap that counts (`true`), or only those without (`false`).
    pub gaps: Option<bool>,
    pub sort: Sort<VendorSort>,
    pub page: Page,
}

/// What the vendor list can be ordered by.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VendorSort {
    /// The name, whatever its case.
    #[default]
    Name,
    ServiceType,
    /// The vendor's status by severity: current, expiring soon, expired, missing.
    Status,
    /// How many current documents it has.
    DocumentCount,
    UpdatedAt,
}

impl VendorSort {
    /// The `sort` names of the API, each with its key.
    pub const KEYS: [(&'static str, Self); 5] = [
        ("name", Self::Name),
        ("serviceType", Self::ServiceType),
        ("status", Self::Status),
        ("documentCount", Self::DocumentCount),
        ("updatedAt", Self::UpdatedAt),
    ];

    /// The key in SQL, over the enclosing query's `vendors` row.
    fn expr(self, today: NaiveDate) -> Expr {
        let col = |c: vendors::Column| Expr::col((vendors::Entity, c));
        match self {
            Self::Name => Func::lower(col(vendors::Column::Name)).into(),
            Self::ServiceType => col(vendors::Column::ServiceType),
            Self::Status => vendor_rank(today),
            Self::DocumentCount => Expr::SubQuery(
                None,
                Box::new(
                    Query::select()
                        .expr(Func::count(Expr::col((
                            documents::Entity,
                            documents::Column::Id,
                        ))))
                        .from(documents::Entity)
                        .and_where(
                            Expr::col((documents::Entity, documents::Column::VendorId))
                                .equals((vendors::Entity, vendors::Column::Id)),
                        )
                        .and_where(
                            Expr::col((documents::Entity, documents::Column::IsCurrent)).eq(true),
                        )
                        .to_owned()
                        .into_sub_query_statement(),
                ),
            ),
            Self::UpdatedAt => col(vendors::Column::UpdatedAt),
        }
    }
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
    /// The organization's vendors matching `query`, in its order (ties by id), with their
    /// standing (the page only), and how many match in all.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(
        db: &DatabaseConnection,
        org_id: i64,
        query: &VendorQuery,
        today: NaiveDate,
    ) -> Result<(Vec<VendorStanding>, u64)> {
        let mut select = Entity::find().in_tenant(org_id);
        if let Some(q) = search::text(query.q.as_deref()) {
            // A service type also by its label: "general contractor" for `general-contractor`.
            let lower = q.to_lowercase();
            let labelled: Vec<&str> = SERVICE_TYPES
                .into_iter()
                .filter(|t| t.replace('-', " ").contains(&lower))
                .collect();
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
                })
                .add(vendors::Column::ServiceType.is_in(labelled)),
            );
        }
        if let Some(status) = query.status {
            select = select.filter(vendor_rank(today).eq(rank(status)));
        }
        if let Some(with_gaps) = query.gaps {
            let ids: Vec<i64> = crate::models::gaps::Review::vendors_with_gaps(db, org_id, today)
                .await?
                .iter()
                .map(|(v, _)| v.id)
                .collect();
            select = if with_gaps {
                select.filter(vendors::Column::Id.is_in(ids))
            } else {
                select.filter(vendors::Column::Id.is_not_in(ids))
            };
        }
        let count = select.clone().count(db);
        let page = query
            .page
            .apply(
                select
                    .order_by(query.sort.key.expr(today), query.sort.order())
                    .order_by(
                        Expr::col((vendors::Entity, vendors::Column::Id)),
                        query.sort.order(),
                    ),
            )
            .all(db)
            .await?;
        let total = query.page.total(page.len(), count).await?;
        Ok((Self::standings_of(db, page, today).await?, total))
    }

    /// The standing of each of `vendors`, from one query for their current documents.
    ///
    /// # Errors
    /// Database errors.
    pub async fn standings_of(
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

    /// How many requested documents the organization's vendors lack: each vendor's required
    /// slots holding no current document (the dashboard's "Missing"). Two narrow reads: the
    /// vendors' required slots, and the slots their current documents fill.
    ///
    /// # Errors
    /// Database errors.
    pub async fn missing_required(db: &DatabaseConnection, org_id: i64) -> Result<u64> {
        let required: Vec<(i64, String)> = Entity::find()
            .select_only()
            .columns([vendors::Column::Id, vendors::Column::RequiredDocuments])
            .filter(vendors::Column::OrganizationId.eq(org_id))
            .into_tuple()
            .all(db)
            .await?;
        let filled: std::collections::HashSet<(i64, String)> = documents::Entity::find()
            .select_only()
            .columns([documents::Column::VendorId, documents::Column::Slot])
            .filter(documents::Column::OrganizationId.eq(org_id))
            .filter(documents::Column::IsCurrent.eq(true))
            .distinct()
            .into_tuple::<(i64, String)>()
            .all(db)
            .await?
            .into_iter()
            .collect();
        Ok(required
            .iter()
            .flat_map(|(vendor, slots)| {
                parse_required(slots)
                    .into_iter()
                    .filter(|slot| !filled.contains(&(*vendor, slot.as_str().to_string())))
                    .map(move |_| ())
            })
            .count() as u64)
    }

    /// How many of the organization's vendors have each status: one query, grouping the
    /// current documents by vendor, then the vendors by their worst status.
    ///
    /// # Errors
    /// Database errors.
    pub async fn counts_by_status(
        db: &DatabaseConnection,
        org_id: i64,
        today: NaiveDate,
    ) -> Result<VendorCounts> {
        let (ranks, worst, n) = (
            Alias::new("ranks"),
            Alias::new("vendor_rank"),
            Alias::new("n"),
        );
        let expiration = Expr::col((documents::Entity, documents::Column::ExpirationDate));
        let by_vendor = Query::select()
            .column(documents::Column::VendorId)
            .expr_as(Func::max(document_rank(&expiration, today)), worst.clone())
            .from(documents::Entity)
            .and_where(Expr::col(documents::Column::OrganizationId).eq(org_id))
            .and_where(Expr::col(documents::Column::IsCurrent).eq(true))
            .group_by_col(documents::Column::VendorId)
            .to_owned();
        // Grouped by the bare rank (NULL: no current document), so the GROUP BY repeats no
        // bound parameter, which PostgreSQL would not match with the select list.
        let grouped = Query::select()
            .expr_as(Expr::col((ranks.clone(), worst.clone())), worst.clone())
            .expr_as(
                Func::count(Expr::col((vendors::Entity, vendors::Column::Id))),
                n,
            )
            .from(vendors::Entity)
            .join_subquery(
                JoinType::LeftJoin,
                by_vendor,
                ranks.clone(),
                Expr::col((ranks.clone(), documents::Column::VendorId))
                    .equals((vendors::Entity, vendors::Column::Id)),
            )
            .and_where(Expr::col((vendors::Entity, vendors::Column::OrganizationId)).eq(org_id))
            .group_by_col((ranks, worst))
            .to_owned();
        let mut counts = VendorCounts::default();
        for row in db.query_all(&grouped).await? {
            let r: Option<i32> = row.try_get("", "vendor_rank")?;
            let n = u64::try_from(row.try_get::<i64>("", "n")?).unwrap_or(0);
            counts.total += n;
            let status = r.map_or(Status::Missing, |r| {
                [Status::Current, Status::ExpiringSoon, Status::Expired]
                    .into_iter()
                    .find(|s| rank(*s) == r)
                    .unwrap_or(Status::Missing)
            });
            *match status {
                Status::Current => &mut counts.current,
                Status::ExpiringSoon => &mut counts.expiring_soon,
                Status::Expired => &mut counts.expired,
                Status::Missing => &mut counts.missing,
            } += n;
        }
        Ok(counts)
    }
}
