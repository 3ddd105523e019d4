//! The questions whose answers are kept, each with the tables its answer is computed from.
//!
//! A kept answer is right only while every write to a table it reads raises the
//! organization's `data_version`, which database triggers do for the tables of [`Table`]
//! (migration `m20261124_000003_organizations_data_version`). So a question can only declare
//! tables of [`Table`], and `tests/requests/answer_cache_tables.rs` fails when a table of
//! [`Table`] has no such trigger in the migrated database, or when a question's computation
//! reads a table it does not declare. An answer that starts reading another table (requirement
//! sets, waivers...) therefore needs that table declared, a variant here, and a migration
//! giving the table the same triggers, before its test passes again.

use chrono::{Days, NaiveDate};
use loco_rs::Result;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::Answer;
use crate::{
    models::{
        compliance::Status,
        documents,
        gaps::Review,
        vendor_figures,
        vendors::{self, VendorQuery, VendorSort},
    },
    views::{
        account::{DashboardStats, DocumentsByStatus, ExpirationBucket, ExpirationSpan},
        vendors::VendorResponse,
    },
};

/// A table every insert, update and delete of which raises the `data_version` of the row's
/// organization (its `organization_id`), in the same transaction: the only tables a kept
/// answer may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Table {
    Vendors,
    Documents,
    RequirementSets,
    Waivers,
}

impl Table {
    /// Every table with the triggers (exactly those: the test compares the catalog), each after
    /// the tables its rows refer to.
    pub const ALL: [Self; 4] = [
        Self::Vendors,
        Self::Documents,
        Self::RequirementSets,
        Self::Waivers,
    ];

    /// Its name in the database.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Vendors => "vendors",
            Self::Documents => "documents",
            Self::RequirementSets => "requirement_sets",
            Self::Waivers => "waivers",
        }
    }
}

/// Tables the database keeps from other tables' rows, by triggers in the transaction of each
/// write to those (`vendor_figures`: migration `m20261204_000001_vendor_figures`), with the
/// tables they are kept from: a write there raises the version in the same transaction, so
/// reading a kept table is reading those.
pub const KEPT_FROM: [(&str, &[Table]); 1] =
    [("vendor_figures", &[Table::Vendors, Table::Documents])];

/// A question of one organization whose answer is kept (the organization and its day are the
/// rest of the key).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Question {
    /// `GET /api/vendors` with its filters, order and page.
    VendorList(VendorQuery),
    /// `GET /api/dashboard/stats`.
    DashboardStats,
}

impl Question {
    /// The tables its answer is computed from (apart from the day).
    #[must_use]
    pub const fn reads(&self) -> &'static [Table] {
        match self {
            Self::VendorList(_) | Self::DashboardStats => &[
                Table::Vendors,
                Table::Documents,
                Table::RequirementSets,
                Table::Waivers,
            ],
        }
    }

    /// Its answer for organization `org` on `today` (the organization's date), read from `db`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn compute(
        &self,
        db: &DatabaseConnection,
        org: i64,
        today: NaiveDate,
    ) -> Result<Answer> {
        match self {
            Self::VendorList(query) => {
                let (standings, total) = vendors::Model::list(db, org, query, today).await?;
                let listed: Vec<&vendors::Model> = standings.iter().map(|s| &s.vendor).collect();
                let reviews = Review::of_vendors(db, &listed, today).await?;
                let none = Review::default();
                Answer::list(
                    standings.iter().map(|s| {
                        let review = reviews.get(&s.vendor.id).unwrap_or(&none);
                        (s.vendor.id, VendorResponse::new(s, review))
                    }),
                    total,
                )
            }
            Self::DashboardStats => dashboard_figures(db, org, today).await,
        }
    }

    /// Vendor `vendor`'s object as this question's answer lists it, read from `db` now: `None`
    /// for a question that is not a list, or when the organization has no such vendor.
    ///
    /// # Errors
    /// Database errors.
    pub async fn listed_vendor(
        &self,
        db: &DatabaseConnection,
        org: i64,
        today: NaiveDate,
        vendor: i64,
    ) -> Result<Option<VendorResponse>> {
        let Self::VendorList(_) = self else {
            return Ok(None);
        };
        let Some(standing) = vendors::Model::listed_one(db, org, vendor, today).await? else {
            return Ok(None);
        };
        let reviews = Review::of_vendors(db, &[&standing.vendor], today).await?;
        let review = reviews.get(&vendor).cloned().unwrap_or_default();
        Ok(Some(VendorResponse::new(&standing, &review)))
    }

    /// About the bytes it takes as a key.
    pub(super) fn weight(&self) -> usize {
        let text = match self {
            Self::VendorList(query) => query.q.as_ref().map_or(0, String::len),
            Self::DashboardStats => 0,
        };
        std::mem::size_of::<Self>() + text
    }
}

