//! The built `vendorwatch-cli` as an operator runs it: `LOCO_ENV=production`, configured by
//! environment variables only. Its start is refused with a named variable when the
//! configuration is incomplete; a server logs JSON lines that carry the request id and the
//! caller's organization and never a password, token or company key; it answers metrics
//! scrapes on its own port; and it stops cleanly on SIGTERM.

use std::{
    collections::HashMap,
    net::TcpListener,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{json, Value};

pub(super) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A complete production environment of its own (`SQLite` database and queue, local files,
/// the outbox instead of SMTP) in `dir`.
pub(super) fn production_env(dir: &Path, port: u16) -> HashMap<&'static str, String> {
    let at = |name: &str| dir.join(name).display().to_string();
    HashMap::from([
        ("LOCO_ENV", "production".to_string()),
        (
            "LOCO_CONFIG_FOLDER",
            format!("{}/config", env!("CARGO_MANIFEST_DIR")),
        ),
        ("APP_URL", format!("http://127.0.0.1:{port}")),
        ("PORT", port.to_string()),
        ("BINDING", "127.0.0.1".to_string()),
        (
            "JWT_SECRET",
            "cHJvZHVjdGlvbi1zZWNyZXQtb2YtdGhpcy10ZXN0LW9ubHktMDEyMzQ1Njc4OQ==".to_string(),
        ),
        (
            "DATABASE_URL",
            format!("sqlite://{}?mode=rwc", at("app.sqlite")),
        ),
        ("QUEUE_KIND", "Sqlite".to_string()),
        (
            "QUEUE_URL",
            format!("sqlite://{}?mode=rwc", at("queue.sqlite")),
        ),
        ("SMTP_ENABLED", "false".to_string()),
        ("STORAGE_DIR", at("storage")),
        ("MAIL_OUTBOX_DIR", at("mail")),
        ("LOG_LEVEL", "info".to_string()),
    ])
}

/// `vendorwatch-cli <args>` in `dir` (its `assets/` is the built app's stand-in) with exactly
/// `env` (nothing inherited but PATH).
pub(super) fn cli(dir: &Path, env: &HashMap<&'static str, String>, args: &[&str]) -> Command {
    let assets = dir.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::write(
        assets.join("index.html"),
        "<!doctype html><title>Vendorwatch</title>",
    )
    .unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vendorwatch-cli"));
    cmd.args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env)
        .stdin(Stdio::null());
    cmd
}

/// `vendorwatch-cli start` in `dir` with `env`, its stdout and stderr in `dir/<log_name>`.
pub(super) fn spawn_server(
    dir: &Path,
    env: &HashMap<&'static str, String>,
    log_name: &str,
) -> std::process::Child {
    let log = std::fs::File::create(dir.join(log_name)).unwrap();
    cli(dir, env, &["start"])
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap()
}

