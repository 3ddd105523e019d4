//! The non-compliant report (docs/product.md, "Reports" and "Exports"): each vendor that is
//! not current or has gaps that count, and why; at once ([`non_compliant`]) or worked out a
//! batch of vendors at a time while it is sent ([`NonCompliantReport`]).

use std::collections::HashMap;

use chrono::NaiveDate;
use loco_rs::prelude::*;

use crate::models::{
    compliance::Status,
    gaps::Review,
    vendors::{self, VendorQuery, VendorStanding},
};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NonCompliantVendor {
    pub id: String,
    pub name: String,
    pub service_type: String,
    pub status: Status,
    /// Why, in plain words: each requested slot missing, each document expired or expiring.
    pub reasons: Vec<String>,
    /// Where its certificates fall short of its requirement set, in words (the gaps that
    /// count; a vendor whose documents are current is listed for these alone).
    pub gaps: Vec<String>,
    /// Its gaps waived now, each with who waived it, until when and why.
    pub waived: Vec<String>,
}

/// Every vendor that is not current or has gaps that count, with its reasons and gaps, by
/// name; optionally only one status (then only vendors of that status) or service type. The
/// report at once: [`NonCompliantReport`] writes the same rows while it works them out (the
/// API sends that one; tests compare the two).
///
/// # Errors
/// Database errors.
pub async fn non_compliant(
    db: &DatabaseConnection,
    org_id: i64,
    status: Option<Status>,
    service_type: Option<&str>,
    today: NaiveDate,
) -> Result<Vec<NonCompliantVendor>> {
    let query = VendorQuery {
        status,
        ..VendorQuery::default()
    };
    let (standings, expirations) =
        vendors::Model::list_with_expirations(db, org_id, &query, today).await?;
    let standings: Vec<VendorStanding> = standings
        .into_iter()
        .filter(|s| service_type.is_none_or(|t| s.vendor.service_type == t))
        .collect();
    let mut out = non_compliant_of(db, &standings, &expirations, today).await?;
    out.sort_by_key(|v| v.name.to_lowercase());
    Ok(out)
}

/// Those of `standings` the non-compliant report lists (not current, or with gaps that
/// count), in their order, with their reasons and gaps.
async fn non_compliant_of<C: ConnectionTrait>(
    db: &C,
    standings: &[VendorStanding],
    expirations: &HashMap<uuid::Uuid, Option<NaiveDate>>,
    today: NaiveDate,
) -> Result<Vec<NonCompliantVendor>> {
    let listed: Vec<&vendors::Model> = standings.iter().map(|s| &s.vendor).collect();
    let reviews = Review::of_vendors(db, &listed, today).await?;
    let gaps_of = |s: &VendorStanding, words: fn(&Review) -> Vec<String>| -> Vec<String> {
        reviews.get(&s.vendor.id).map_or_else(Vec::new, words)
    };
    Ok(standings
        .iter()
        .map(|s| NonCompliantVendor {
            id: s.vendor.key.clone(),
            name: s.vendor.name.clone(),
            service_type: s.vendor.service_type.clone(),
            status: s.status,
            reasons: reasons(s, expirations, today),
            gaps: gaps_of(s, Review::counting),
            waived: gaps_of(s, Review::waived),
        })
        .filter(|v| v.status != Status::Current || !v.gaps.is_empty())
        .collect())
}

/// Vendors worked out at a time by [`NonCompliantReport`]: each batch is three statements
/// (the vendors with their current documents, their requirement sets' coverage, waivers).
const REPORT_BATCH: usize = 200;

/// The non-compliant report ([`non_compliant`]) worked out a batch of vendors at a time, so
/// that its first rows can be sent while the rest are read (docs/benchmarks/lists.md): the
/// vendors' ids and names are read first and put in the report's order; then each batch of
/// [`REPORT_BATCH`] is read whole and reviewed. Every read is of one transaction, so the
/// report is of one moment however long it takes to send (`PostgreSQL`: repeatable read;
/// `SQLite`: a read transaction sees the database as its first read found it).
pub struct NonCompliantReport {
    txn: sea_orm::DatabaseTransaction,
    org_id: i64,
    today: NaiveDate,
    /// The ids still to be read, in the report's order.
    ids: std::vec::IntoIter<i64>,
}

