//! Benchmark of the documents archive (`POST /api/documents/archive`): does its memory stay
//! flat however large the ZIP? (A measurement, not a test: scripts/test does not run it.)
//! Seeds one Professional organization with `--files N` documents of `--size-mb M` megabytes
//! (200 of 1 MB by default) in local storage, boots the app's router in-process, asks for the
//! ZIP of all of them and reads the answer chunk by chunk, as a client would. It reports the
//! archive's size, the time, and the process's peak resident memory (`VmHWM`, reset just
//! before the request through `/proc/self/clear_refs`) against the resident memory before.
//! It then opens the archive it received and checks it holds exactly the files selected.
//! Results: docs/benchmarks/archive.md.
//!
//! ```sh
//! cargo run --release --example zip_bench
//! cargo run --release --example zip_bench -- --files 50 --size-mb 4
//! ```

// Sizes are shown in MB with one decimal: a float of a byte count is exact enough.
#![allow(clippy::cast_precision_loss)]

use std::{io::Write, net::SocketAddr, path::Path, time::Instant};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, Request},
};
use bytes::Bytes;
use futures_util::StreamExt;
use loco_rs::{app::Hooks, boot::StartMode, environment::Environment};
use sea_orm::IntoActiveModel;
use serde_json::json;
use tower::ServiceExt;
use vendorwatch::{
    app::App,
    models::{
        compliance::DocumentType,
        documents::{self, DocumentInfo, DocumentSource, StoredFile, UploadContext},
        organizations::Plan,
        users,
        vendors::{self, PlanLimit, VendorFields},
    },
};

fn kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let (files, size_mb) = (arg("--files", 200), arg("--size-mb", 1));
    let work = tempfile::tempdir().unwrap();
    let mut config = App::load_config(&Environment::Test).await.unwrap();
    config.database.uri = format!("sqlite://{}/bench.sqlite?mode=rwc", work.path().display());
    config.database.enable_logging = false;
    let settings = config.settings.get_or_insert_with(|| json!({}));
    settings["storage"] = json!({"kind": "local", "local_dir": work.path().join("storage")});
    let boot = App::boot(StartMode::ServerOnly, &Environment::Test, config)
        .await
        .unwrap();
    let ctx = &boot.app_context;

    let (token, ids) = seed(ctx, files, size_mb).await;
    let router = boot.router.clone().unwrap();
    let request = || {
        let mut req = Request::builder()
            .method("POST")
            .uri("/api/documents/archive")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(json!({ "ids": ids }).to_string()))
            .unwrap();
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
        req
    };

    let rss_before = kib("VmRSS:");
    std::fs::write("/proc/self/clear_refs", "5").expect("resetting the peak needs Linux");
    let started = Instant::now();
    let res = router.clone().oneshot(request()).await.unwrap();
    assert_eq!(res.status(), 200);
    let zip_path = work.path().join("archive.zip");
    let mut out = std::fs::File::create(&zip_path).unwrap();
    let mut stream = res.into_body().into_data_stream();
    let mut total: u64 = 0;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.unwrap();
        total += chunk.len() as u64;
        out.write_all(&chunk).unwrap();
    }
    drop(out);
    let elapsed = started.elapsed();
    let peak = kib("VmHWM:");

    // The same answer held whole by the reader, to show what the measure sees when a copy of
    // the archive is in memory (the control of this benchmark).
    let rss_whole = kib("VmRSS:");
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let res = router.oneshot(request()).await.unwrap();
    let whole = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    let peak_whole = kib("VmHWM:");
    assert_eq!(whole.len() as u64, total);
    drop(whole);

    let archive = zip::ZipArchive::new(std::fs::File::open(&zip_path).unwrap()).unwrap();
    assert_eq!(
        archive.len() as u64,
        files,
        "one entry per selected document"
    );
    println!(
        "files: {files} x {size_mb} MB; archive: {:.1} MB in {:.2} s",
        total as f64 / 1_048_576.0,
        elapsed.as_secs_f64()
    );
    println!(
        "resident before: {:.1} MB; peak during the request: {:.1} MB; growth: {:.1} MB",
        rss_before as f64 / 1024.0,
        peak as f64 / 1024.0,
        peak.saturating_sub(rss_before) as f64 / 1024.0
    );
    println!(
        "control, the answer held whole: growth {:.1} MB ({:.0}x the streamed growth)",
        peak_whole.saturating_sub(rss_whole) as f64 / 1024.0,
        peak_whole.saturating_sub(rss_whole) as f64 / peak.saturating_sub(rss_before).max(1) as f64
    );
}

/// One Professional organization with `files` documents of `size_mb` MB; its owner's token and
/// the documents' ids.
async fn seed(ctx: &loco_rs::app::AppContext, files: u64, size_mb: u64) -> (String, Vec<String>) {
    let params = users::RegisterParams {
        name: "Bench Owner".into(),
        email: "bench@example.com".into(),
        password: "bench-password".into(),
        company: Some("Bench Co".into()),
        time_zone: None,
    };
    let (user, org) = users::Model::register(&ctx.db, &params).await.unwrap();
    let org = org
        .into_active_model()
        .set_plan(&ctx.db, Plan::Professional)
        .await
        .unwrap();
    let limit = PlanLimit {
        vendors: 100,
        message: String::new(),
    };
    let form = VendorFields {
        name: "Bench Vendor".into(),
        email: "vendor@example.com".into(),
        service_type: "plumbing".into(),
        ..Default::default()
    }
    .validate()
    .unwrap();
    let vendor = vendors::Model::create(
        &ctx.db,
        org.id,
        &limit,
        &form,
        &vendorwatch::models::activities::Actor::system(),
    )
    .await
    .unwrap();
    let rules = UploadContext {
        org: &org,
        documents_per_vendor: None,
        reminder_offsets: &[],
        source: DocumentSource::User,
        actor: &vendorwatch::models::activities::Actor::system(),
    };
    let info = DocumentInfo {
        document_type: DocumentType::Other,
        coi_type: None,
        expiration_date: None,
        notes: None,
    };
    let size = usize::try_from(size_mb).unwrap() * 1024 * 1024;
    let mut ids = Vec::new();
    for i in 0..files {
        let mut content = b"%PDF-1.4\n".to_vec();
        content.resize(size - 6, b'x' ^ u8::try_from(i % 7).unwrap());
        content.extend_from_slice(b"%%EOF\n");
        let key = format!("documents/bench/{i}.pdf");
        ctx.storage
            .upload(Path::new(&key), &Bytes::from(content))
            .await
            .unwrap();
        let stored = StoredFile {
            file_name: format!("certificate-{i}.pdf"),
            storage_key: key,
            content_type: "application/pdf".into(),
            size: size as u64,
        };
        let doc = documents::Model::create(&ctx.db, &rules, &vendor, &info, &stored)
            .await
            .unwrap();
        ids.push(doc.pid.to_string());
    }
    let jwt = ctx.config.get_jwt_config().unwrap();
    let token = user.generate_jwt(&jwt.secret, jwt.expiration).unwrap();
    (token, ids)
}
