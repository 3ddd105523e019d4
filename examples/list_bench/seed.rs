//! One organization's vendors and documents for the list benchmark, written in multi-row
//! inserts: per vendor 5 current documents (a W-9 without a date and 4 that expire, spread over
//! a year around today) and 5 history versions, like `examples/sweep_bench`. Every tenth vendor
//! was asked for its documents a week ago (a renewal request), and every twentieth's current
//! W-9 came through the portal today (the responsiveness report's rows).

use chrono::{Days, NaiveDate, NaiveTime, Utc};
use sea_orm::{
    prelude::DateTimeWithTimeZone, ActiveValue::Set, DatabaseConnection, DbErr, EntityTrait,
    TransactionTrait,
};
use uuid::Uuid;
use vendorwatch::models::_entities::{documents, renewal_requests, vendors};

const ROWS_PER_INSERT: usize = 1000;
const EXPIRING: [(&str, Option<&str>, &str); 4] = [
    ("coi", Some("general_liability"), "coi_general_liability"),
    ("coi", Some("workers_comp"), "coi_workers_comp"),
    ("sales_tax", None, "sales_tax"),
    ("vendor_agreement", None, "vendor_agreement"),
];

/// A cheap, reproducible spread (`SplitMix64`).
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn at(day: NaiveDate) -> DateTimeWithTimeZone {
    day.and_time(NaiveTime::MIN).and_utc().fixed_offset()
}

/// Seeds `vendor_count` vendors with 10 documents each into organization `org_id`.
///
/// # Errors
/// Database errors.
pub async fn run(db: &DatabaseConnection, org_id: i64, vendor_count: u64) -> Result<u64, DbErr> {
    let today = Utc::now().date_naive();
    let now = at(today);
    let mut doc_id = 0_i64;
    let all: Vec<u64> = (1..=vendor_count).collect();
    for chunk in all.chunks(ROWS_PER_INSERT / 10) {
        let txn = db.begin().await?;
        vendors::Entity::insert_many(chunk.iter().map(|&v| vendors::ActiveModel {
            id: Set(i64::try_from(v).unwrap()),
            key: Set(format!("L{v:07}")),
            name: Set(format!("Vendor {:05}", mix(v) % 100_000)),
            email: Set(format!("vendor{v}@example.com")),
            service_type: Set("plumbing".into()),
            required_documents: Set("[\"w9\"]".into()),
            organization_id: Set(org_id),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }))
        .exec_without_returning(&txn)
        .await?;
        let mut rows = Vec::with_capacity(ROWS_PER_INSERT);
        for &v in chunk {
            let vendor_id = i64::try_from(v).unwrap();
            let source = if v % 20 == 0 { "vendor_portal" } else { "user" };
            let mut document = |(kind, coi, slot): (&str, Option<&str>, &str),
                                expires: Option<NaiveDate>,
                                current: bool| {
                doc_id += 1;
                let uploaded = at(expires.map_or(today, |e| e - Days::new(365))
                    - Days::new(u64::from(!current) * 365));
                rows.push(documents::ActiveModel {
                    id: Set(doc_id),
                    pid: Set(Uuid::new_v4()),
                    document_type: Set(kind.into()),
                    coi_type: Set(coi.map(Into::into)),
                    slot: Set(slot.into()),
                    file_name: Set(format!("{slot}-{doc_id}.pdf")),
                    storage_key: Set(format!("documents/{doc_id}")),
                    content_type: Set("application/pdf".into()),
                    size: Set(120_000),
                    expiration_date: Set(expires),
                    notes: Set(coi.map(|c| format!("COI Type: {c}"))),
                    source: Set(if slot == "w9" && current {
                        source
                    } else {
                        "user"
                    }
                    .into()),
                    version: Set(if current { 2 } else { 1 }),
                    is_current: Set(current),
                    superseded_at: Set((!current).then_some(uploaded)),
                    organization_id: Set(org_id),
                    vendor_id: Set(vendor_id),
                    coverage: Set(None),
                    coverage_source: Set(None),
                    created_at: Set(uploaded),
                    updated_at: Set(uploaded),
                });
            };
            document(("w9", None, "w9"), None, true);
            document(("w9", None, "w9"), None, false);
            for (k, slot) in EXPIRING.into_iter().enumerate() {
                let expires = today - Days::new(30) + Days::new(mix(v * 16 + k as u64) % 395);
                document(slot, Some(expires), true);
                document(slot, Some(expires - Days::new(365)), false);
            }
        }
        documents::Entity::insert_many(rows)
            .exec_without_returning(&txn)
            .await?;
        let asked = today - Days::new(7);
        let requests =
            chunk
                .iter()
                .filter(|&&v| v % 10 == 0)
                .map(|&v| renewal_requests::ActiveModel {
                    requested_on: Set(asked),
                    organization_id: Set(org_id),
                    vendor_id: Set(i64::try_from(v).unwrap()),
                    created_at: Set(at(asked)),
                    updated_at: Set(at(asked)),
                    ..Default::default()
                });
        renewal_requests::Entity::insert_many(requests)
            .exec_without_returning(&txn)
            .await?;
        txn.commit().await?;
    }
    Ok(u64::try_from(doc_id).unwrap())
}