async fn dashboard_figures(db: &DatabaseConnection, org: i64, today: NaiveDate) -> Result<Answer> {
    // Three independent reads, at once on as many pooled connections: the figures come in the
    // time of the slowest rather than of all three (docs/benchmarks/lists.md).
    let (figures, chart, with_gaps) = tokio::try_join!(
        vendor_figures::of_organization(db, org, today),
        documents::Model::chart(db, org, today),
        Review::vendors_with_gaps(db, org, today),
    )?;
    let (vendors, missing) = (figures.vendors, figures.missing_required);
    // A vendor with gaps whose documents are all current needs attention too; one expiring or
    // non-compliant is counted there already.
    let gaps_count = with_gaps.len() as u64;
    let short = with_gaps.into_iter().map(|(v, _)| v).collect();
    let otherwise_current = vendors::Model::standings_of(db, short, today)
        .await?
        .iter()
        .filter(|s| s.status == crate::models::compliance::Status::Current)
        .count() as u64;
    Answer::json(
        &DashboardStats {
            total_vendors: vendors.total,
            compliant_vendors: vendors.current,
            expiring_vendors: vendors.expiring_soon,
            non_compliant_vendors: vendors.expired + vendors.missing,
            vendors_with_gaps: gaps_count,
            vendors_needing_attention: vendors.expiring_soon
                + vendors.expired
                + vendors.missing
                + otherwise_current,
            documents_by_status: DocumentsByStatus {
                current: chart.current,
                expiring_soon: chart.expiring_soon,
                expired: chart.expired,
                missing,
            },
            expirations_next_90_days: (0..)
                .zip(chart.weeks)
                .map(|(week, count)| ExpirationBucket {
                    week_start: (today + Days::new(week * 7)).to_string(),
                    count,
                })
                .collect(),
            upcoming_expirations: (0..)
                .zip(chart.upcoming)
                .map(|(span, count)| {
                    let start = today + Days::new(span * documents::UPCOMING_SPAN_DAYS);
                    ExpirationSpan {
                        start: start.to_string(),
                        end: (start + Days::new(documents::UPCOMING_SPAN_DAYS - 1)).to_string(),
                        count,
                    }
                })
                .collect(),
        },
        None,
    )
}

/// What of a listed vendor decides whether a list question lists it, and where (its id
/// aside): the fields its filters and orders read, read back from its object in a list's body
/// when the list is carried forward (so that nothing is kept beside the body for it).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Place {
    name: String,
    email: String,
    service_type: String,
    company_key: String,
    document_status: Status,
    document_count: usize,
    updated_at: String,
}

impl Place {
    /// The place of the vendor whose JSON object is `object`.
    ///
    /// # Errors
    /// When `object` is not a listed vendor's.
    pub(super) fn of(object: &[u8]) -> Result<Self> {
        Ok(serde_json::from_slice(object)?)
    }

    /// Whether `query` still lists a vendor whose place moved from `self` to `now`, at the
    /// same spot, when no other vendor changed: its filters and its order read nothing that
    /// moved. Conservative: a gaps filter (computed over every vendor) never holds.
    pub(super) fn holds(&self, now: &Self, query: &VendorQuery) -> bool {
        let searched = self.name == now.name
            && self.email == now.email
            && self.service_type == now.service_type
            && self.company_key == now.company_key;
        let ordered = match query.sort.key {
            VendorSort::Name => self.name == now.name,
            VendorSort::ServiceType => self.service_type == now.service_type,
            VendorSort::Status => self.document_status == now.document_status,
            VendorSort::DocumentCount => self.document_count == now.document_count,
            VendorSort::UpdatedAt => self.updated_at == now.updated_at,
        };
        query.gaps.is_none()
            && (query.q.is_none() || searched)
            && (query.status.is_none() || self.document_status == now.document_status)
            && ordered
    }
}
