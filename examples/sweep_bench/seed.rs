//! Bulk data for the sweep benchmark: organizations, vendors, documents (current and history),
//! their reminders, pending expiries and upload activity entries, written in multi-row inserts. The shape is described in
//! docs/benchmarks/reminder-sweep.md.

use chrono::{Days, NaiveDate, NaiveTime};
use sea_orm::{
    prelude::DateTimeWithTimeZone, ActiveValue::Set, DatabaseConnection, DbErr, EntityTrait,
    TransactionTrait,
};
use uuid::Uuid;
use vendorwatch::models::{
    _entities::{activities, documents, organizations, pending_expiries, reminders, vendors},
    compliance,
};

/// Documents per vendor: 5 current (a W-9 without a date and 4 that expire) and 5 history
/// versions (an older W-9, and the 4 expiring ones renewed a few days before they expired,
/// after their 30- and 7-day reminders went out).
pub const DOCS_PER_VENDOR: u64 = 10;
pub const VENDORS_PER_ORG: u64 = 10;
/// Current documents expire uniformly over this many days, starting 30 days before day 0.
pub const SPREAD_DAYS: u64 = 395;
const OFFSETS: [u32; 3] = [30, 7, 0];
const ROWS_PER_INSERT: usize = 1000;
const EXPIRING: [(&str, Option<&str>, &str); 4] = [
    ("coi", Some("general_liability"), "coi_general_liability"),
    ("coi", Some("workers_comp"), "coi_workers_comp"),
    ("sales_tax", None, "sales_tax"),
    ("vendor_agreement", None, "vendor_agreement"),
];

#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub organizations: u64,
    pub vendors: u64,
    pub documents: u64,
    pub reminders: u64,
    pub activities: u64,
}

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

/// Rows waiting to be written, flushed a thousand at a time.
#[derive(Default)]
struct Batch {
    documents: Vec<documents::ActiveModel>,
    /// Everything that points at documents: reminders, pending expiries, activity entries.
    reminders: Vec<reminders::ActiveModel>,
    pending: Vec<pending_expiries::ActiveModel>,
    activities: Vec<activities::ActiveModel>,
}

impl Batch {
    /// Writes full chunks (everything with `all`); documents always before the reminders that
    /// point at them.
    async fn flush<C: sea_orm::ConnectionTrait>(&mut self, db: &C, all: bool) -> Result<(), DbErr> {
        let reminders_due = all || self.reminders.len() >= ROWS_PER_INSERT;
        if reminders_due || self.documents.len() >= ROWS_PER_INSERT {
            while !self.documents.is_empty() {
                let n = self.documents.len().min(ROWS_PER_INSERT);
                let rows: Vec<_> = self.documents.drain(..n).collect();
                documents::Entity::insert_many(rows)
                    .exec_without_returning(db)
                    .await?;
            }
        }
        if reminders_due {
            insert_all(db, &mut self.reminders).await?;
            insert_all(db, &mut self.pending).await?;
            insert_all(db, &mut self.activities).await?;
        }
        Ok(())
    }
}

async fn insert_all<C, A>(db: &C, rows: &mut Vec<A>) -> Result<(), DbErr>
where
    C: sea_orm::ConnectionTrait,
    A: sea_orm::ActiveModelTrait,
{
    while !rows.is_empty() {
        let n = rows.len().min(ROWS_PER_INSERT);
        let chunk: Vec<_> = rows.drain(..n).collect();
        A::Entity::insert_many(chunk)
            .exec_without_returning(db)
            .await?;
    }
    Ok(())
}

