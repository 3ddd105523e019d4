//! Benchmark of the vendor import's preview (a measurement, not a test: scripts/test does not
//! run it; results in docs/benchmarks/imports.md). It boots the app's router in-process on a
//! fresh `SQLite` file (no socket) and sends `POST /api/vendors/import` as the dialog does: a
//! multipart body with a `QuickBooks`-style file of 5,000 vendors (title rows, quoted cells,
//! CRLF, a footer), through the whole router (auth, middlewares, JSON). It times, `--runs`
//! times each (7 by default), the median of:
//!
//! 1. the preview of 5,000 rows for an organization with no vendors;
//! 2. the same preview once the organization has 5,000 other vendors (every row checked for a
//!    duplicate against them);
//! 3. the reading and checking alone (`vendor_import::file::read` and `plan`, no database, no
//!    HTTP), to see what share of the request they are;
//!
//! and, once, the commit of 5,000 rows.
//!
//! ```sh
//! cargo run --release --example import_bench
//! ```

// Sizes in KB with one decimal: a float of a byte count is exact enough.
#![allow(clippy::cast_precision_loss)]

#[path = "list_bench/harness.rs"]
#[allow(dead_code)]
mod harness;

use std::{fmt::Write, net::SocketAddr, time::Instant};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, Request, StatusCode},
    Router,
};
use loco_rs::{app::Hooks, boot::StartMode, environment::Environment};
use serde_json::Value;
use tower::ServiceExt;
use vendorwatch::{
    app::App,
    models::{
        vendor_import::{self, Existing, ImportChoices, SetNames},
        vendors::PlanLimit,
    },
};

const URL: &str = "sqlite://tmp/import_bench.sqlite?mode=rwc";
const ROWS: usize = 5_000;

/// A `QuickBooks` Online "Vendor Contact List" of `rows` vendors, numbered from `from`.
fn quickbooks(from: usize, rows: usize) -> Vec<u8> {
    let mut text = String::from(
        "\"Craig's Design and Landscaping Services\"\r\n\"Vendor Contact List\"\r\n\r\n\
         \"Vendor\",\"Phone Numbers\",\"Email\",\"Full Name\",\"Billing Address\",\"Account #\",\"Service Type\"\r\n",
    );
    for i in from..from + rows {
        let _ = write!(
            text,
            "\"Vendor {i} Cleaning & Co\",\"(650) 555-{:04}\",\"vendor{i}@example.com\",\"Person {i}\",\"{i} Main St., Palo Alto, CA  94303\",\"{i}\",\"{}\"\r\n",
            i % 10_000,
            ["Cleaning", "HVAC", "General Contractor", "plumbing"][i % 4]
        );
    }
    text.push_str("\r\n\"Friday, Nov 27, 2026 06:22:54 AM GMT-8\"\r\n");
    text.into_bytes()
}

fn multipart(file: &[u8], commit: bool) -> (String, Vec<u8>) {
    let boundary = "----vendorwatchbench";
    let mut body = Vec::new();
    body.extend(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"commit\"\r\n\r\n{commit}\r\n"
        )
        .as_bytes(),
    );
    body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"vendors.csv\"\r\nContent-Type: text/csv\r\n\r\n").as_bytes());
    body.extend(file);
    body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn import(router: &Router, token: &str, file: &[u8], commit: bool) -> (f64, Value) {
    let (content_type, body) = multipart(file, commit);
    let mut req = Request::builder()
        .method("POST")
        .uri("/api/vendors/import")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    let started = Instant::now();
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(500)])
    );
    (ms, serde_json::from_slice(&bytes).unwrap())
}

fn runs() -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(7)
}

#[tokio::main]
async fn main() {
    harness::fresh_database(URL).await;
    let mut config = harness::config(URL).await;
    // Room for every row: the plan's limit is not what is measured.
    if let Some(plans) = config.settings.as_mut().and_then(|s| s.get_mut("plans")) {
        plans["free"]["vendor_limit"] = serde_json::json!(100_000);
    }
    let boot = App::boot(StartMode::ServerOnly, &Environment::Test, config)
        .await
        .unwrap();
    let router = boot.router.clone().unwrap();
    harness::register(&router).await;
    let token = harness::login(&router).await;
    let runs = runs();
    let file = quickbooks(0, ROWS);
    println!("file: {ROWS} rows, {:.1} KB", file.len() as f64 / 1024.0);

    let mut empty = Vec::new();
    for _ in 0..runs {
        let (ms, body) = import(&router, &token, &file, false).await;
        assert_eq!(body["wouldCreate"], ROWS);
        empty.push(ms);
    }
    let (commit_ms, body) = import(&router, &token, &quickbooks(ROWS, ROWS), true).await;
    assert_eq!(body["created"], ROWS);
    let mut full = Vec::new();
    for _ in 0..runs {
        let (ms, body) = import(&router, &token, &file, false).await;
        assert_eq!(body["wouldCreate"], ROWS);
        full.push(ms);
    }
    let limit = PlanLimit {
        vendors: 100_000,
        message: String::new(),
    };
    let existing = Existing {
        emails: (ROWS..2 * ROWS)
            .map(|i| format!("vendor{i}@example.com"))
            .collect(),
        names: (ROWS..2 * ROWS)
            .map(|i| format!("vendor {i} cleaning & co"))
            .collect(),
    };
    let mut alone = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let table = vendor_import::file::read(&file).unwrap();
        let plan = vendor_import::plan(
            &table,
            &ImportChoices::default(),
            &existing,
            (ROWS as u64, 100_000),
            &limit,
            &SetNames::of(&[]),
        )
        .unwrap();
        assert_eq!(plan.to_create.len(), ROWS);
        alone.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (empty, full, alone) = (
        harness::median(empty),
        harness::median(full),
        harness::median(alone),
    );
    println!("preview of {ROWS} rows, no vendors yet:        {empty:8.1} ms (median of {runs})");
    println!("preview of {ROWS} rows, {ROWS} vendors there:    {full:8.1} ms (median of {runs})");
    println!(
        "reading and checking alone (no HTTP, no DB): {alone:8.1} ms ({:.0}% of the preview)",
        alone / full * 100.0
    );
    println!("commit of {ROWS} rows (once):                 {commit_ms:8.1} ms");
    println!(
        "target: a preview under 1000 ms: {:.2}x under it",
        1000.0 / full
    );
}
