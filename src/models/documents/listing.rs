//! The document lists and the dashboard's document figures, filtered, counted, paged and
//! aggregated in SQL.

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::sea_query::{Expr, ExprTrait, Func, NullOrdering, Query};

use super::{documents, vendors, Entity, Model};
use crate::models::{
    compliance::{
        self,
        sql::{document_rank, document_status_is},
        CoiType, DocumentType, Status,
    },
    search::{self, Page, Sort},
};

/// Filters of the organization-wide document list.
#[derive(Debug, Clone)]
pub struct DocumentQuery {
    pub status: Option<Status>,
    pub document_type: Option<String>,
    pub q: Option<String>,
    pub sort: Sort<DocumentSort>,
    pub page: Page,
}

impl Default for DocumentQuery {
    fn default() -> Self {
        Self {
            status: None,
            document_type: None,
            q: None,
            sort: DocumentSort::NEWEST_FIRST,
            page: Page::default(),
        }
    }
}

/// What the document list can be ordered by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentSort {
    /// When the version was uploaded.
    UploadedAt,
    /// The file name, whatever its case.
    FileName,
    DocumentType,
    /// The expiration date; documents without one come last either way.
    ExpirationDate,
    /// By severity: current, expiring soon, expired.
    Status,
    /// The vendor's name, whatever its case.
    Vendor,
}

impl DocumentSort {
    /// The list's order when none is asked for.
    pub const NEWEST_FIRST: Sort<Self> = Sort {
        key: Self::UploadedAt,
        descending: true,
    };

    /// The `sort` names of the API, each with its key.
    pub const KEYS: [(&'static str, Self); 6] = [
        ("uploadedAt", Self::UploadedAt),
        ("fileName", Self::FileName),
        ("documentType", Self::DocumentType),
        ("expirationDate", Self::ExpirationDate),
        ("status", Self::Status),
        ("vendor", Self::Vendor),
    ];

    /// Whether the key can be NULL (a document without an expiration date). Only then does the
    /// order say where NULLs go: `NULLS LAST` on a key that is never NULL changes no answer, but
    /// descending it no longer matches an index read backwards (NULLS FIRST), and
    /// `PostgreSQL` sorted every current document of the organization for each page.
    const fn nullable(self) -> bool {
        matches!(self, Self::ExpirationDate)
    }

    /// The key in SQL, over a `documents` row joined with its `vendors` row.
    fn expr(self, today: NaiveDate) -> Expr {
        let col = |c: documents::Column| Expr::col((documents::Entity, c));
        match self {
            Self::UploadedAt => col(documents::Column::CreatedAt),
            Self::FileName => Func::lower(col(documents::Column::FileName)).into(),
            Self::DocumentType => col(documents::Column::DocumentType),
            Self::ExpirationDate => expiration(),
            Self::Status => document_rank(&expiration(), today),
            Self::Vendor => Func::lower(Expr::col((vendors::Entity, vendors::Column::Name))).into(),
        }
    }
}

/// Weeks of the dashboard's expiration chart: 13 weeks of 7 days from today (91 days).
pub const CHART_WEEKS: usize = 13;

/// The dashboard's upcoming expirations: six spans of 15 days from today (days 0 to 89).
pub const UPCOMING_SPANS: usize = 6;
pub const UPCOMING_SPAN_DAYS: u64 = 15;

/// The organization's current documents by status, and how many expire in each chart week.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct DocumentChart {
    pub current: u64,
    pub expiring_soon: u64,
    pub expired: u64,
    /// Week `i` counts expiration dates from today + 7i to today + 7i + 6.
    pub weeks: [u64; CHART_WEEKS],
    /// Span `i` counts expiration dates from today + 15i to today + 15i + 14.
    pub upcoming: [u64; UPCOMING_SPANS],
}

/// A document whose file name, type, insurance type or notes hold `q`, as stored or as the
/// screens label them ("Certificate of Insurance", "Workers Compensation"), or whose vendor's
/// name holds it.
fn text_matches(org_id: i64, q: &str) -> Condition {
    let lower = q.to_lowercase();
    let labelled = |label: &str| label.to_lowercase().contains(&lower);
    let types: Vec<&str> = DocumentType::ALL
        .into_iter()
        .filter(|t| labelled(t.label()))
        .map(DocumentType::as_str)
        .collect();
    let coi_types: Vec<&str> = CoiType::ALL
        .into_iter()
        .filter(|t| labelled(t.label()))
        .map(CoiType::as_str)
        .collect();
    let vendors_named = Query::select()
        .column(vendors::Column::Id)
        .from(vendors::Entity)
        .and_where(Expr::col((vendors::Entity, vendors::Column::OrganizationId)).eq(org_id))
        .and_where(search::contains_ci(
            (vendors::Entity, vendors::Column::Name),
            q,
        ))
        .to_owned();
    [
        documents::Column::FileName,
        documents::Column::DocumentType,
        documents::Column::Notes,
        documents::Column::CoiType,
    ]
    .into_iter()
    .fold(Condition::any(), |any, col| {
        any.add(search::contains_ci((documents::Entity, col), q))
    })
    .add(documents::Column::DocumentType.is_in(types))
    .add(documents::Column::CoiType.is_in(coi_types))
    .add(documents::Column::VendorId.in_subquery(vendors_named))
}

