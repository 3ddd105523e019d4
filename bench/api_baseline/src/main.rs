//! The baseline of scripts/api-bench: the thinnest axum + sqlx server that answers Vendorwatch's
//! `GET /api/vendors` (one organization's every vendor with its status and seven slots, the same
//! bytes) and `GET /_ping`, from the app's own database.
//!
//! It skips what the app does around the answer: no token (the organization is
//! `BASELINE_ORG_ID`), no user or organization lookup, no count, no middlewares (request ids,
//! logs, metrics, security headers). The rules are the app's own, copied from
//! `src/models/compliance` and `src/models/vendors/standing.rs`.
//!
//! `DATABASE_URL` (sqlite://… or postgres://…), `PORT` (default 5400), `BASELINE_ORG_ID`
//! (default 1), `DB_MAX_CONNECTIONS` (default: the app's production default, twice the
//! machine's cores and one).

use std::{collections::HashMap, env, sync::Arc};

use axum::{extract::State, http::StatusCode, routing::get, Json, Router};
use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde::Serialize;
use sqlx::{postgres::PgPoolOptions, sqlite::SqlitePoolOptions, FromRow, PgPool, SqlitePool};
use uuid::Uuid;

/// The app's seven dashboard slots, in display order, with their labels.
const SLOTS: [(&str, &str); 7] = [
    ("w9", "W-9 Form"),
    ("coi_general_liability", "COI - General"),
    ("coi_workers_comp", "COI - Workers"),
    ("coi_automobile", "COI - Auto"),
    ("sales_tax", "Sales Tax Certificate"),
    ("vendor_agreement", "Vendor Agreement"),
    ("other", "Other Documents"),
];
const EXPIRING_SOON_DAYS: i64 = 30;

// The same SQL on both databases: SQLite reads `$1` as the first parameter and TRUE as 1.
const VENDORS_SQL: &str = "SELECT id, key, name, email, phone, service_type, address, city, \
    state, zip_code, notes, required_documents, requirement_set_id, created_at, updated_at \
    FROM vendors WHERE organization_id = $1 ORDER BY lower(name), id";
const DOCUMENTS_SQL: &str = "SELECT vendor_id, pid, slot, expiration_date FROM documents \
    WHERE organization_id = $1 AND is_current = TRUE";

enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

struct App {
    db: Db,
    org_id: i64,
}

#[derive(FromRow)]
struct VendorRow {
    id: i64,
    key: String,
    name: String,
    email: String,
    phone: Option<String>,
    service_type: String,
    address: Option<String>,
    city: Option<String>,
    state: Option<String>,
    zip_code: Option<String>,
    notes: Option<String>,
    required_documents: String,
    requirement_set_id: Option<i64>,
    created_at: DateTime<FixedOffset>,
    updated_at: DateTime<FixedOffset>,
}

#[derive(FromRow)]
struct DocumentRow {
    vendor_id: i64,
    pid: Uuid,
    slot: String,
    expiration_date: Option<NaiveDate>,
}

/// Ordered from best to worst, as the app's: the worst current document decides.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Current,
    ExpiringSoon,
    Expired,
    Missing,
}

