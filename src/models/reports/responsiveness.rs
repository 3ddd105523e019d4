//! The responsiveness report (docs/product.md, "Reports"): every renewal request sent to a
//! vendor and when the vendor uploaded afterwards; at once ([`responsiveness`]) or a batch of
//! requests at a time while it is sent ([`ResponsivenessReport`]).

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, FixedOffset};
use loco_rs::prelude::*;
use sea_orm::RelationTrait;

use crate::models::{
    _entities::{documents::Column as D, reminder_deliveries, reminders},
    compliance, documents,
    reminder_deliveries::DeliveryKind,
    renewal_requests, vendors,
};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Responsiveness {
    pub vendor_id: String,
    pub vendor_name: String,
    /// What was asked for.
    pub document_label: String,
    pub requested_at: DateTime<FixedOffset>,
    /// The vendor's first portal upload after the request, if any.
    pub uploaded_at: Option<DateTime<FixedOffset>>,
    pub days_to_upload: Option<i64>,
}

/// One request of a vendor: the vendor's id, what was asked for, when.
type Asked = (i64, &'static str, DateTime<FixedOffset>);

/// How many vendors are read at a time (their ids are bound), and how many requests
/// [`ResponsivenessReport`] works out at a time.
const ASKED_BATCH: usize = 500;

/// Every renewal request sent to a vendor (the reminder emails and the requests sent by hand),
/// newest first (requests made at the same moment in the order they were made), with the
/// vendor's first portal upload after it. Only the vendors asked are read (their key and name,
/// their portal uploads, by their ids): the report costs what its rows do, not what the
/// organization's vendors and documents do. The report at once: [`ResponsivenessReport`]
/// sends the same rows while it works them out (the API sends that one; tests compare the two).
///
/// # Errors
/// Database errors.
pub async fn responsiveness(db: &DatabaseConnection, org_id: i64) -> Result<Vec<Responsiveness>> {
    let asked = asked(db, org_id).await?;
    answered(db, org_id, &asked).await
}

/// The organization's requests of its vendors in the report's order: the requests sent by hand
/// and the reminder emails sent to vendors, each in the order made, then newest first (stable,
/// so a moment's requests keep that order).
async fn asked<C: ConnectionTrait>(db: &C, org_id: i64) -> Result<Vec<Asked>> {
    use renewal_requests::renewal_requests::Column as R;
    let by_hand: Vec<(i64, DateTime<FixedOffset>)> = renewal_requests::Entity::find()
        .filter(R::OrganizationId.eq(org_id))
        .select_only()
        .columns([R::VendorId, R::CreatedAt])
        .order_by_asc(R::Id)
        .into_tuple()
        .all(db)
        .await?;
    let mut asked: Vec<Asked> = by_hand
        .into_iter()
        .map(|(vendor, at)| (vendor, "Documents requested", at))
        .collect();
    let emailed: Vec<(i64, String, Option<String>, DateTime<FixedOffset>)> = emailed(org_id)
        .columns([D::VendorId, D::DocumentType, D::CoiType])
        .column(reminder_deliveries::Column::CreatedAt)
        .order_by_asc(reminder_deliveries::Column::Id)
        .into_tuple()
        .all(db)
        .await?;
    asked.extend(emailed.into_iter().map(|(vendor, kind, coi, at)| {
        (vendor, compliance::stored_label(&kind, coi.as_deref()), at)
    }));
    asked.sort_by_key(|(_, _, at)| std::cmp::Reverse(*at));
    Ok(asked)
}

/// The rows of `asked`, in its order: each vendor's company key and name and its first portal
/// upload at or after the request. The vendors are read [`ASKED_BATCH`] at a time, each
/// vendor's portal uploads all in its batch; a request of a vendor no longer there is left out.
async fn answered<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    asked: &[Asked],
) -> Result<Vec<Responsiveness>> {
    let ids: Vec<i64> = asked
        .iter()
        .map(|(vendor, _, _)| *vendor)
        .collect::<BTreeSet<i64>>()
        .into_iter()
        .collect();
    let mut names = HashMap::new();
    let mut by_vendor: HashMap<i64, Vec<DateTime<FixedOffset>>> = HashMap::new();
    for batch in ids.chunks(ASKED_BATCH) {
        let these = Condition::all().add(vendors::vendors::Column::Id.is_in(batch.iter().copied()));
        names.extend(super::vendor_names(db, org_id, Some(these)).await?);
        let uploads: Vec<(i64, DateTime<FixedOffset>)> = documents::Entity::find()
            .in_tenant(org_id)
            .filter(D::VendorId.is_in(batch.iter().copied()))
            .filter(D::Source.eq(documents::DocumentSource::VendorPortal))
            .select_only()
            .columns([D::VendorId, D::CreatedAt])
            .order_by_asc(D::CreatedAt)
            .into_tuple()
            .all(db)
            .await?;
        for (vendor, at) in uploads {
            by_vendor.entry(vendor).or_default().push(at);
        }
    }
    Ok(asked
        .iter()
        .filter_map(|&(vendor_id, label, at)| {
            let (key, name) = names.get(&vendor_id)?;
            let uploaded_at = by_vendor
                .get(&vendor_id)
                // Whole seconds: the database may keep an upload's time at that precision.
                .and_then(|times| {
                    times
                        .iter()
                        .find(|t| t.timestamp() >= at.timestamp())
                        .copied()
                });
            Some(Responsiveness {
                vendor_id: key.clone(),
                vendor_name: name.clone(),
                document_label: label.to_string(),
                requested_at: at,
                days_to_upload: uploaded_at.map(|u| (u - at).num_days()),
                uploaded_at,
            })
        })
        .collect())
}

