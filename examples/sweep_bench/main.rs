//! Benchmark of the daily reminder sweep's database work (a measurement, not a test: it is not
//! run by scripts/test). Seeds about a million documents with their reminders, then times,
//! through the product's own code (`sweep::claim_all_due`, `sweep::record_expired_documents`),
//! the sweep of one day and a 30-day catch-up: selecting and claiming the due reminders, and
//! recording `document_expired`. Sending mail is not part of it.
//!
//! ```sh
//! cargo run --release --example sweep_bench -- --db postgres --documents 1000000
//! cargo run --release --example sweep_bench -- --db sqlite --documents 1000000
//! ```
//!
//! Options: `--url` (default: database `vendorwatch_bench` on the local `PostgreSQL`, or
//! `tmp/sweep_bench.sqlite`; it is dropped and recreated), `--runs` (5), `--batch` (5000, the
//! `settings.reminders.batch_size` default), `--reuse` (measure again on the database an earlier
//! run seeded), `--no-checkpoint` (no `CHECKPOINT` before each timed run on `PostgreSQL`). Results: docs/benchmarks/reminder-sweep.md.

mod measure;
mod seed;

use std::{sync::atomic::Ordering, time::Instant};

use chrono::{Duration, NaiveDate};
use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectionTrait, DatabaseConnection};

struct Args {
    postgres: bool,
    documents: u64,
    url: String,
    runs: usize,
    batch: u64,
    /// Keep the database seeded by an earlier run (same `--documents`).
    reuse: bool,
}

impl Args {
    fn parse() -> Result<Self, String> {
        let mut args = std::env::args().skip(1);
        let (mut postgres, mut documents, mut url, mut runs, mut batch) =
            (false, 1_000_000, None, 5, 5000);
        let mut reuse = false;
        while let Some(flag) = args.next() {
            let mut value = || args.next().ok_or(format!("{flag} needs a value"));
            match flag.as_str() {
                "--reuse" => reuse = true,
                "--no-checkpoint" => measure::NO_CHECKPOINT.store(true, Ordering::Relaxed),
                "--db" => postgres = matches!(value()?.as_str(), "postgres" | "postgresql" | "pg"),
                "--documents" => {
                    documents = value()?.parse().map_err(|e| format!("--documents: {e}"))?;
                }
                "--url" => url = Some(value()?),
                "--runs" => runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?,
                "--batch" => batch = value()?.parse().map_err(|e| format!("--batch: {e}"))?,
                other => return Err(format!("unknown option {other}")),
            }
        }
        let url = url.unwrap_or_else(|| {
            if postgres {
                "postgres://postgres@127.0.0.1:5432/vendorwatch_bench".into()
            } else {
                "sqlite://tmp/sweep_bench.sqlite?mode=rwc".into()
            }
        });
        Ok(Self {
            postgres,
            documents,
            url,
            runs,
            batch,
            reuse,
        })
    }
}

/// A fresh, migrated database at `url`, connected the way the app connects (Loco's pragmas
/// for `SQLite`).
async fn fresh_database(args: &Args) -> DatabaseConnection {
    if args.postgres {
        let mut root = url::Url::parse(&args.url).unwrap();
        let name = root.path().trim_start_matches('/').to_string();
        root.set_path("/postgres");
        let admin = sea_orm::Database::connect(root.as_str()).await.unwrap();
        admin
            .execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .await
            .unwrap();
        admin
            .execute_unprepared(&format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
    } else {
        let path = args
            .url
            .trim_start_matches("sqlite://")
            .split('?')
            .next()
            .unwrap()
            .to_string();
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
        if let Some(dir) = std::path::Path::new(&path).parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
    }
    let db = connect(args).await;
    Migrator::up(&db, None).await.unwrap();
    db
}

async fn connect(args: &Args) -> DatabaseConnection {
    let config: loco_rs::config::Database = serde_json::from_value(serde_json::json!({
        "uri": args.url, "enable_logging": false, "min_connections": 1, "max_connections": 5,
        "connect_timeout": 5000, "idle_timeout": 60000,
    }))
    .unwrap();
    loco_rs::db::connect(&config).await.unwrap()
}

#[tokio::main]
async fn main() {
    let args = match Args::parse() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}\nusage: sweep_bench [--db postgres|sqlite] [--documents N] [--url URL] [--runs N] [--batch N] [--reuse] [--no-checkpoint]");
            std::process::exit(2);
        }
    };
    // A fixed day, so two runs seed the same data.
    let day0 = NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
    let engine = if args.postgres {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    let db = if args.reuse {
        let db = connect(&args).await;
        measure::restore(&db, day0).await;
        println!("re-using the database seeded earlier on {engine}");
        db
    } else {
        let db = fresh_database(&args).await;
        let started = Instant::now();
        let counts = seed::run(&db, args.documents, day0).await.unwrap();
        measure::restore(&db, day0).await;
        println!(
            "seeded {} organizations, {} vendors, {} documents, {} reminders, {} activity entries \
             in {:.1} s on {engine}",
            counts.organizations,
            counts.vendors,
            counts.documents,
            counts.reminders,
            counts.activities,
            started.elapsed().as_secs_f64(),
        );
        db
    };

    let daily = measure::sweep(&db, day0, args.runs, args.batch).await;
    let daily_floor = measure::floor(&db, day0, args.runs).await;
    // The catch-up: the sweeps of the 29 days before day 0 did not happen.
    let from = day0 - Duration::days(29);
    measure::unprocess(&db, from, day0 - Duration::days(1)).await;
    let catch_up = measure::sweep(&db, day0, args.runs, args.batch).await;
    let catch_up_floor = measure::floor(&db, day0, args.runs).await;

    println!("\n{}", measure::machine(&db).await);
    println!(
        "{}",
        measure::report(&[
            ("daily sweep (1 day)", &daily),
            ("floor: plain UPDATE + DELETE (1 day)", &daily_floor),
            ("30-day catch-up", &catch_up),
            ("floor: plain UPDATE + DELETE (30 days)", &catch_up_floor),
        ])
    );
    println!("{}", measure::plans(&db, day0, args.batch).await);
}