/// Seeds about `wanted` documents as the database stands after the sweep of the day before
/// `day0`: every reminder dated before `day0` is sent, every current document that expired
/// before `day0` is recorded (no pending expiry left); what falls on `day0` is pending. Each
/// document has its `document_uploaded` activity entry, as in the product.
///
/// # Errors
/// Database errors.
pub async fn run(db: &DatabaseConnection, wanted: u64, day0: NaiveDate) -> Result<Counts, DbErr> {
    let vendors_total = wanted.div_ceil(DOCS_PER_VENDOR);
    let orgs_total = vendors_total.div_ceil(VENDORS_PER_ORG);
    let mut counts = Counts {
        organizations: orgs_total,
        vendors: vendors_total,
        ..Counts::default()
    };
    let now = at(day0);
    for chunk in (1..=orgs_total).collect::<Vec<_>>().chunks(ROWS_PER_INSERT) {
        let rows = chunk.iter().map(|&id| organizations::ActiveModel {
            id: Set(i64::try_from(id).unwrap()),
            pid: Set(Uuid::new_v4()),
            name: Set(format!("Organization {id}")),
            plan: Set("professional".into()),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        });
        organizations::Entity::insert_many(rows)
            .exec_without_returning(db)
            .await?;
    }
    let (mut doc_id, mut reminder_id) = (0_i64, 0_i64);
    for vendor_chunk in (1..=vendors_total)
        .collect::<Vec<_>>()
        .chunks(ROWS_PER_INSERT)
    {
        let txn = db.begin().await?;
        let rows = vendor_chunk.iter().map(|&v| vendor_row(v, now));
        vendors::Entity::insert_many(rows)
            .exec_without_returning(&txn)
            .await?;
        let mut batch = Batch::default();
        for &v in vendor_chunk {
            let org_id = i64::try_from((v - 1) / VENDORS_PER_ORG + 1).unwrap();
            let mut document =
                |slot: (&str, Option<&str>, &str), expires: Option<NaiveDate>, current: bool| {
                    doc_id += 1;
                    let row = document_row(
                        doc_id,
                        org_id,
                        i64::try_from(v).unwrap(),
                        slot,
                        expires,
                        current,
                        day0,
                    );
                    batch.documents.push(row);
                    if current && expires.is_some_and(|e| e >= day0) {
                        batch.pending.push(pending_expiries::ActiveModel {
                            document_id: Set(doc_id),
                            expiration_date: Set(expires.unwrap()),
                            entry_pid: Set(Some(Uuid::now_v7())),
                        });
                    }
                    batch
                        .activities
                        .push(upload_entry(doc_id, org_id, v, slot.2, expires, day0));
                    doc_id
                };
            document(("w9", None, "w9"), None, true);
            for (k, slot) in EXPIRING.into_iter().enumerate() {
                let spread = mix(v * 16 + k as u64) % SPREAD_DAYS;
                let expires = day0.checked_sub_days(Days::new(30)).unwrap() + Days::new(spread);
                let id = document(slot, Some(expires), true);
                let history_expired = expires.checked_sub_days(Days::new(365)).unwrap();
                let old = document(slot, Some(history_expired), false);
                for (doc, exp, offsets) in [
                    (id, expires, &OFFSETS[..]),
                    (old, history_expired, &OFFSETS[..2]),
                ] {
                    for date in compliance::reminder_dates(exp, offsets, exp - Days::new(365)) {
                        reminder_id += 1;
                        batch.reminders.push(reminder_row(
                            reminder_id,
                            org_id,
                            doc,
                            exp,
                            date,
                            day0,
                        ));
                    }
                }
            }
            document(("w9", None, "w9"), None, false);
            batch.flush(&txn, false).await?;
        }
        batch.flush(&txn, true).await?;
        txn.commit().await?;
    }
    counts.documents = u64::try_from(doc_id).unwrap();
    counts.reminders = u64::try_from(reminder_id).unwrap();
    counts.activities = counts.documents;
    Ok(counts)
}

fn upload_entry(
    doc_id: i64,
    org_id: i64,
    vendor: u64,
    slot: &str,
    expires: Option<NaiveDate>,
    day0: NaiveDate,
) -> activities::ActiveModel {
    let uploaded = at(expires.map_or(day0, |e| e - Days::new(365)));
    activities::ActiveModel {
        pid: Set(Uuid::now_v7()),
        activity_type: Set("document_uploaded".into()),
        description: Set(format!(
            "Document \"{slot}-{doc_id}.pdf\" for Vendor {vendor} was uploaded"
        )),
        vendor_key: Set(Some(format!("B{vendor:07}"))),
        document_pid: Set(None),
        organization_id: Set(org_id),
        created_at: Set(uploaded),
        updated_at: Set(uploaded),
        ..Default::default()
    }
}

fn vendor_row(v: u64, now: DateTimeWithTimeZone) -> vendors::ActiveModel {
    vendors::ActiveModel {
        id: Set(i64::try_from(v).unwrap()),
        // Unique 8-character keys, like the real ones.
        key: Set(format!("B{v:07}")),
        name: Set(format!("Vendor {v}")),
        email: Set(format!("vendor{v}@example.com")),
        service_type: Set("plumbing".into()),
        required_documents: Set("[]".into()),
        organization_id: Set(i64::try_from((v - 1) / VENDORS_PER_ORG + 1).unwrap()),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
}

fn document_row(
    id: i64,
    org_id: i64,
    vendor_id: i64,
    (document_type, coi_type, slot): (&str, Option<&str>, &str),
    expires: Option<NaiveDate>,
    current: bool,
    day0: NaiveDate,
) -> documents::ActiveModel {
    let uploaded = at(expires.map_or(day0, |e| e - Days::new(365)));
    documents::ActiveModel {
        id: Set(id),
        pid: Set(Uuid::new_v4()),
        document_type: Set(document_type.into()),
        coi_type: Set(coi_type.map(Into::into)),
        slot: Set(slot.into()),
        file_name: Set(format!("{slot}-{id}.pdf")),
        storage_key: Set(format!("documents/{id}")),
        content_type: Set("application/pdf".into()),
        size: Set(120_000),
        expiration_date: Set(expires),
        notes: Set(None),
        source: Set("user".into()),
        version: Set(if current { 2 } else { 1 }),
        is_current: Set(current),
        superseded_at: Set((!current).then(|| at(expires.map_or(day0, |e| e - Days::new(3))))),
        organization_id: Set(org_id),
        vendor_id: Set(vendor_id),
        coverage: Set(None),
        coverage_source: Set(None),
        created_at: Set(uploaded),
        updated_at: Set(uploaded),
    }
}

fn reminder_row(
    id: i64,
    org_id: i64,
    document_id: i64,
    expires: NaiveDate,
    date: NaiveDate,
    day0: NaiveDate,
) -> reminders::ActiveModel {
    let sent = date < day0;
    reminders::ActiveModel {
        id: Set(id),
        pid: Set(Uuid::new_v4()),
        reminder_date: Set(date),
        offset_days: Set(i32::try_from((expires - date).num_days()).unwrap()),
        sent_at: Set(sent.then(|| at(date))),
        organization_id: Set(org_id),
        document_id: Set(document_id),
        created_at: Set(at(date)),
        updated_at: Set(at(date)),
    }
}
