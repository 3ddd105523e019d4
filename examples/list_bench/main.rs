//! Benchmarks of the list endpoints (measurements, not tests: scripts/test does not run them).
//! Each boots the app's router in-process (no socket) and times requests through the whole
//! router (auth, middlewares, JSON) with a bearer token; seeding runs in a child process.
//!
//! - **One large organization** (docs/benchmarks/lists.md): 10,000 vendors and 100,000
//!   documents (`--vendors N`, 10 documents each); `GET /api/vendors?limit=25`,
//!   `GET /api/documents?limit=25` and `GET /api/dashboard/stats`: the median of several runs
//!   against its targets, the process's resident memory (`VmRSS`) idle, after the
//!   requests and a few seconds later; then the unpaged lists the screens ask for today, and the
//!   plan of every statement the paged requests run.
//! - **Many tenants** (`--tenants [N]`, docs/benchmarks/tenants.md): one organization of 25
//!   vendors x 7 documents measured on a database holding it alone, then again once N - 1
//!   other organizations of the same shape are added (written by bulk SQL on the server), in
//!   the same run; the ratio of the medians, whether the answers stayed the same, and the plan
//!   of every statement the requests run.
//!
//! ```sh
//! cargo run --example list_bench                     # SQLite file tmp/list_bench.sqlite
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres cargo run --example list_bench
//! cargo run --example list_bench -- --tenants       # 20,000; SQLite file tmp/tenants_bench.sqlite
//! ```
//!
//! With `DATABASE_URL` the database `vendorwatch_list_bench` (`vendorwatch_tenants_bench` with
//! `--tenants`) on that server is dropped and recreated. Options: `--vendors N` (10000),
//! `--tenants [N]` (the many-tenants measurement, N organizations in all; 20000 when no number
//! follows), `--runs N` (7), `--reuse` (one large organization only: measure the database an
//! earlier run seeded). `LIST_BENCH_DUMP=dir` writes each answer's body there, to compare two
//! versions of the code on the same database.

/// The server's allocator and its settings (src/bin/main.rs), so the memory figures are the
/// server's.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;
#[allow(non_upper_case_globals)]
#[export_name = "_rjem_malloc_conf"]
pub static malloc_conf: &[u8] = vendorwatch::infra::JEMALLOC_CONF;

mod dialect;
mod harness;
mod plans;
mod seed;
mod tenant_rows;
mod tenants;

use std::time::Instant;

use harness::{boot, SEED_VAR};
use sea_orm::{ConnectionTrait, EntityTrait};
use vendorwatch::models::_entities::organizations;

const PATHS: [&str; 3] = [
    "/api/vendors?limit=25",
    "/api/documents?limit=25",
    "/api/dashboard/stats",
];
/// The targets for an organization of 2,000 vendors and 20,000 documents (median, ms).
const TARGETS_MS: [f64; 3] = [50.0, 50.0, 30.0];
/// The lists as the screens ask for them today (frontend/src/features/*/api): everything.
const UNPAGED: [&str; 2] = ["/api/vendors", "/api/documents"];
/// The reports and exports of the whole organization (it is on the Professional plan), each
/// timed to its first byte and to its end.
const REPORTS: [&str; 12] = [
    "/api/reports/non-compliant",
    "/api/reports/non-compliant?format=csv",
    "/api/reports/non-compliant?format=xlsx",
    "/api/reports/expirations",
    "/api/reports/expirations?format=csv",
    "/api/reports/compliance?days=365",
    "/api/reports/responsiveness",
    "/api/reports/responsiveness?format=csv",
    "/api/documents/export",
    "/api/vendors/export",
    "/api/vendors/export?format=xlsx",
    "/api/documents/export?format=xlsx",
];
/// Each report or export, to its first byte (median, ms).
const REPORT_TARGET_MS: f64 = 200.0;
/// The resident set after the session of requests, a few seconds later (MB).
const MEMORY_TARGET_MB: f64 = 150.0;

pub struct Args {
    vendors: u64,
    tenants: Option<u64>,
    runs: usize,
    reuse: bool,
    url: String,
}

fn args() -> Args {
    let mut args = Args {
        vendors: 10_000,
        tenants: None,
        runs: 7,
        reuse: false,
        url: String::new(),
    };
    let mut it = std::env::args().skip(1).peekable();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--vendors" => {
                args.vendors = it.next().and_then(|v| v.parse().ok()).expect("--vendors N");
            }
            "--tenants" => {
                let n = it
                    .next_if(|v| !v.starts_with("--"))
                    .map_or(tenants::DEFAULT_TENANTS, |v| v.parse().expect("--tenants N"));
                assert!(n >= 1, "--tenants N: at least 1");
                args.tenants = Some(n);
            }
            "--runs" => args.runs = it.next().and_then(|v| v.parse().ok()).expect("--runs N"),
            "--reuse" => args.reuse = true,
            other => panic!(
                "unknown option {other}; usage: list_bench [--vendors N | --tenants [N]] [--runs N] [--reuse]"
            ),
        }
    }
    assert!(
        !(args.reuse && args.tenants.is_some()),
        "--reuse is for one large organization: --tenants measures a database holding its \
         organization alone first"
    );
    let name = if args.tenants.is_some() {
        "tenants_bench"
    } else {
        "list_bench"
    };
    args.url = match std::env::var("DATABASE_URL") {
        Ok(u) if u.starts_with("postgres") => {
            let mut url = url::Url::parse(&u).unwrap();
            url.set_path(&format!("/vendorwatch_{name}"));
            url.to_string()
        }
        _ => format!("sqlite://tmp/{name}.sqlite?mode=rwc"),
    };
    args
}

