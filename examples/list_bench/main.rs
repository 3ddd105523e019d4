//! Benchmark of the list endpoints on one large organization (a measurement, not a test: it is
//! not run by scripts/test). Seeds one organization with 10,000 vendors and 100,000 documents,
//! boots the app's router in-process (no socket) and times, through the whole router (auth,
//! middlewares, JSON), `GET /api/vendors?limit=25`, `GET /api/documents?limit=25` and
//! `GET /api/dashboard/stats`: the median of several runs, and the process's resident memory
//! (`VmRSS`) idle, after the requests and a few seconds later. Results:
//! docs/benchmarks/lists.md.
//!
//! ```sh
//! cargo run --example list_bench                     # SQLite file tmp/list_bench.sqlite
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres cargo run --example list_bench
//! ```
//!
//! With `DATABASE_URL` the database `vendorwatch_list_bench` on that server is dropped and
//! recreated. Options: `--vendors N` (10000; 10 documents each), `--runs N` (7), `--reuse`
//! (measure the database an earlier run seeded). Seeding runs in a child process of its own, so
//! the memory measured is only the requests'. `LIST_BENCH_DUMP=dir` writes each answer's body
//! there, to compare two versions of the code on the same database.

mod seed;

use std::{net::SocketAddr, time::Instant};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, Request, StatusCode},
    Router,
};
use loco_rs::{
    app::Hooks,
    boot::{BootResult, StartMode},
    environment::Environment,
};
use sea_orm::{ConnectionTrait, EntityTrait};
use serde_json::{json, Value};
use tower::ServiceExt;
use vendorwatch::{app::App, models::_entities::organizations};

const EMAIL: &str = "bench@example.com";
const PASSWORD: &str = "bench-password";
const PATHS: [&str; 3] = [
    "/api/vendors?limit=25",
    "/api/documents?limit=25",
    "/api/dashboard/stats",
];

struct Args {
    vendors: u64,
    runs: usize,
    reuse: bool,
    url: String,
}

fn args() -> Args {
    let mut args = Args {
        vendors: 10_000,
        runs: 7,
        reuse: false,
        url: String::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--vendors" => {
                args.vendors = it.next().and_then(|v| v.parse().ok()).expect("--vendors N");
            }
            "--runs" => args.runs = it.next().and_then(|v| v.parse().ok()).expect("--runs N"),
            "--reuse" => args.reuse = true,
            other => panic!(
                "unknown option {other}; usage: list_bench [--vendors N] [--runs N] [--reuse]"
            ),
        }
    }
    args.url = match std::env::var("DATABASE_URL") {
        Ok(u) if u.starts_with("postgres") => {
            let mut url = url::Url::parse(&u).unwrap();
            url.set_path("/vendorwatch_list_bench");
            url.to_string()
        }
        _ => "sqlite://tmp/list_bench.sqlite?mode=rwc".into(),
    };
    args
}

/// The resident memory of this process, in MB.
fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

async fn boot(url: &str) -> BootResult {
    let mut config = App::load_config(&Environment::Test).await.unwrap();
    config.database.uri = url.to_string();
    config.database.enable_logging = false;
    App::boot(StartMode::ServerOnly, &Environment::Test, config)
        .await
        .unwrap()
}

/// One request through the router, as from a client on loopback; its status, total count
/// header and body.
async fn call(
    router: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, String, Vec<u8>) {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if body.is_some() {
        req = req.header(header::CONTENT_TYPE, "application/json");
    }
    let mut req = req
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let total = res
        .headers()
        .get("x-total-count")
        .map_or("-".into(), |v| v.to_str().unwrap().to_string());
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, total, bytes.to_vec())
}

async fn fresh_database(url: &str) {
    if url.starts_with("postgres") {
        let mut root = url::Url::parse(url).unwrap();
        let name = root.path().trim_start_matches('/').to_string();
        root.set_path("/postgres");
        let admin = sea_orm::Database::connect(root.as_str()).await.unwrap();
        for sql in [
            format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            format!("CREATE DATABASE {name}"),
        ] {
            admin.execute_unprepared(&sql).await.unwrap();
        }
    } else {
        std::fs::create_dir_all("tmp").unwrap();
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("tmp/list_bench.sqlite{suffix}"));
        }
    }
}

/// The child process's work: a fresh database, the account through the API, then the rows.
async fn seed_database(args: &Args) {
    fresh_database(&args.url).await;
    let boot = boot(&args.url).await;
    let router = boot.router.clone().unwrap();
    let (status, _, body) = call(&router, "POST", "/api/auth/register", None,
        Some(json!({"name": "Bench User", "email": EMAIL, "password": PASSWORD, "company": "Bench Co"}))).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&body)
    );
    let db = &boot.app_context.db;
    let org = organizations::Entity::find()
        .one(db)
        .await
        .unwrap()
        .unwrap();
    let started = Instant::now();
    let docs = seed::run(db, org.id, args.vendors).await.unwrap();
    if db.get_database_backend() == sea_orm::DbBackend::Postgres {
        db.execute_unprepared("VACUUM ANALYZE").await.unwrap();
    } else {
        db.execute_unprepared("ANALYZE").await.unwrap();
    }
    println!(
        "seeded 1 organization, {} vendors, {docs} documents in {:.1} s",
        args.vendors,
        started.elapsed().as_secs_f64()
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[tokio::main]
async fn main() {
    let args = args();
    if !args.reuse {
        // Seeding in a process of its own keeps its memory out of the measurement.
        if std::env::var("LIST_BENCH_SEED").is_ok() {
            seed_database(&args).await;
            return;
        }
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(std::env::args().skip(1))
            .env("LIST_BENCH_SEED", "1")
            .status()
            .unwrap();
        assert!(status.success(), "seeding failed");
    }
    let boot = boot(&args.url).await;
    let router = boot.router.clone().unwrap();
    let engine = match boot.app_context.db.get_database_backend() {
        sea_orm::DbBackend::Postgres => "PostgreSQL",
        _ => "SQLite",
    };
    let (status, _, body) = call(
        &router,
        "POST",
        "/api/auth/login",
        None,
        Some(json!({"email": EMAIL, "password": PASSWORD})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let token = serde_json::from_slice::<Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let idle = rss_mb();
    println!(
        "{engine}, {} vendors, median of {} runs (first run included in max)",
        args.vendors, args.runs
    );
    println!("| request | median ms | min ms | max ms | body bytes | X-Total-Count |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for path in PATHS {
        let mut times = vec![];
        let mut size = 0;
        let mut total = String::new();
        for _ in 0..args.runs {
            let started = Instant::now();
            let (status, count, body) = call(&router, "GET", path, Some(&token), None).await;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(status, StatusCode::OK, "{path}");
            if let Ok(dir) = std::env::var("LIST_BENCH_DUMP") {
                let name = path.replace(['/', '?', '='], "_");
                std::fs::write(format!("{dir}/{name}.json"), &body).unwrap();
            }
            (size, total) = (body.len(), count);
        }
        let (min, max) = (
            times.iter().copied().fold(f64::MAX, f64::min),
            times.iter().copied().fold(0.0, f64::max),
        );
        println!(
            "| `GET {path}` | {:.1} | {min:.1} | {max:.1} | {size} | {total} |",
            median(times)
        );
    }
    let after = rss_mb();
    std::thread::sleep(std::time::Duration::from_secs(5));
    let later = rss_mb();
    println!("\nRSS: idle {idle:.0} MB, after the requests {after:.0} MB, 5 s later {later:.0} MB");
}