impl NonCompliantReport {
    /// Begins the read and puts the vendors of `status` and `service_type` in the report's
    /// order: by name as Rust lowercases it (what [`non_compliant`] sorts by), ties in the
    /// vendor list's order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn open(
        db: &DatabaseConnection,
        org_id: i64,
        status: Option<Status>,
        service_type: Option<&str>,
        today: NaiveDate,
    ) -> Result<Self> {
        let txn = super::begin_read(db).await?;
        let query = VendorQuery {
            status,
            ..VendorQuery::default()
        };
        let mut select = vendors::Model::filtered(&txn, org_id, &query, today).await?;
        if let Some(service_type) = service_type {
            select = select.filter(vendors::vendors::Column::ServiceType.eq(service_type));
        }
        let mut named: Vec<(i64, String)> = vendors::Model::in_order(select, &query.sort, today)
            .select_only()
            .columns([vendors::vendors::Column::Id, vendors::vendors::Column::Name])
            .into_tuple()
            .all(&txn)
            .await?;
        // Stable: names alike whatever their case keep the list's order, as in `non_compliant`.
        named.sort_by_cached_key(|(_, name)| name.to_lowercase());
        let ids: Vec<i64> = named.into_iter().map(|(id, _)| id).collect();
        Ok(Self {
            txn,
            org_id,
            today,
            ids: ids.into_iter(),
        })
    }

    /// The next batch's rows (none, when none of its vendors is listed), or `None` at the end,
    /// when the read is ended.
    ///
    /// # Errors
    /// Database errors.
    pub async fn next_batch(&mut self) -> Result<Option<Vec<NonCompliantVendor>>> {
        let ids: Vec<i64> = self.ids.by_ref().take(REPORT_BATCH).collect();
        if ids.is_empty() {
            return Ok(None);
        }
        let (standings, expirations) =
            vendors::Model::listed_these(&self.txn, self.org_id, &ids, self.today).await?;
        Ok(Some(
            non_compliant_of(&self.txn, &standings, &expirations, self.today).await?,
        ))
    }

    /// Every row, a batch at a time, the read ended after the last (or rolled back, when the
    /// stream is dropped before it: a client that went away).
    pub fn rows(self) -> impl futures_util::Stream<Item = Result<NonCompliantVendor>> + Send {
        super::rows_in_batches(self)
    }
}

impl super::ReadInBatches for NonCompliantReport {
    type Row = NonCompliantVendor;

    fn next_rows(
        &mut self,
    ) -> impl std::future::Future<Output = Result<Option<Vec<NonCompliantVendor>>>> + Send {
        self.next_batch()
    }

    fn into_read(self) -> sea_orm::DatabaseTransaction {
        self.txn
    }
}

fn reasons(
    standing: &VendorStanding,
    expirations: &HashMap<uuid::Uuid, Option<NaiveDate>>,
    today: NaiveDate,
) -> Vec<String> {
    let required = standing.required_documents();
    let mut out = Vec::new();
    for (slot, status, doc) in &standing.slots {
        let date = doc.and_then(|d| expirations.get(&d).copied().flatten());
        match (status, date) {
            (Status::Missing, _) if required.contains(slot) => {
                out.push(format!("{} is missing", slot.label()));
            }
            (Status::Expired, Some(d)) => {
                out.push(format!(
                    "{} expired on {}",
                    slot.label(),
                    crate::models::compliance::display_date(d)
                ));
            }
            (Status::ExpiringSoon, Some(d)) => out.push(format!(
                "{} expires on {} (in {} days)",
                slot.label(),
                crate::models::compliance::display_date(d),
                (d - today).num_days()
            )),
            _ => {}
        }
    }
    if out.is_empty() && standing.document_count == 0 {
        out.push("No documents on file".to_string());
    }
    out
}