/// The reminder emails sent to the organization's vendors, with the documents they were about
/// (nothing selected yet). Found from the organization's reminders (`idx-reminders-org-date`),
/// then each one's deliveries (the once-only index leads with the reminder), never from every
/// organization's deliveries.
fn emailed(org_id: i64) -> sea_orm::Select<reminder_deliveries::Entity> {
    reminder_deliveries::Entity::find()
        .select_only()
        .join(
            sea_orm::JoinType::InnerJoin,
            reminder_deliveries::Relation::Reminders.def(),
        )
        .join(
            sea_orm::JoinType::InnerJoin,
            reminders::Relation::Documents.def(),
        )
        .filter(reminders::Column::OrganizationId.eq(org_id))
        .filter(reminder_deliveries::Column::Kind.eq(DeliveryKind::Vendor))
        .filter(D::OrganizationId.eq(org_id))
}

/// The responsiveness report ([`responsiveness`]) worked out [`ASKED_BATCH`] requests at a
/// time, so that its first rows can be sent while the rest are read: the requests (vendor, what,
/// when) are read first and put in the report's order; then each batch's vendors are read. Every
/// read is of one transaction, so the report is of one moment however long it takes to send (as
/// [`super::NonCompliantReport`]'s).
pub struct ResponsivenessReport {
    txn: sea_orm::DatabaseTransaction,
    org_id: i64,
    /// The requests still to be worked out, in the report's order.
    asked: std::vec::IntoIter<Asked>,
}

impl ResponsivenessReport {
    /// Begins the read and puts the organization's requests in the report's order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn open(db: &DatabaseConnection, org_id: i64) -> Result<Self> {
        let txn = super::begin_read(db).await?;
        let asked = asked(&txn, org_id).await?;
        Ok(Self {
            txn,
            org_id,
            asked: asked.into_iter(),
        })
    }

    /// The next batch's rows, or `None` at the end, when the read is ended.
    ///
    /// # Errors
    /// Database errors.
    pub async fn next_batch(&mut self) -> Result<Option<Vec<Responsiveness>>> {
        let batch: Vec<Asked> = self.asked.by_ref().take(ASKED_BATCH).collect();
        if batch.is_empty() {
            return Ok(None);
        }
        Ok(Some(answered(&self.txn, self.org_id, &batch).await?))
    }

    /// Every row, a batch at a time, the read ended after the last (or rolled back, when the
    /// stream is dropped before it: a client that went away).
    pub fn rows(self) -> impl futures_util::Stream<Item = Result<Responsiveness>> + Send {
        super::rows_in_batches(self)
    }
}

impl super::ReadInBatches for ResponsivenessReport {
    type Row = Responsiveness;

    fn next_rows(
        &mut self,
    ) -> impl std::future::Future<Output = Result<Option<Vec<Responsiveness>>>> + Send {
        self.next_batch()
    }

    fn into_read(self) -> sea_orm::DatabaseTransaction {
        self.txn
    }
}
