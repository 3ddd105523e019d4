//! The events no request makes: a vendor's status or gaps changing, a document starting to
//! expire or expiring (often only because a day passed). For each organization with an
//! endpoint that wants one of them, every vendor is looked at as the screens show it, and
//! compared with what it was at the last look (`webhook_vendor_states`); each difference is an
//! event, recorded with the new state in one transaction, so a change is told once. A vendor
//! seen for the first time is only remembered: an endpoint added today is not sent the
//! organization's whole past.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};
use loco_rs::prelude::*;
use sea_orm::sea_query::{Expr, OnConflict};
use serde_json::json;

use super::{
    _entities::{organizations, vendors, webhook_endpoints, webhook_vendor_states as states},
    compliance::Status,
    gaps::Review,
    webhooks::events::{emit, EventType},
};

impl ActiveModelBehavior for states::ActiveModel {}

/// The events this look may make.
const LOOKED_FOR: [EventType; 4] = [
    EventType::DocumentExpiring,
    EventType::DocumentExpired,
    EventType::VendorStatusChanged,
    EventType::VendorGapsChanged,
];

/// A vendor as the last look saw it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Seen {
    status: String,
    gaps: Vec<String>,
    /// Pids of the current documents expiring soon, and of those expired.
    expiring: BTreeSet<String>,
    expired: BTreeSet<String>,
}

