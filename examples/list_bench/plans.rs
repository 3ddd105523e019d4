//! The plan of every statement a request runs. The app is booted as `App::boot` does (the
//! database is migrated already) with a callback on its database connection that keeps each
//! statement with its bound values; each request is made once, and each statement it ran is
//! explained by the database with the same values: `EXPLAIN QUERY PLAN` on `SQLite`,
//! `EXPLAIN (ANALYZE, BUFFERS)` on `PostgreSQL` (the rows and pages each step really read). A
//! full scan of a table holding every tenant's rows is flagged with `!!`; on `PostgreSQL`, one
//! the planner chose over index look-ups that serve the statement is marked `--` (a table small
//! enough to read whole, or to hash whole for a join).

use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use loco_rs::{
    boot::{create_context, run_app, StartMode},
    environment::Environment,
};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement, TransactionTrait};
use vendorwatch::app::App;

use crate::harness;

/// Tables with rows of every organization.
const TENANT_TABLES: [&str; 12] = [
    "organizations",
    "users",
    "vendors",
    "documents",
    "reminders",
    "reminder_claims",
    "reminder_deliveries",
    "pending_expiries",
    "activities",
    "renewal_requests",
    "report_snapshots",
    "weekly_summaries",
];

/// The plan's lines, indented by depth.
async fn explain(db: &DatabaseConnection, statement: &Statement) -> Vec<String> {
    let backend = db.get_database_backend();
    let prefix = if backend == DbBackend::Postgres {
        "EXPLAIN (ANALYZE, BUFFERS)"
    } else {
        "EXPLAIN QUERY PLAN"
    };
    let rows = db
        .query_all_raw(Statement {
            sql: format!("{prefix} {}", statement.sql),
            values: statement.values.clone(),
            db_backend: backend,
        })
        .await
        .unwrap();
    if backend == DbBackend::Postgres {
        return rows
            .iter()
            .map(|r| r.try_get::<String>("", "QUERY PLAN").unwrap())
            .collect();
    }
    // SQLite: (id, parent, notused, detail), parents before their children.
    let mut depth: Vec<(i64, usize)> = vec![(0, 0)];
    rows.iter()
        .map(|r| {
            let (id, parent) = (
                r.try_get::<i64>("", "id").unwrap(),
                r.try_get::<i64>("", "parent").unwrap(),
            );
            let d = depth.iter().find(|(i, _)| *i == parent).map_or(0, |p| p.1) + 1;
            depth.push((id, d));
            format!(
                "{}{}",
                "  ".repeat(d - 1),
                r.try_get::<String>("", "detail").unwrap()
            )
        })
        .collect()
}

/// The steps of `plan` that read a whole table of every tenant's rows (or a whole index of
/// one), with the table.
fn full_scans(backend: DbBackend, plan: &[String]) -> Vec<(String, String)> {
    let mut found = vec![];
    let table_of = |rest: &str| {
        let name = rest.split_whitespace().next().map(|n| n.trim_matches('"'));
        name.filter(|n| TENANT_TABLES.contains(n))
            .map(ToString::to_string)
    };
    for (i, line) in plan.iter().enumerate() {
        let step = line.trim_start().trim_start_matches("->").trim();
        if backend != DbBackend::Postgres {
            // "SCAN t", "SCAN t USING [COVERING] INDEX i"; "SEARCH t ..." is an index look-up.
            if let Some(table) = step.strip_prefix("SCAN ").and_then(table_of) {
                found.push((table, format!("full scan: {step}")));
            }
            continue;
        }
        if let Some(table) = step.split("Seq Scan on ").nth(1).and_then(table_of) {
            found.push((table, format!("full scan: {step}")));
        } else if step.starts_with("Index Scan") || step.starts_with("Index Only Scan") {
            // The step's own details come before the next step ("->").
            let bounded = plan[i + 1..]
                .iter()
                .take_while(|l| !l.contains("->"))
                .any(|l| l.contains("Index Cond"));
            if let Some(table) = step.split(" on ").nth(1).and_then(table_of) {
                if !bounded {
                    found.push((table, format!("full index scan: {step}")));
                }
            }
        }
    }
    found
}