/// A document without an expiration date is on file and does not expire.
fn document_status(expiration: Option<NaiveDate>, today: NaiveDate) -> Status {
    let Some(expiration) = expiration else {
        return Status::Current;
    };
    let days = (expiration - today).num_days();
    if days <= 0 {
        Status::Expired
    } else if days <= EXPIRING_SOON_DAYS {
        Status::ExpiringSoon
    } else {
        Status::Current
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SlotResponse {
    slot: &'static str,
    label: &'static str,
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    document_id: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Vendor {
    id: String,
    name: String,
    email: String,
    phone: Option<String>,
    service_type: String,
    address: Option<String>,
    city: Option<String>,
    state: Option<String>,
    zip_code: Option<String>,
    notes: Option<String>,
    company_key: String,
    required_documents: Vec<String>,
    created_at: String,
    updated_at: String,
    document_status: Status,
    document_count: usize,
    slots: Vec<SlotResponse>,
    requirement_set_id: Option<String>,
    gaps: Vec<String>,
    meets_requirements: bool,
}

impl Vendor {
    fn new(v: VendorRow, docs: &[DocumentRow], today: NaiveDate) -> Self {
        let current: Vec<(&str, Status, Uuid)> = docs
            .iter()
            .filter_map(|d| {
                let slot = SLOTS.iter().find(|(key, _)| *key == d.slot)?.0;
                Some((slot, document_status(d.expiration_date, today), d.pid))
            })
            .collect();
        let slots = SLOTS
            .iter()
            .map(|&(slot, label)| {
                let worst = current
                    .iter()
                    .filter(|(s, _, _)| *s == slot)
                    .max_by_key(|(_, status, _)| *status);
                SlotResponse {
                    slot,
                    label,
                    status: worst.map_or(Status::Missing, |(_, status, _)| *status),
                    document_id: worst.map(|(_, _, pid)| pid.to_string()),
                }
            })
            .collect();
        let required: Vec<String> = serde_json::from_str::<Vec<String>>(&v.required_documents)
            .unwrap_or_default()
            .into_iter()
            .filter(|key| SLOTS.iter().any(|(slot, _)| slot == key))
            .collect();
        Self {
            id: v.key.clone(),
            name: v.name,
            email: v.email,
            phone: v.phone,
            service_type: v.service_type,
            address: v.address,
            city: v.city,
            state: v.state,
            zip_code: v.zip_code,
            notes: v.notes,
            company_key: v.key,
            required_documents: required,
            created_at: v.created_at.to_rfc3339(),
            updated_at: v.updated_at.to_rfc3339(),
            document_status: current
                .iter()
                .map(|(_, status, _)| *status)
                .max()
                .unwrap_or(Status::Missing),
            document_count: docs.len(),
            slots,
            // Only vendors without a requirement set (see `vendors`): no gaps, so they meet it.
            requirement_set_id: None,
            gaps: Vec::new(),
            meets_requirements: true,
        }
    }
}

/// The organization's vendors by name, and their current documents: two queries.
async fn fetch(app: &App) -> Result<(Vec<VendorRow>, Vec<DocumentRow>), sqlx::Error> {
    Ok(match &app.db {
        Db::Sqlite(pool) => (
            sqlx::query_as(VENDORS_SQL)
                .bind(app.org_id)
                .fetch_all(pool)
                .await?,
            sqlx::query_as(DOCUMENTS_SQL)
                .bind(app.org_id)
                .fetch_all(pool)
                .await?,
        ),
        Db::Postgres(pool) => (
            sqlx::query_as(VENDORS_SQL)
                .bind(app.org_id)
                .fetch_all(pool)
                .await?,
            sqlx::query_as(DOCUMENTS_SQL)
                .bind(app.org_id)
                .fetch_all(pool)
                .await?,
        ),
    })
}

async fn vendors(State(app): State<Arc<App>>) -> Result<Json<Vec<Vendor>>, StatusCode> {
    let (rows, docs) = fetch(&app).await.map_err(|err| {
        eprintln!("api_baseline: {err}");
        StatusCode::INTERNAL_SERVER_ERROR
    })?;
    let mut by_vendor: HashMap<i64, Vec<DocumentRow>> = HashMap::new();
    for doc in docs {
        by_vendor.entry(doc.vendor_id).or_default().push(doc);
    }
    // Gaps against a requirement set are the app's own rules, not copied here: the benchmark's
    // organization has no set, and a vendor with one is refused rather than answered wrongly.
    if rows.iter().any(|v| v.requirement_set_id.is_some()) {
        eprintln!("api_baseline: a vendor has a requirement set, whose gaps it does not compute");
        return Err(StatusCode::NOT_IMPLEMENTED);
    }
    let today = Utc::now().date_naive();
    Ok(Json(
        rows.into_iter()
            .map(|v| {
                let docs = by_vendor.remove(&v.id).unwrap_or_default();
                Vendor::new(v, &docs, today)
            })
            .collect(),
    ))
}

#[derive(Serialize)]
struct Alive {
    ok: bool,
}

async fn ping() -> Json<Alive> {
    Json(Alive { ok: true })
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a valid value"))
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = env::var("DATABASE_URL").map_err(|_| "DATABASE_URL is required")?;
    let port: u16 = env_or("PORT", 5400);
    // The app's production pool (`src/infra/db_pool.rs`, `connections_for`): the two servers
    // take turns on as many connections.
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let max: u32 = env_or(
        "DB_MAX_CONNECTIONS",
        u32::try_from(cores * 2 + 1).unwrap_or(u32::MAX),
    );
    // The database's version goes to the log, for the report (SQLite is the one built in).
    let (db, version): (Db, String) = if url.starts_with("sqlite:") {
        let pool = SqlitePoolOptions::new()
            .max_connections(max)
            .connect(&url)
            .await?;
        let version: String = sqlx::query_scalar("SELECT sqlite_version()")
            .fetch_one(&pool)
            .await?;
        (Db::Sqlite(pool), format!("SQLite {version}"))
    } else {
        let pool = PgPoolOptions::new()
            .max_connections(max)
            .connect(&url)
            .await?;
        let version: String = sqlx::query_scalar("SHOW server_version")
            .fetch_one(&pool)
            .await?;
        (Db::Postgres(pool), format!("PostgreSQL {version}"))
    };
    println!("api_baseline database: {version}");
    let app = Arc::new(App {
        db,
        org_id: env_or("BASELINE_ORG_ID", 1),
    });
    let router = Router::new()
        .route("/api/vendors", get(vendors))
        .route("/_ping", get(ping))
        .with_state(app);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("api_baseline listening on 127.0.0.1:{port}");
    axum::serve(listener, router).await?;
    Ok(())
}