/// The child process's work: a fresh database, the account through the API, then the rows.
async fn seed_large_organization(args: &Args) {
    harness::fresh_database(&args.url).await;
    let boot = boot(&args.url).await;
    harness::register(&boot.router.clone().unwrap()).await;
    let db = &boot.app_context.db;
    let org = organizations::Entity::find()
        .one(db)
        .await
        .unwrap()
        .unwrap();
    let started = Instant::now();
    let docs = seed::run(db, org.id, args.vendors).await.unwrap();
    // The reports and exports are the Professional plan's.
    db.execute_unprepared(&format!(
        "UPDATE organizations SET plan = 'professional' WHERE id = {}",
        org.id
    ))
    .await
    .unwrap();
    harness::settle(db).await;
    println!(
        "seeded 1 organization, {} vendors, {docs} documents in {:.1} s",
        args.vendors,
        started.elapsed().as_secs_f64()
    );
}

async fn large_organization(args: &Args) {
    if !args.reuse {
        harness::seed_in_child("organization");
    }
    let boot = boot(&args.url).await;
    let router = boot.router.clone().unwrap();
    let token = harness::login(&router).await;
    let idle = harness::rss_mb();
    println!(
        "{}, {} vendors, median of {} runs (first run included in max)",
        harness::engine(&boot.app_context.db),
        args.vendors,
        args.runs
    );
    let timings = harness::time_paths(&router, &token, &PATHS, args.runs).await;
    harness::print_timings(&timings);
    let after = harness::rss_mb();
    println!("\nTargets (2,000 vendors and 20,000 documents: `--vendors 2000`):\n");
    println!("| request | median ms | target ms | |");
    println!("| --- | ---: | ---: | --- |");
    for (t, target) in timings.iter().zip(TARGETS_MS) {
        let verdict = if t.median < target {
            "met".to_string()
        } else {
            format!(
                "missed by {:.1} ms ({:.2}x)",
                t.median - target,
                t.median / target
            )
        };
        println!(
            "| `GET {}` | {:.1} | < {target:.0} | {verdict} |",
            t.path, t.median
        );
    }
    std::thread::sleep(std::time::Duration::from_secs(5));
    let later = harness::rss_mb();
    println!("\nRSS: idle {idle:.0} MB, after the requests {after:.0} MB, 5 s later {later:.0} MB");
    println!("\nThe whole lists, as the screens ask for them today:\n");
    harness::print_timings(&harness::time_paths(&router, &token, &UNPAGED, args.runs).await);
    reports(&router, &token, args.runs).await;
    // After the memory figures: the plans boot a second app in this process.
    plans::print(&args.url, &token, &PATHS, false).await;
    plans::print(&args.url, &token, &REPORTS, false).await;
}

/// The reports and exports: time to first byte and to the end, and the memory they leave.
async fn reports(router: &axum::Router, token: &str, runs: usize) {
    let mb = |(rss, anon, file, peak): (f64, f64, f64, f64)| {
        format!("{rss:.0} MB (anonymous {anon:.0}, file-backed {file:.0}; peak so far {peak:.0})")
    };
    let before = harness::memory_mb();
    println!("\nReports and exports of the whole organization (target: first byte under {REPORT_TARGET_MS:.0} ms):\n");
    println!("| request | first byte ms | whole ms | bytes | |");
    println!("| --- | ---: | ---: | ---: | --- |");
    for t in harness::time_first_bytes(router, token, &REPORTS, runs).await {
        let verdict = if t.first_byte_ms < REPORT_TARGET_MS {
            "met".to_string()
        } else {
            format!("missed by {:.0} ms", t.first_byte_ms - REPORT_TARGET_MS)
        };
        println!(
            "| `GET {}` | {:.1} | {:.1} | {} | {verdict} |",
            t.path, t.first_byte_ms, t.total_ms, t.bytes
        );
    }
    let after = harness::memory_mb();
    std::thread::sleep(std::time::Duration::from_secs(15));
    let later = harness::memory_mb();
    let verdict = if later.0 < MEMORY_TARGET_MB {
        "met".to_string()
    } else {
        format!("missed by {:.0} MB", later.0 - MEMORY_TARGET_MB)
    };
    println!("\nResident set: before the reports {}", mb(before));
    println!("after them {}", mb(after));
    println!(
        "15 s later {} (target under {MEMORY_TARGET_MB:.0} MB: {verdict})",
        mb(later)
    );
}

#[tokio::main]
async fn main() {
    // As the server does, before any database is opened.
    let sqlite = vendorwatch::infra::sqlite_memory::install();
    eprintln!("SQLite's memory: {sqlite:?}");
    let args = args();
    match (std::env::var(SEED_VAR).ok().as_deref(), args.tenants) {
        (Some("organization"), _) => seed_large_organization(&args).await,
        (Some(what), Some(tenants)) => tenants::seed(&args, what, tenants).await,
        (Some(what), None) => panic!("{SEED_VAR}={what}: unknown"),
        (None, Some(tenants)) => tenants::run(&args, tenants).await,
        (None, None) => large_organization(&args).await,
    }
}
