//! Many tenants (docs/benchmarks/tenants.md): the bench's organization (25 vendors x 7 current
//! documents) measured on a database holding it alone, then again, in the same run with the same
//! requests, once the other organizations of the same shape are added; the ratio of the medians
//! against the bound of 1.2, whether the answers stayed the same, and the plan of every statement
//! the requests run on the full database.

use std::time::Instant;

use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, EntityTrait, PaginatorTrait};
use vendorwatch::{
    models::_entities::{organizations, users},
    settings::Settings,
};

use crate::{
    harness::{self, Timing},
    plans,
    tenant_rows::{self, DOCUMENTS_PER_VENDOR, VENDORS_PER_ORG},
    Args,
};

pub const DEFAULT_TENANTS: u64 = 20_000;
/// The vendor list as the screens ask for it today (no limit: the organization's 25) and
/// paged, the paged document list, and the dashboard's figures.
const PATHS: [&str; 4] = [
    "/api/vendors",
    "/api/vendors?limit=25",
    "/api/documents?limit=25",
    "/api/dashboard/stats",
];
/// The bound: each request at most this many times its time on the database holding
/// the organization alone.
const TARGET_RATIO: f64 = 1.2;
/// Organizations written per transaction.
const ORGS_PER_BATCH: u64 = 500;
/// The tables whose rows are counted after seeding.
const TABLES: [&str; 7] = [
    "organizations",
    "users",
    "vendors",
    "documents",
    "reminders",
    "pending_expiries",
    "activities",
];

/// The child processes' work: `alone`, a fresh database with the bench's organization (signed
/// up through the API, then its rows); `others`, organizations 2 to `tenants`.
pub async fn seed(args: &Args, what: &str, tenants: u64) {
    if what == "alone" {
        harness::fresh_database(&args.url).await;
    }
    let boot = harness::boot(&args.url).await;
    let db = &boot.app_context.db;
    let offsets = Settings::from_context(&boot.app_context)
        .unwrap()
        .reminders
        .offsets_days;
    let today = chrono::Utc::now().date_naive();
    let bulk = tenant_rows::seeding_connection(&args.url).await.unwrap();
    let started = Instant::now();
    match what {
        "alone" => {
            harness::register(&boot.router.clone().unwrap()).await;
            // The rows of organization `o` are numbered from `o`: the account must be the first.
            let org = organizations::Entity::find()
                .one(db)
                .await
                .unwrap()
                .unwrap();
            let user = users::Entity::find().one(db).await.unwrap().unwrap();
            assert_eq!((org.id, user.id), (1, 1), "a fresh database numbers from 1");
            db.execute_unprepared("UPDATE organizations SET plan = 'professional' WHERE id = 1")
                .await
                .unwrap();
            tenant_rows::write(&bulk, (1, 1), false, &offsets, today)
                .await
                .unwrap();
        }
        "others" => {
            println!("\nAdding organizations 2 to {tenants}, {ORGS_PER_BATCH} a transaction:");
            let mut first = 2;
            while first <= tenants {
                let last = tenants.min(first + ORGS_PER_BATCH - 1);
                tenant_rows::write(&bulk, (first, last), true, &offsets, today)
                    .await
                    .unwrap();
                println!(
                    "  organizations to {last}: {} documents in all, {:.1} s",
                    last * VENDORS_PER_ORG * DOCUMENTS_PER_VENDOR,
                    started.elapsed().as_secs_f64()
                );
                first = last + 1;
            }
        }
        other => panic!("unknown seeding step {other}"),
    }
    tenant_rows::advance_sequences(&bulk).await.unwrap();
    bulk.close().await.unwrap();
    let written = started.elapsed().as_secs_f64();
    harness::settle(db).await;
    println!(
        "seeded ({what}) in {written:.1} s, then {:.1} s of ANALYZE and checkpoint",
        started.elapsed().as_secs_f64() - written
    );
    print_shape(db, &args.url).await;
}

/// The rows in each table and the database's size.
async fn print_shape(db: &DatabaseConnection, url: &str) {
    let mut counts = vec![];
    for table in TABLES {
        let row = db
            .query_one_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                format!("SELECT COUNT(*) AS n FROM {table}"),
            ))
            .await
            .unwrap()
            .unwrap();
        counts.push(format!("{table} {}", row.try_get::<i64>("", "n").unwrap()));
    }
    let bytes = if db.get_database_backend() == DbBackend::Postgres {
        let row = db
            .query_one_raw(sea_orm::Statement::from_string(
                DbBackend::Postgres,
                "SELECT pg_database_size(current_database()) AS n",
            ))
            .await
            .unwrap()
            .unwrap();
        u64::try_from(row.try_get::<i64>("", "n").unwrap()).unwrap_or(0)
    } else {
        std::fs::metadata(harness::sqlite_path(url)).map_or(0, |m| m.len())
    };
    println!("rows: {}; database {} MB", counts.join(", "), bytes >> 20);
}

/// Times `PATHS` on the database as it is, on an app booted afresh.
async fn measure(args: &Args, label: &str) -> (Vec<Timing>, String) {
    let boot = harness::boot(&args.url).await;
    let router = boot.router.clone().unwrap();
    let token = harness::login(&router).await;
    let db = &boot.app_context.db;
    let vendors = vendorwatch::models::_entities::vendors::Entity::find()
        .count(db)
        .await
        .unwrap();
    println!(
        "\n{}, {label} ({vendors} vendors in the database): median of {} runs (first run \
         included in max)\n",
        harness::engine(db),
        args.runs
    );
    let timings = harness::time_paths(&router, &token, &PATHS, args.runs).await;
    harness::print_timings(&timings);
    (timings, token)
}

fn print_ratios(alone: &[Timing], many: &[Timing], tenants: u64) {
    println!("\nRatios (target: at most {TARGET_RATIO}):\n");
    println!("| request | alone ms | {tenants} organizations ms | ratio | |");
    println!("| --- | ---: | ---: | ---: | --- |");
    for (a, m) in alone.iter().zip(many) {
        let ratio = m.median / a.median;
        let verdict = if ratio <= TARGET_RATIO {
            "met".to_string()
        } else {
            format!(
                "missed by {:.1} ms ({ratio:.2} > {TARGET_RATIO})",
                m.median - a.median * TARGET_RATIO
            )
        };
        println!(
            "| `GET {}` | {:.1} | {:.1} | {ratio:.2} | {verdict} |",
            a.path, a.median, m.median
        );
    }
    let changed: Vec<&str> = alone
        .iter()
        .zip(many)
        .filter(|(a, m)| a.body != m.body || a.total != m.total)
        .map(|(a, _)| a.path)
        .collect();
    if changed.is_empty() {
        println!("\nEvery answer is the same, byte for byte, on both databases.");
    } else {
        println!("\n!! Answers that changed when the other organizations were added: {changed:?}");
    }
}

pub async fn run(args: &Args, tenants: u64) {
    assert!(
        tenants * VENDORS_PER_ORG < 10_000_000,
        "company keys are T and 7 digits: at most 399,999 organizations"
    );
    harness::seed_in_child("alone");
    let (alone, token) = measure(args, "1 organization alone").await;
    if tenants == 1 {
        plans::print(&args.url, &token, &PATHS, true).await;
        return;
    }
    harness::seed_in_child("others");
    let (many, token) = measure(args, &format!("{tenants} organizations")).await;
    print_ratios(&alone, &many, tenants);
    plans::print(&args.url, &token, &PATHS, true).await;
}