impl Seen {
    fn stored(row: &states::Model) -> Self {
        let set = |raw: &str| {
            raw.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        Self {
            status: row.status.clone(),
            gaps: serde_json::from_str(&row.gaps).unwrap_or_default(),
            expiring: set(&row.expiring),
            expired: set(&row.expired),
        }
    }

    fn joined(set: &BTreeSet<String>) -> String {
        set.iter().cloned().collect::<Vec<_>>().join(",")
    }
}

/// Looks at every organization with an endpoint wanting one of these events; returns how many
/// events were recorded.
///
/// # Errors
/// Database errors (organizations already looked at keep their events).
pub async fn look(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<usize> {
    let endpoints = webhook_endpoints::Entity::find().all(db).await?;
    let mut orgs: Vec<i64> = endpoints
        .iter()
        .filter(|e| LOOKED_FOR.iter().any(|event| e.wants(*event)))
        .map(|e| e.organization_id)
        .collect();
    orgs.sort_unstable();
    orgs.dedup();
    let mut recorded = 0;
    for org_id in orgs {
        if let Some(org) = organizations::Entity::find_by_id(org_id).one(db).await? {
            recorded += look_at(db, &org, now).await?;
        }
    }
    Ok(recorded)
}

/// Looks at the vendors of `org`; how many events were recorded.
async fn look_at(
    db: &DatabaseConnection,
    org: &organizations::Model,
    now: DateTime<Utc>,
) -> Result<usize> {
    let today = org.today_at(now);
    let all = vendors::Entity::find()
        .filter(vendors::Column::OrganizationId.eq(org.id))
        .all(db)
        .await?;
    let refs: Vec<&vendors::Model> = all.iter().collect();
    let mut reviews = Review::of_vendors(db, &refs, today).await?;
    let standings = vendors::Model::standings_of(db, all.clone(), today).await?;
    let mut before: HashMap<i64, states::Model> = states::Entity::find()
        .filter(states::Column::OrganizationId.eq(org.id))
        .all(db)
        .await?
        .into_iter()
        .map(|s| (s.vendor_id, s))
        .collect();
    let mut recorded = 0;
    for standing in standings {
        let vendor = &standing.vendor;
        let mut seen = Seen {
            status: standing.status.as_str().to_string(),
            gaps: reviews
                .remove(&vendor.id)
                .map(|r| r.counting())
                .unwrap_or_default(),
            ..Seen::default()
        };
        for (_, status, pid) in &standing.slots {
            if let Some(pid) = pid {
                match status {
                    Status::ExpiringSoon => seen.expiring.insert(pid.to_string()),
                    Status::Expired => seen.expired.insert(pid.to_string()),
                    Status::Current | Status::Missing => false,
                };
            }
        }
        let previous = before.remove(&vendor.id);
        if previous.as_ref().map(Seen::stored).as_ref() == Some(&seen) {
            continue;
        }
        let txn = super::begin_write(db).await?;
        // The look that moves the state on tells the change: two looks at once (two
        // schedulers) tell it once.
        if remember(&txn, org.id, vendor.id, previous.as_ref(), &seen, now).await? {
            if let Some(row) = &previous {
                recorded += tell(&txn, vendor, &Seen::stored(row), &seen, now).await?;
            }
        }
        txn.commit().await?;
    }
    Ok(recorded)
}

/// The events between `was` and `is`.
async fn tell<C: ConnectionTrait>(
    db: &C,
    vendor: &vendors::Model,
    was: &Seen,
    is: &Seen,
    now: DateTime<Utc>,
) -> Result<usize> {
    let mut recorded = 0;
    let about = json!({"vendorId": vendor.key, "vendorName": vendor.name});
    if was.status != is.status {
        let mut data = about.clone();
        data["previousStatus"] = json!(was.status);
        data["status"] = json!(is.status);
        recorded += emit(
            db,
            vendor.organization_id,
            EventType::VendorStatusChanged,
            &data,
            now,
        )
        .await?;
    }
    if was.gaps != is.gaps {
        let mut data = about.clone();
        data["gaps"] = json!(is.gaps);
        recorded += emit(
            db,
            vendor.organization_id,
            EventType::VendorGapsChanged,
            &data,
            now,
        )
        .await?;
    }
    for (event, was, is) in [
        (EventType::DocumentExpiring, &was.expiring, &is.expiring),
        (EventType::DocumentExpired, &was.expired, &is.expired),
    ] {
        for pid in is.difference(was) {
            let mut data = about.clone();
            data["documentId"] = json!(pid);
            recorded += emit(db, vendor.organization_id, event, &data, now).await?;
        }
    }
    Ok(recorded)
}

/// Keeps `seen` as the vendor's last look, unless another look moved it on from `previous`
/// first; whether this one did.
async fn remember<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    vendor_id: i64,
    previous: Option<&states::Model>,
    seen: &Seen,
    now: DateTime<Utc>,
) -> Result<bool> {
    let gaps = serde_json::to_string(&seen.gaps).unwrap_or_default();
    let written = match previous {
        Some(row) => {
            states::Entity::update_many()
                .col_expr(states::Column::Status, Expr::val(seen.status.clone()))
                .col_expr(states::Column::Gaps, Expr::val(gaps))
                .col_expr(
                    states::Column::Expiring,
                    Expr::val(Seen::joined(&seen.expiring)),
                )
                .col_expr(
                    states::Column::Expired,
                    Expr::val(Seen::joined(&seen.expired)),
                )
                .col_expr(states::Column::UpdatedAt, Expr::val(now))
                .filter(states::Column::Id.eq(row.id))
                .filter(states::Column::UpdatedAt.eq(row.updated_at))
                .exec(db)
                .await?
                .rows_affected
        }
        None => {
            states::Entity::insert(states::ActiveModel {
                created_at: ActiveValue::Set(now.into()),
                updated_at: ActiveValue::Set(now.into()),
                status: ActiveValue::Set(seen.status.clone()),
                gaps: ActiveValue::Set(gaps),
                expiring: ActiveValue::Set(Seen::joined(&seen.expiring)),
                expired: ActiveValue::Set(Seen::joined(&seen.expired)),
                organization_id: ActiveValue::Set(org_id),
                vendor_id: ActiveValue::Set(vendor_id),
                ..Default::default()
            })
            .on_conflict(
                OnConflict::column(states::Column::VendorId)
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await?
        }
    };
    Ok(written == 1)
}