/// `PostgreSQL` reads a small table whole when that is cheaper than its index (or hashes all of
/// it for a join). Whether index look-ups serve `statement` on `table` all the same: its plan
/// with sequential scans, hash joins and merge joins priced out reads `table` some other way.
async fn index_serves(db: &DatabaseConnection, statement: &Statement, table: &str) -> bool {
    let txn = db.begin().await.unwrap();
    for setting in ["enable_seqscan", "enable_hashjoin", "enable_mergejoin"] {
        txn.execute_unprepared(&format!("SET LOCAL {setting} = off"))
            .await
            .unwrap();
    }
    let plan: Vec<String> = txn
        .query_all_raw(Statement {
            sql: format!("EXPLAIN {}", statement.sql),
            values: statement.values.clone(),
            db_backend: DbBackend::Postgres,
        })
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<String>("", "QUERY PLAN").unwrap())
        .collect();
    txn.rollback().await.unwrap();
    !full_scans(DbBackend::Postgres, &plan)
        .iter()
        .any(|(t, _)| t == table)
}

/// Makes each of `paths` once and prints the plan of each statement it ran; with `flag`, the
/// full scans of tenant tables too (on a database holding one organization, every table is
/// that organization's alone, and reading it whole may well be right).
pub async fn print(url: &str, token: &str, paths: &[&str], flag: bool) {
    let seen: Arc<Mutex<Vec<Statement>>> = Arc::default();
    let mut ctx = create_context::<App>(&Environment::Test, harness::config(url).await)
        .await
        .unwrap();
    let sink = Arc::clone(&seen);
    ctx.db.set_metric_callback(move |info| {
        sink.lock().unwrap().push(info.statement.clone());
    });
    let boot = run_app::<App>(&StartMode::ServerOnly, ctx).await.unwrap();
    let router = boot.router.clone().unwrap();
    let db = &boot.app_context.db;
    let backend = db.get_database_backend();
    println!(
        "\nPlans ({}), each statement with its values:",
        harness::engine(db)
    );
    let (mut flagged, mut chosen) = (vec![], vec![]);
    for path in paths {
        seen.lock().unwrap().clear();
        let (status, _, _) = harness::call(&router, "GET", path, Some(token), None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let statements = std::mem::take(&mut *seen.lock().unwrap());
        println!("\n`GET {path}`: {} statements", statements.len());
        // A report read in batches runs the same statement for each batch: each is explained
        // once, with the values of its first run.
        let mut runs: Vec<(&Statement, usize)> = vec![];
        for statement in &statements {
            match runs.iter_mut().find(|(s, _)| s.sql == statement.sql) {
                Some((_, n)) => *n += 1,
                None => runs.push((statement, 1)),
            }
        }
        for (statement, n) in runs {
            if n > 1 {
                println!("\n    ({n} runs, the first:) {statement}");
            } else {
                println!("\n    {statement}");
            }
            let sql = statement.sql.trim_start().to_uppercase();
            if !(sql.starts_with("SELECT") || sql.starts_with("WITH")) {
                continue;
            }
            let plan = explain(db, statement).await;
            for line in &plan {
                println!("      | {line}");
            }
            let scans = if flag {
                full_scans(backend, &plan)
            } else {
                vec![]
            };
            for (table, scan) in scans {
                if backend == DbBackend::Postgres && index_serves(db, statement, &table).await {
                    println!("      -- {scan}: the planner's choice, index look-ups serve it");
                    chosen.push(format!("`GET {path}`: {scan}"));
                } else {
                    println!("      !! {scan}");
                    flagged.push(format!("`GET {path}`: {scan}"));
                }
            }
        }
    }
    if !flag {
        return;
    }
    if !chosen.is_empty() {
        println!(
            "\nWhole tables read by the planner's choice (cheaper at this size than the index \
             look-ups that serve them):"
        );
        for c in &chosen {
            println!("--   {c}");
        }
    }
    if flagged.is_empty() {
        println!(
            "\nNo full scan of a table holding every tenant's rows that index look-ups cannot replace."
        );
    } else {
        println!("\n!! Full scans of tables holding every tenant's rows:");
        for f in &flagged {
            println!("!!   {f}");
        }
    }
}