fn expiration() -> Expr {
    Expr::col((documents::Entity, documents::Column::ExpirationDate))
}

impl Model {
    /// The organization's current documents matching `query`'s filters.
    fn current_matching(
        org_id: i64,
        query: &DocumentQuery,
        today: NaiveDate,
    ) -> sea_orm::Select<Entity> {
        let mut select = Entity::find()
            .in_tenant(org_id)
            .filter(documents::Column::IsCurrent.eq(true));
        if let Some(t) = &query.document_type {
            select = select.filter(documents::Column::DocumentType.eq(t.as_str()));
        }
        if let Some(status) = query.status {
            select = select.filter(document_status_is(&expiration(), status, today));
        }
        if let Some(q) = search::text(query.q.as_deref()) {
            select = select.filter(text_matches(org_id, q));
        }
        select
    }

    /// The organization's current documents matching `query`, in its order (ties by id; no
    /// expiration date last), every one of them: the list pages it, the export streams it.
    #[must_use]
    pub fn current_in_order(
        org_id: i64,
        query: &DocumentQuery,
        today: NaiveDate,
    ) -> sea_orm::Select<Entity> {
        let select = Self::current_matching(org_id, query, today);
        let order = query.sort.order();
        let key = query.sort.key.expr(today);
        let select = if query.sort.key.nullable() {
            select.order_by_with_nulls(key, order.clone(), NullOrdering::Last)
        } else {
            select.order_by(key, order.clone())
        };
        select.order_by(Expr::col((documents::Entity, documents::Column::Id)), order)
    }

    /// The organization's current documents matching `query` with their vendors, in its order
    /// (ties by id; no expiration date last), the page only, and how many match in all.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_current(
        db: &DatabaseConnection,
        org_id: i64,
        query: &DocumentQuery,
        today: NaiveDate,
    ) -> Result<(Vec<(Self, vendors::Model)>, u64)> {
        let count = Self::current_matching(org_id, query, today).count(db);
        let rows = query
            .page
            .apply(Self::current_in_order(org_id, query, today))
            .find_also_related(vendors::Entity)
            .all(db)
            .await?;
        let total = query.page.total(rows.len(), count).await?;
        let page = rows
            .into_iter()
            .filter_map(|(d, v)| Some((d, v?)))
            .collect();
        Ok((page, total))
    }

    /// Every version of every document of a vendor, current ones first, newest first (the
    /// page only), and how many there are.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_for_vendor(
        db: &DatabaseConnection,
        vendor: &vendors::Model,
        page: Page,
    ) -> Result<(Vec<Self>, u64)> {
        let select = Entity::find().filter(documents::Column::VendorId.eq(vendor.id));
        let count = select.clone().count(db);
        let rows = page
            .apply(
                select
                    .order_by_desc(documents::Column::IsCurrent)
                    .order_by_desc(documents::Column::CreatedAt)
                    .order_by_desc(documents::Column::Id),
            )
            .all(db)
            .await?;
        let total = page.total(rows.len(), count).await?;
        Ok((rows, total))
    }

    /// The dashboard's document figures on `today`: the organization's current documents
    /// counted by expiration date in SQL (a row per date, read from the index alone), then
    /// sorted into statuses, weeks and spans here.
    ///
    /// # Errors
    /// Database errors.
    pub async fn chart(
        db: &DatabaseConnection,
        org_id: i64,
        today: NaiveDate,
    ) -> Result<DocumentChart> {
        let by_date: Vec<(Option<NaiveDate>, i64)> = Entity::find()
            .select_only()
            .column(documents::Column::ExpirationDate)
            // `COUNT(*)`, not of the id: PostgreSQL then reads the index alone (the id is not
            // in it), 8 ms where it read the table in 27 at 50,000 current documents.
            .expr_as(Expr::cust("COUNT(*)"), "n")
            .filter(documents::Column::OrganizationId.eq(org_id))
            .filter(documents::Column::IsCurrent.eq(true))
            .group_by(documents::Column::ExpirationDate)
            .into_tuple()
            .all(db)
            .await?;
        let mut chart = DocumentChart::default();
        for (date, n) in by_date {
            let n = u64::try_from(n).unwrap_or(0);
            *match compliance::document_status(date, today) {
                Status::Expired => &mut chart.expired,
                Status::ExpiringSoon => &mut chart.expiring_soon,
                Status::Current | Status::Missing => &mut chart.current,
            } += n;
            let Some(days) = date.and_then(|d| u64::try_from((d - today).num_days()).ok()) else {
                continue;
            };
            if let Some(week) = chart
                .weeks
                .get_mut(usize::try_from(days / 7).unwrap_or(usize::MAX))
            {
                *week += n;
            }
            if let Some(span) = chart
                .upcoming
                .get_mut(usize::try_from(days / UPCOMING_SPAN_DAYS).unwrap_or(usize::MAX))
            {
                *span += n;
            }
        }
        Ok(chart)
    }
}
