//! What both measurements share: the app booted in-process on the bench database, one request
//! through the whole router, a fresh database, seeding in a child process, and the timing of a
//! set of requests.

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
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend};
use serde_json::{json, Value};
use tower::ServiceExt;
use vendorwatch::app::App;

pub const EMAIL: &str = "bench@example.com";
pub const PASSWORD: &str = "bench-password";
/// The child process's work, when set: which database to seed.
pub const SEED_VAR: &str = "LIST_BENCH_SEED";

/// The test configuration on the bench database, without statement logging, and without the
/// answers kept per organization (`answer_cache_mb: 0`): every timed request runs its queries,
/// which is what the bench compares.
pub async fn config(url: &str) -> loco_rs::config::Config {
    let mut config = App::load_config(&Environment::Test).await.unwrap();
    config.database.uri = url.to_string();
    config.database.enable_logging = false;
    if let Some(settings) = config.settings.as_mut().and_then(|s| s.as_object_mut()) {
        settings.insert("answer_cache_mb".to_string(), serde_json::json!(0));
    }
    config
}

pub async fn boot(url: &str) -> BootResult {
    App::boot(StartMode::ServerOnly, &Environment::Test, config(url).await)
        .await
        .unwrap()
}

pub fn engine(db: &DatabaseConnection) -> &'static str {
    match db.get_database_backend() {
        DbBackend::Postgres => "PostgreSQL",
        _ => "SQLite",
    }
}

/// One request through the router, as from a client on loopback; its status, total count
/// header and body.
pub async fn call(
    router: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, String, Vec<u8>) {
    let res = router
        .clone()
        .oneshot(request(method, path, token, body))
        .await
        .unwrap();
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

/// A request as from a client on loopback, with the bearer token and a JSON body if given.
fn request(method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Request<Body> {
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
    req
}

/// Signs up the bench account (its organization and owner, through the API).
pub async fn register(router: &Router) {
    let (status, _, body) = call(router, "POST", "/api/auth/register", None,
        Some(json!({"name": "Bench User", "email": EMAIL, "password": PASSWORD, "company": "Bench Co"}))).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&body)
    );
}

/// Signs in the bench account; its bearer token.
pub async fn login(router: &Router) -> String {
    let (status, _, body) = call(
        router,
        "POST",
        "/api/auth/login",
        None,
        Some(json!({"email": EMAIL, "password": PASSWORD})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    serde_json::from_slice::<Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The `SQLite` file of a `sqlite://path?mode=rwc` address.
pub fn sqlite_path(url: &str) -> &str {
    let path = url.trim_start_matches("sqlite://");
    path.split('?').next().unwrap_or(path)
}

/// Drops and creates the bench database (`PostgreSQL`), or deletes its file (`SQLite`).
pub async fn fresh_database(url: &str) {
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
        let path = sqlite_path(url);
        if let Some(dir) = std::path::Path::new(path).parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    }
}

/// Fresh planner statistics after seeding, and nothing left for the measurement to write
/// back: `VACUUM ANALYZE` and a checkpoint on `PostgreSQL`, `ANALYZE` and the write-ahead log
/// folded into the file on `SQLite`.
pub async fn settle(db: &DatabaseConnection) {
    if db.get_database_backend() == DbBackend::Postgres {
        db.execute_unprepared("VACUUM ANALYZE").await.unwrap();
        // Needs a superuser (or pg_checkpoint); without one the server checkpoints in its time.
        if let Err(e) = db.execute_unprepared("CHECKPOINT").await {
            println!("(no CHECKPOINT: {e})");
        }
    } else {
        db.execute_unprepared("ANALYZE").await.unwrap();
        db.execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)")
            .await
            .unwrap();
    }
}

/// Runs this program again with `SEED_VAR=what` (and the same options), and waits for it:
/// seeding in a process of its own keeps its memory and caches out of the measurement.
pub fn seed_in_child(what: &str) {
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(std::env::args().skip(1))
        .env(SEED_VAR, what)
        .status()
        .unwrap();
    assert!(status.success(), "seeding ({what}) failed");
}

/// The resident memory of this process, in MB.
pub fn rss_mb() -> f64 {
    memory_mb().0
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `runs` timings of one request, and its last answer.
pub struct Timing {
    pub path: &'static str,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub total: String,
    pub body: Vec<u8>,
}

/// Times each of `paths` `runs` times in a row (the first run, on cold caches, included), each
/// answer a 200. `LIST_BENCH_DUMP=dir` writes each answer's body there.
pub async fn time_paths(
    router: &Router,
    token: &str,
    paths: &[&'static str],
    runs: usize,
) -> Vec<Timing> {
    let mut timings = vec![];
    for &path in paths {
        let mut times = vec![];
        let mut last = (String::new(), vec![]);
        for _ in 0..runs {
            let started = Instant::now();
            let (status, total, body) = call(router, "GET", path, Some(token), None).await;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(status, StatusCode::OK, "{path}");
            if let Ok(dir) = std::env::var("LIST_BENCH_DUMP") {
                let name = path.replace(['/', '?', '='], "_");
                std::fs::write(format!("{dir}/{name}.json"), &body).unwrap();
            }
            last = (total, body);
        }
        timings.push(Timing {
            path,
            min: times.iter().copied().fold(f64::MAX, f64::min),
            max: times.iter().copied().fold(0.0, f64::max),
            median: median(times),
            total: last.0,
            body: last.1,
        });
    }
    timings
}

/// The timings as a Markdown table.
pub fn print_timings(timings: &[Timing]) {
    println!("| request | median ms | min ms | max ms | body bytes | X-Total-Count |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for t in timings {
        println!(
            "| `GET {}` | {:.1} | {:.1} | {:.1} | {} | {} |",
            t.path,
            t.median,
            t.min,
            t.max,
            t.body.len(),
            t.total
        );
    }
}

/// One request's time to its first body bytes and to its last, and its size.
pub struct Streamed {
    pub path: &'static str,
    pub first_byte_ms: f64,
    pub total_ms: f64,
    pub bytes: usize,
}

/// Each of `paths` `runs` times, timed to the first frame of its body and to its end; the
/// medians of each.
pub async fn time_first_bytes(
    router: &Router,
    token: &str,
    paths: &[&'static str],
    runs: usize,
) -> Vec<Streamed> {
    use futures_util::StreamExt;
    let mut out = vec![];
    for &path in paths {
        let (mut first, mut whole, mut bytes) = (vec![], vec![], 0);
        for _ in 0..runs {
            let req = request("GET", path, Some(token), None);
            let started = Instant::now();
            let res = router.clone().oneshot(req).await.unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{path}");
            let mut body = res.into_body().into_data_stream();
            let mut n = 0;
            let mut first_at = None;
            while let Some(data) = body.next().await {
                let data = data.unwrap();
                if !data.is_empty() {
                    first_at.get_or_insert_with(|| started.elapsed());
                    n += data.len();
                }
            }
            first.push(first_at.unwrap_or_else(|| started.elapsed()).as_secs_f64() * 1000.0);
            whole.push(started.elapsed().as_secs_f64() * 1000.0);
            bytes = n;
        }
        out.push(Streamed {
            path,
            first_byte_ms: median(first),
            total_ms: median(whole),
            bytes,
        });
    }
    out
}

/// The resident set's parts, in MB: (`VmRSS`, `RssAnon`, `RssFile`, `VmHWM`).
pub fn memory_mb() -> (f64, f64, f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| -> f64 {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (
        field("VmRSS:"),
        field("RssAnon:"),
        field("RssFile:"),
        field("VmHWM:"),
    )
}
