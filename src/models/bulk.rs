//! Acting on many vendors or documents at once (the Professional plan's bulk operations, docs/
//! product.md "Bulk operations"): a selection of ids is checked whole against the organization
//! first, so an id that is not the organization's is reported as not found and nothing is done.

use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::sea_query::OnConflict;

use super::{
    activities::Actor,
    documents,
    refusal::Refusal,
    renewal_requests,
    vendors::{self, VendorStanding},
};

pub mod archive;

/// Ids chosen on a screen: at least one, at most the configured number, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection(Vec<String>);

impl Selection {
    /// # Errors
    /// `Invalid` on `ids` for an empty list or one longer than `max`.
    pub fn parse(ids: &[String], max: usize) -> Result<Self, Refusal> {
        let mut seen = BTreeSet::new();
        let unique: Vec<String> = ids
            .iter()
            .map(|id| id.trim().to_string())
            .filter(|id| seen.insert(id.clone()))
            .collect();
        if unique.is_empty() || unique.iter().any(String::is_empty) {
            return Err(Refusal::field("ids", "Select at least one item."));
        }
        if unique.len() > max {
            return Err(Refusal::field(
                "ids",
                &format!("Select at most {max} items at a time."),
            ));
        }
        Ok(Self(unique))
    }

    #[must_use]
    pub fn ids(&self) -> &[String] {
        &self.0
    }
}

/// The selected documents with their vendors, in the order given; all of them the
/// organization's, or `NotFound`.
///
/// # Errors
/// `NotFound` when any id is not one of the organization's documents; database errors.
pub async fn documents_of<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    selection: &Selection,
) -> Result<Vec<(documents::Model, vendors::Model)>> {
    let pids: Vec<uuid::Uuid> = selection
        .ids()
        .iter()
        .filter_map(|id| uuid::Uuid::parse_str(id).ok())
        .collect();
    if pids.len() != selection.ids().len() {
        return Err(Refusal::NotFound.into());
    }
    let found = documents::Entity::find()
        .in_tenant(org_id)
        .filter(documents::documents::Column::Pid.is_in(pids.clone()))
        .all(db)
        .await?;
    if found.len() != pids.len() {
        return Err(Refusal::NotFound.into());
    }
    let vendor_ids: Vec<i64> = found.iter().map(|d| d.vendor_id).collect();
    let vendors: HashMap<i64, vendors::Model> = vendors::Entity::find()
        .in_tenant(org_id)
        .filter(vendors::vendors::Column::Id.is_in(vendor_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|v| (v.id, v))
        .collect();
    let mut by_pid: HashMap<uuid::Uuid, documents::Model> =
        found.into_iter().map(|d| (d.pid, d)).collect();
    pids.iter()
        .map(|pid| {
            let doc = by_pid.remove(pid).ok_or(Refusal::NotFound)?;
            let vendor = vendors
                .get(&doc.vendor_id)
                .cloned()
                .ok_or(Refusal::NotFound)?;
            Ok((doc, vendor))
        })
        .collect()
}

/// The selected vendors (by company key) in the order given, all of them the organization's,
/// or `NotFound`.
///
/// # Errors
/// `NotFound` when any key is not one of the organization's vendors; database errors.
pub async fn vendors_of<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    selection: &Selection,
) -> Result<Vec<vendors::Model>> {
    let found = vendors::Entity::find()
        .in_tenant(org_id)
        .filter(vendors::vendors::Column::Key.is_in(selection.ids().to_vec()))
        .all(db)
        .await?;
    if found.len() != selection.ids().len() {
        return Err(Refusal::NotFound.into());
    }
    let mut by_key: HashMap<String, vendors::Model> =
        found.into_iter().map(|v| (v.key.clone(), v)).collect();
    Ok(selection
        .ids()
        .iter()
        .filter_map(|key| by_key.remove(key))
        .collect())
}

