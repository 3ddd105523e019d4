//! Benchmark of the keyword ingest: `--rows N` keyword rows (100,000 by default, a tenth of
//! them repeats of others in another case) uploaded as the admin screen does (calls of at most
//! 20,000 rows to `POST /api/admin/keywords/upload`, through the app's router in-process), then
//! ingested through the embedded `SQLite` queue by `--workers W` in-process queue workers (4 by
//! default, as `config/development.yaml` runs them; the production Redis queue when
//! `QUEUE_URL=redis://…/db`). The workers run from the start, as a worker process does. Reports the time to accept the uploads, the time until every chunk is done, and
//! rows a second; then checks the count is the number of distinct keywords. On `SQLite` by
//! default; `DATABASE_URL=postgres://…/db` for `PostgreSQL` (an empty database: it is migrated).
//! (A measurement, not a test: scripts/test does not run it.) Results:
//! docs/benchmarks/keywords.md.
//!
//! ```sh
//! cargo run --release --example keyword_bench
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/vw_bench cargo run --release --example keyword_bench
//! ```

#![allow(clippy::cast_precision_loss)]

use std::{net::SocketAddr, time::Instant};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, Request},
};
use loco_rs::{
    app::Hooks,
    boot::StartMode,
    config::{QueueConfig, RedisQueueConfig, SqliteQueueConfig, WorkerMode},
    environment::Environment,
};
use sea_orm::{ActiveModelTrait, ActiveValue, EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use tower::ServiceExt;
use vendorwatch::{
    app::App,
    models::{
        _entities::{keyword_ingests, keywords},
        users,
    },
};

const PRIORITIES: [&str; 3] = ["high", "medium", "low"];

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rows(total: usize) -> (Vec<Value>, usize) {
    let distinct = total - total / 10;
    let mut rows: Vec<Value> = (0..distinct)
        .map(|i| {
            json!({"keyword": format!("bench keyword {i}"), "searchVolume": i % 5000,
                "difficulty": i % 100 + 1, "priority": PRIORITIES[i % 3],
                "category": "Vendor Management"})
        })
        .collect();
    rows.extend((0..total / 10).map(|i| json!({"keyword": format!(" BENCH Keyword {} ", i * 3)})));
    (rows, distinct)
}

/// The production queue (a Redis database of the benchmark's own, emptied first) when
/// `QUEUE_URL` is a Redis URL; else the embedded `SQLite` queue in `work`.
async fn queue_config(redis: Option<&str>, work: &std::path::Path, workers: usize) -> QueueConfig {
    let num_workers = u32::try_from(workers).unwrap_or(2);
    if let Some(uri) = redis {
        let client = redis::Client::open(uri).unwrap();
        let mut conn = client.get_multiplexed_async_connection().await.unwrap();
        let () = redis::cmd("FLUSHDB").query_async(&mut conn).await.unwrap();
        return QueueConfig::Redis(RedisQueueConfig {
            uri: uri.to_string(),
            dangerously_flush: false,
            queues: None,
            num_workers,
            reaper: None,
        });
    }
    QueueConfig::Sqlite(SqliteQueueConfig {
        uri: format!("sqlite://{}/queue.sqlite?mode=rwc", work.display()),
        dangerously_flush: false,
        enable_logging: false,
        max_connections: 4,
        min_connections: 1,
        connect_timeout: 5_000,
        idle_timeout: 10_000,
        poll_interval_sec: 1,
        num_workers,
        reaper: None,
    })
}

#[tokio::main]
async fn main() {
    let total = arg("--rows", 100_000);
    let workers = arg("--workers", 4);
    let work = tempfile::tempdir().unwrap();
    let mut config = App::load_config(&Environment::Test).await.unwrap();
    let on_pg = std::env::var("DATABASE_URL").is_ok_and(|u| u.starts_with("postgres"));
    if !on_pg {
        config.database.uri = format!("sqlite://{}/bench.sqlite?mode=rwc", work.path().display());
    }
    config.database.enable_logging = false;
    config.database.max_connections = 10;
    config.workers.mode = WorkerMode::BackgroundQueue;
    let redis_queue = std::env::var("QUEUE_URL")
        .ok()
        .filter(|u| u.starts_with("redis"));
    config.queue = Some(queue_config(redis_queue.as_deref(), work.path(), workers).await);
    let boot = App::boot(StartMode::ServerAndWorker, &Environment::Test, config)
        .await
        .unwrap();
    let ctx = boot.app_context.clone();
    let router = boot.router.clone().unwrap();

    let params = users::RegisterParams {
        name: "Bench Admin".into(),
        email: format!("bench-{}@example.com", uuid::Uuid::new_v4().simple()),
        password: "bench-password".into(),
        company: None,
        time_zone: None,
    };
    let (user, _) = users::Model::register(&ctx.db, &params).await.unwrap();
    let mut admin: users::ActiveModel = user.clone().into();
    admin.role = ActiveValue::Set("admin".into());
    let user = admin.update(&ctx.db).await.unwrap();
    let jwt = ctx.config.get_jwt_config().unwrap();
    let token = user.generate_jwt(&jwt.secret, jwt.expiration).unwrap();

    let (all, distinct) = rows(total);
    // The workers run while the uploads arrive, as a worker process does (it is always up).
    let queue = ctx.queue_provider.clone().unwrap();
    let runner = tokio::spawn({
        let queue = queue.clone();
        async move { queue.run(vec![]).await }
    });
    let started = Instant::now();
    for part in all.chunks(20_000) {
        let mut req = Request::builder()
            .method("POST")
            .uri("/api/admin/keywords/upload")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(json!({"keywordData": part}).to_string()))
            .unwrap();
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 9))));
        let res = router.clone().oneshot(req).await.unwrap();
        assert_eq!(
            res.status(),
            202,
            "the upload of {} rows is accepted",
            part.len()
        );
    }
    let accepted = started.elapsed();

    loop {
        let all = keyword_ingests::Entity::find().all(&ctx.db).await.unwrap();
        if all.iter().all(|i| i.chunks_done >= i.chunks) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let done = started.elapsed();
    queue.shutdown().unwrap();
    runner.abort();

    let count = keywords::Entity::find().count(&ctx.db).await.unwrap();
    assert_eq!(count, distinct as u64, "every distinct keyword, once");
    let db = if on_pg { "PostgreSQL" } else { "SQLite" };
    let queue_kind = if redis_queue.is_some() {
        "Redis"
    } else {
        "embedded (SQLite, WAL)"
    };
    println!("database: {db}; queue: {queue_kind}, {workers} workers in-process");
    println!("rows: {total} ({distinct} distinct), chunks of 100");
    println!(
        "uploads accepted (checked, stored, queued): {:.2} s",
        accepted.as_secs_f64()
    );
    println!("all chunks ingested: {:.2} s", done.as_secs_f64());
    println!("rows per second: {:.0}", total as f64 / done.as_secs_f64());
}