fn refused_start(env: &HashMap<&'static str, String>, dir: &Path) -> String {
    let out = cli(dir, env, &["task"]).output().unwrap();
    assert!(
        !out.status.success(),
        "a production start with this configuration must fail:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[tokio::test]
async fn a_production_start_names_each_variable_missing_or_half_set() {
    let dir = tempfile::tempdir().unwrap();
    let good = production_env(dir.path(), free_port());

    // The complete configuration passes (`task` with no name boots the app, lists the tasks).
    let out = cli(dir.path(), &good, &["task"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let mut no_secret = good.clone();
    no_secret.remove("JWT_SECRET");
    assert!(refused_start(&no_secret, dir.path()).contains("JWT_SECRET is not set"));

    let mut bad = good.clone();
    bad.insert(
        "JWT_SECRET",
        "8a48a8c27ef51ec1c56302af3f8f4455a7ca614fce205974934ea04ca892483e".into(),
    );
    bad.insert("SMTP_ENABLED", "true".into());
    bad.insert("SMTP_HOST", "smtp.example.com".into());
    bad.insert("SMTP_USER", "mailer".into());
    bad.insert("STORAGE_KIND", "s3".into());
    bad.insert("S3_ACCESS_KEY_ID", "AKIAEXAMPLE".into());
    bad.insert("STRIPE_SECRET_KEY", "sk_live_example".into());
    bad.remove("APP_URL");
    let said = refused_start(&bad, dir.path());
    for variable in [
        "JWT_SECRET is the development default",
        "SMTP_PASSWORD is not set while SMTP_USER is",
        "S3_SECRET_ACCESS_KEY is not set",
        "STRIPE_WEBHOOK_SECRET is not set",
        "STRIPE_PROFESSIONAL_PRICE_ID is not set",
        "APP_URL must be",
    ] {
        assert!(
            said.contains(variable),
            "`{variable}` not named in:\n{said}"
        );
    }
    assert!(!said.contains("S3_ACCESS_KEY_ID is not set"), "{said}");

    let mut short = good.clone();
    short.insert("JWT_SECRET", "short-secret".into());
    assert!(refused_start(&short, dir.path()).contains("JWT_SECRET is too short"));
    // Loco reads it as base64: `-` is none, and every sign-in would fail.
    let mut not_base64 = good;
    not_base64.insert(
        "JWT_SECRET",
        "a-long-secret-that-is-not-base64-at-all-0123".into(),
    );
    assert!(refused_start(&not_base64, dir.path()).contains("JWT_SECRET is not base64"));
}

pub(super) async fn wait_until_up(client: &reqwest::Client, base: &str) {
    let started = Instant::now();
    while client.get(format!("{base}/_health")).send().await.is_err() {
        assert!(
            started.elapsed() < Duration::from_mins(1),
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn call(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    request_id: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, String, Value) {
    let mut req = client
        .request(method, url)
        .header("x-request-id", request_id);
    if let Some(token) = token {
        req = req.header("authorization", format!("Bearer {token}"));
    }
    if let Some(body) = body {
        req = req
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let echoed = res
        .headers()
        .get("x-request-id")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = serde_json::from_str(&res.text().await.unwrap()).unwrap_or(Value::Null);
    (status, echoed, body)
}

#[tokio::test]
async fn a_production_server_logs_json_by_request_serves_metrics_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let metrics_port = free_port();
    let mut env = production_env(dir.path(), port);
    env.insert("METRICS_LISTEN", format!("127.0.0.1:{metrics_port}"));
    let log_path = dir.path().join("server.log");
    let mut server = spawn_server(dir.path(), &env, "server.log");
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_until_up(&client, &base).await;

    let (token, made) = exercise(&client, &base).await;

    // Metrics on their own port (the public one does not serve them). The gauges are read
    // every 5 s: the queue's first reading may come after the first scrape.
    let scrape_url = format!("http://127.0.0.1:{metrics_port}/metrics");
    let started = Instant::now();
    let scrape = loop {
        let text = client
            .get(&scrape_url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if text.contains("queue_jobs_waiting") || started.elapsed() > Duration::from_secs(15) {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    for line in [
        r#"http_requests_total{method="POST",route="/api/auth/register",status="201"} 1"#,
        r#"http_requests_total{method="GET",route="/api/vendors",status="200"} 1"#,
        r#"http_requests_total{method="GET",route="/api/vendors/{id}",status="404"} 1"#,
        r#"http_request_duration_seconds_bucket{method="GET",route="/api/vendors",le="+Inf"} 1"#,
        "db_pool_connections_in_use ",
        "queue_jobs_waiting 0",
    ] {
        assert!(scrape.contains(line), "`{line}` not in:\n{scrape}");
    }
    let public = client.get(format!("{base}/metrics")).send().await.unwrap();
    assert!(!public.text().await.unwrap().contains("http_requests_total"));

    // SIGTERM: the server stops accepting and exits cleanly.
    let status = crate::support::process::terminate(&mut server, 30).await;
    assert!(status.success(), "exit on SIGTERM: {status}");

    check_logs(&std::fs::read_to_string(&log_path).unwrap(), &token, &made);
}

const PASSWORD: &str = "a-password-never-logged-4711";
const COMPANY_KEY: &str = "COMPANYKEYNEVERLOGGED";

/// Four calls with request ids of ours (201, 200, 404, 404) and one without; returns the
/// token and the id the server made.
async fn exercise(client: &reqwest::Client, base: &str) -> (String, String) {
    let (status, echoed, body) = call(
        client,
        reqwest::Method::POST,
        format!("{base}/api/auth/register"),
        "trace-register-1",
        None,
        Some(json!({"name": "Olga Ops", "email": "olga@example.com", "password": PASSWORD})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(echoed, "trace-register-1");
    let token = body["token"].as_str().unwrap().to_string();

    let (status, _, _) = call(
        client,
        reqwest::Method::GET,
        format!("{base}/api/vendors"),
        "trace-list-2",
        Some(&token),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let (status, _, _) = call(
        client,
        reqwest::Method::GET,
        format!("{base}/api/vendors/no-such-vendor"),
        "trace-missing-3",
        Some(&token),
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _, _) = call(
        client,
        reqwest::Method::GET,
        format!("{base}/api/validate-company-key?key={COMPANY_KEY}"),
        "trace-key-4",
        None,
        None,
    )
    .await;
    assert_eq!(status, 404);
    // No id sent: one is made and echoed.
    let res = client.get(format!("{base}/_ping")).send().await.unwrap();
    let made = res.headers()["x-request-id"].to_str().unwrap().to_string();
    assert!(made.len() >= 16, "{made}");

    (token, made)
}

/// The server's log: JSON lines, the request id and caller on each request's lines, no secret,
/// no ERROR.
fn check_logs(text: &str, token: &str, made: &str) {
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(!lines.is_empty(), "no JSON log lines:\n{text}");
    let finished = |request_id: &str| {
        lines
            .iter()
            .find(|l| {
                l["fields"]["message"] == "request finished"
                    && l["span"]["request_id"] == request_id
            })
            .unwrap_or_else(|| panic!("no `request finished` line of {request_id}:\n{text}"))
            .clone()
    };
    let register = finished("trace-register-1");
    assert_eq!(register["span"]["route"], "/api/auth/register");
    assert_eq!(register["fields"]["status"], 201);
    let list = finished("trace-list-2");
    assert!(list["span"]["org_id"].is_number(), "{list}");
    assert!(list["span"]["user_id"].is_number(), "{list}");
    let missing = finished("trace-missing-3");
    assert_eq!(missing["fields"]["status"], 404);
    let key = finished("trace-key-4");
    assert_eq!(key["span"]["path"], "/api/validate-company-key");
    finished(made);
    for secret in [PASSWORD, token, COMPANY_KEY] {
        assert!(!text.contains(secret), "`{secret}` was logged:\n{text}");
    }
    // A 404 or a 401 is the client's, not an error of ours.
    let errors: Vec<&Value> = lines.iter().filter(|l| l["level"] == "ERROR").collect();
    assert!(errors.is_empty(), "ERROR lines: {errors:?}");
}

/// Four processes started at once against a new `PostgreSQL` database: the migrations run
/// once, under a lock, and every process comes up (without it, all but one died on a
/// duplicate key of the tables the first created).
#[tokio::test]
async fn servers_and_workers_started_at_once_on_a_new_database_all_come_up() {
    let Some(base) = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
    else {
        eprintln!("the concurrent migration test runs in the PostgreSQL run of the suite");
        return;
    };
    let name = format!("vw_migrate_{}", uuid::Uuid::new_v4().simple());
    let admin = sea_orm::Database::connect(&base).await.unwrap();
    let exec = |sql: String| {
        let admin = admin.clone();
        async move {
            sea_orm::ConnectionTrait::execute_unprepared(&admin, &sql)
                .await
                .unwrap();
        }
    };
    exec(format!("CREATE DATABASE {name}")).await;
    let mut url = url::Url::parse(&base).unwrap();
    url.set_path(&format!("/{name}"));

    let dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    let mut children = Vec::new();
    let mut bases = Vec::new();
    for n in 0..4 {
        let port = free_port();
        let mut env = production_env(dir.path(), port);
        env.insert("DATABASE_URL", url.to_string());
        children.push(spawn_server(dir.path(), &env, &format!("server-{n}.log")));
        bases.push(format!("http://127.0.0.1:{port}"));
    }
    for (n, base) in bases.iter().enumerate() {
        let started = Instant::now();
        loop {
            if let Ok(res) = client.get(format!("{base}/_readiness")).send().await {
                assert_eq!(res.status().as_u16(), 200);
                break;
            }
            if let Some(status) = children[n].try_wait().unwrap() {
                let log = std::fs::read_to_string(dir.path().join(format!("server-{n}.log")));
                panic!("process {n} exited ({status}): {}", log.unwrap_or_default());
            }
            assert!(
                started.elapsed() < Duration::from_mins(1),
                "process {n} not up"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    for mut child in children {
        let _ = child.kill();
        let _ = child.wait();
    }
    exec(format!("DROP DATABASE {name} WITH (FORCE)")).await;
}

/// `config/production.yaml` as it is: its static middleware sets `no-cache` on every file it
/// serves, which left the built assets revalidated on every visit. They are kept a year (their
/// 304s too), the app's pages and a missing asset's fallback page are revalidated.
#[tokio::test]
async fn a_production_server_keeps_built_assets_a_year_and_revalidates_pages() {
    const ASSET: &str = "/assets/app-3f9a1c0d.js";
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("assets/assets");
    std::fs::create_dir_all(&built).unwrap();
    std::fs::write(built.join("app-3f9a1c0d.js"), "console.log('built');").unwrap();
    let port = free_port();
    let env = production_env(dir.path(), port);
    let mut server = spawn_server(dir.path(), &env, "server.log");
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_until_up(&client, &base).await;

    let cache_control = |res: &reqwest::Response| {
        res.headers()
            .get("cache-control")
            .map(|v| v.to_str().unwrap().to_string())
    };
    let asset = client.get(format!("{base}{ASSET}")).send().await.unwrap();
    assert_eq!(asset.status().as_u16(), 200);
    assert_eq!(
        cache_control(&asset).as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    assert!(asset.headers()["vary"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase()
        .contains("accept-encoding"));
    let modified = asset.headers()["last-modified"].clone();
    let again = client
        .get(format!("{base}{ASSET}"))
        .header("if-modified-since", modified)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
    assert_eq!(
        cache_control(&again).as_deref(),
        Some("public, max-age=31536000, immutable"),
        "a 304's headers replace the stored ones"
    );

    for path in ["/", "/dashboard", "/vendors/abc", "/assets/app-missing0.js"] {
        let page = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(page.status().as_u16(), 200, "{path}");
        assert_eq!(cache_control(&page).as_deref(), Some("no-cache"), "{path}");
    }

    let status = crate::support::process::terminate(&mut server, 30).await;
    assert!(status.success(), "exit on SIGTERM: {status}");
}
