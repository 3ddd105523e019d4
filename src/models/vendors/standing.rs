//! A vendor's standing: its status and its seven slots, from its current documents.

use chrono::NaiveDate;
use uuid::Uuid;

use super::Model;
use crate::models::{
    _entities::documents,
    compliance::{self, Slot, Status},
};

/// How many vendors the organization's plan allows, and what to say at the limit.
#[derive(Debug, Clone)]
pub struct PlanLimit {
    pub vendors: u64,
    pub message: String,
}

/// A vendor with what its current documents say about it.
#[derive(Debug, Clone)]
pub struct VendorStanding {
    pub vendor: Model,
    pub status: Status,
    pub document_count: usize,
    /// The seven slots: status and the id of the document deciding it.
    pub slots: Vec<(Slot, Status, Option<Uuid>)>,
}

impl VendorStanding {
    #[must_use]
    pub fn new(vendor: Model, current: &[documents::Model], today: NaiveDate) -> Self {
        Self::of(
            vendor,
            current
                .iter()
                .map(|d| (d.slot.as_str(), d.expiration_date, d.pid)),
            today,
        )
    }

    /// The standing from the vendor's current documents as (slot, expiration date, id).
    #[must_use]
    pub fn of<'a>(
        vendor: Model,
        current: impl IntoIterator<Item = (&'a str, Option<NaiveDate>, Uuid)>,
        today: NaiveDate,
    ) -> Self {
        let mut document_count = 0;
        let current: Vec<(Slot, Status, Uuid)> = current
            .into_iter()
            .inspect(|_| document_count += 1)
            .filter_map(|(slot, expiration, pid)| {
                Slot::parse(slot).map(|s| (s, compliance::document_status(expiration, today), pid))
            })
            .collect();
        Self {
            vendor,
            status: compliance::vendor_status(current.iter().map(|(_, s, _)| *s)),
            document_count,
            slots: compliance::slot_statuses(&current),
        }
    }

    #[must_use]
    pub fn required_documents(&self) -> Vec<Slot> {
        parse_required(&self.vendor.required_documents)
    }

    /// What the portal asks the vendor for: each required slot, and whether a current
    /// document is on file for it (one expiring soon or expired is asked for again).
    #[must_use]
    pub fn requested(&self) -> Vec<(Slot, bool)> {
        self.required_documents()
            .into_iter()
            .map(|slot| {
                let on_file = self.slots.iter().any(|(s, status, doc)| {
                    *s == slot && doc.is_some() && *status == Status::Current
                });
                (slot, on_file)
            })
            .collect()
    }
}

#[must_use]
pub fn parse_required(raw: &str) -> Vec<Slot> {
    serde_json::from_str::<Vec<String>>(raw)
        .unwrap_or_default()
        .iter()
        .filter_map(|k| Slot::parse(k))
        .collect()
}

pub(super) fn required_json(slots: &[Slot]) -> String {
    serde_json::to_string(&slots.iter().map(|s| s.as_str()).collect::<Vec<_>>())
        .unwrap_or_else(|_| "[]".to_string())
}