/// Deletes the selected documents, all or none, each with its activity entry; returns the
/// storage keys of their files, to remove once committed.
///
/// # Errors
/// `NotFound` for a foreign id (nothing deleted); database errors (nothing deleted).
pub async fn delete_documents(
    db: &DatabaseConnection,
    org_id: i64,
    selection: &Selection,
    reminder_offsets: &[u32],
    actor: &Actor,
) -> Result<Vec<String>> {
    let txn = crate::models::begin_write(db).await?;
    let selected = documents_of(&txn, org_id, selection).await?;
    // Their vendors locked first, in one order for every caller: two deletions of the same
    // documents given in different orders take turns instead of each holding a vendor the
    // other waits for (a deadlock `PostgreSQL` ends by failing one).
    let mut vendor_ids: Vec<i64> = selected.iter().map(|(_, v)| v.id).collect();
    vendor_ids.sort_unstable();
    vendor_ids.dedup();
    for id in vendor_ids {
        vendors::Model::lock_in(&txn, id).await?;
    }
    // Read again under the locks: a deletion that committed while this one waited leaves its
    // documents gone, a 404 as if this had come second.
    let selected = documents_of(&txn, org_id, selection).await?;
    let mut keys = Vec::with_capacity(selected.len());
    for (doc, vendor) in selected {
        // Read again: deleting an earlier one may have made this one current.
        let Some(doc) = documents::Entity::find_by_id(doc.id).one(&txn).await? else {
            continue;
        };
        keys.push(
            doc.delete_with_history(&txn, &vendor, reminder_offsets, actor)
                .await?,
        );
    }
    txn.commit().await?;
    Ok(keys)
}

/// Deletes the selected vendors with their documents, all or none; returns the storage keys.
///
/// # Errors
/// `NotFound` for a foreign id (nothing deleted); database errors (nothing deleted).
pub async fn delete_vendors(
    db: &DatabaseConnection,
    org_id: i64,
    selection: &Selection,
    actor: &Actor,
) -> Result<Vec<String>> {
    let txn = crate::models::begin_write(db).await?;
    let mut keys = Vec::new();
    let mut chosen = vendors_of(&txn, org_id, selection).await?;
    // Locked in one order for every caller (see `delete_documents`).
    chosen.sort_unstable_by_key(|v| v.id);
    for vendor in chosen {
        keys.extend(vendor.delete_with_documents(&txn, actor).await?);
    }
    txn.commit().await?;
    Ok(keys)
}

/// What a renewal request asks the vendor for.
#[derive(Debug, Clone)]
pub struct RenewalAsk {
    pub vendor: vendors::Model,
    /// The portal labels of the requested documents not on file as current.
    pub wanted: Vec<&'static str>,
}

/// Records today's renewal request for each selected vendor not asked yet today; returns the
/// ones to send (in the order given) and the keys of those already asked.
///
/// # Errors
/// `NotFound` for a foreign id (nothing recorded); database errors.
pub async fn record_renewal_requests(
    db: &DatabaseConnection,
    org_id: i64,
    selection: &Selection,
    today: NaiveDate,
) -> Result<(Vec<RenewalAsk>, Vec<String>)> {
    let chosen = vendors_of(db, org_id, selection).await?;
    let (mut asks, mut skipped) = (Vec::new(), Vec::new());
    for vendor in chosen {
        let now = chrono::Utc::now();
        let inserted = renewal_requests::Entity::insert(renewal_requests::ActiveModel {
            organization_id: ActiveValue::Set(org_id),
            vendor_id: ActiveValue::Set(vendor.id),
            requested_on: ActiveValue::Set(today),
            created_at: ActiveValue::Set(now.into()),
            updated_at: ActiveValue::Set(now.into()),
            ..Default::default()
        })
        .on_conflict(
            OnConflict::columns([
                renewal_requests::renewal_requests::Column::VendorId,
                renewal_requests::renewal_requests::Column::RequestedOn,
            ])
            .do_nothing()
            .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
        if inserted == 0 {
            skipped.push(vendor.key.clone());
            continue;
        }
        let (standing, _) = vendor.clone().standing(db, today).await?;
        asks.push(RenewalAsk {
            wanted: wanted(&standing),
            vendor,
        });
    }
    Ok((asks, skipped))
}

/// Takes back a recorded request whose email could not be handed on, so it can be sent again.
///
/// # Errors
/// Database errors.
pub async fn forget_renewal_request(
    db: &DatabaseConnection,
    vendor_id: i64,
    day: NaiveDate,
) -> Result<()> {
    renewal_requests::Entity::delete_many()
        .filter(renewal_requests::renewal_requests::Column::VendorId.eq(vendor_id))
        .filter(renewal_requests::renewal_requests::Column::RequestedOn.eq(day))
        .exec(db)
        .await?;
    Ok(())
}

fn wanted(standing: &VendorStanding) -> Vec<&'static str> {
    standing
        .requested()
        .into_iter()
        .filter(|(_, on_file)| !on_file)
        .map(|(slot, _)| slot.portal_label())
        .collect()
}
