//! Timing the sweep's database work, resetting between runs, and describing the machine and the
//! query plans.

use std::{fmt::Write, time::Instant};

use chrono::{Duration, NaiveDate};
use sea_orm::{
    sea_query::{PostgresQueryBuilder, SqliteQueryBuilder},
    ConnectionTrait, DatabaseConnection, DbBackend, Statement, TransactionTrait,
};
use vendorwatch::models::{
    reminders::{self, ClaimPolicy, Cursor},
    sweep,
};

/// The timings of one measurement over several runs.
pub struct Runs {
    pub claimed: u64,
    pub expired: u64,
    pub claim_ms: Vec<f64>,
    pub expire_ms: Vec<f64>,
    /// Both, one after the other, as `sweep::run` does them.
    pub total_ms: Vec<f64>,
}

async fn exec(db: &DatabaseConnection, sql: &str) {
    db.execute_unprepared(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

fn is_pg(db: &DatabaseConnection) -> bool {
    db.get_database_backend() == DbBackend::Postgres
}

/// Fresh planner statistics, and (`PostgreSQL`) no dead rows left by the previous run, as
/// autovacuum would leave a table between two daily sweeps.
pub async fn analyze(db: &DatabaseConnection) {
    if is_pg(db) {
        for table in ["reminders", "documents", "activities"] {
            exec(db, &format!("VACUUM ANALYZE {table}")).await;
        }
        // Dirty pages written now rather than by a checkpoint in the middle of a timed run.
        exec(db, "CHECKPOINT").await;
    } else {
        exec(db, "ANALYZE").await;
        exec(db, "PRAGMA wal_checkpoint(TRUNCATE)").await;
    }
}

/// Puts back what a sweep over `from..=day` changed (claims, expiries, activity entries).
async fn reset(db: &DatabaseConnection, from: NaiveDate, day: NaiveDate) {
    exec(
        db,
        &format!(
            "UPDATE reminders SET claim_token = NULL, claimed_at = NULL, attempts = 0 \
         WHERE sent_at IS NULL AND reminder_date <= '{day}'"
        ),
    )
    .await;
    exec(
        db,
        &format!(
            "UPDATE documents SET expired_recorded_at = NULL \
         WHERE is_current AND expiration_date >= '{from}' AND expiration_date <= '{day}'"
        ),
    )
    .await;
    exec(db, "DELETE FROM activities").await;
    analyze(db).await;
}

/// As if the sweeps of `from..=to` had not run: their reminders (of current documents) unsent,
/// their expiries unrecorded.
pub async fn unprocess(db: &DatabaseConnection, from: NaiveDate, to: NaiveDate) {
    exec(
        db,
        &format!(
            "UPDATE reminders SET sent_at = NULL, claimed_at = NULL, attempts = 0 \
         WHERE reminder_date >= '{from}' AND reminder_date <= '{to}' \
         AND document_id IN (SELECT id FROM documents WHERE is_current)"
        ),
    )
    .await;
    reset(db, from, to).await;
}

/// Back to the seeded state (a re-used database): everything before `day0` sent or recorded.
pub async fn restore(db: &DatabaseConnection, day0: NaiveDate) {
    exec(
        db,
        &format!(
            "UPDATE reminders SET sent_at = CURRENT_TIMESTAMP, claimed_at = CURRENT_TIMESTAMP, \
         claim_token = NULL, attempts = 1 WHERE reminder_date < '{day0}' AND sent_at IS NULL"
        ),
    )
    .await;
    exec(
        db,
        &format!(
            "UPDATE documents SET expired_recorded_at = CURRENT_TIMESTAMP \
         WHERE is_current AND expiration_date < '{day0}' AND expired_recorded_at IS NULL"
        ),
    )
    .await;
    reset(db, day0, day0).await;
}

fn policy(day: NaiveDate, batch: u64) -> ClaimPolicy {
    ClaimPolicy {
        day,
        now: reminders::now(),
        batch_size: batch,
        claim_timeout: Duration::seconds(900),
        max_attempts: 10,
    }
}

/// Runs the sweep's database work for `day` `runs` times (with everything from `from` pending).
pub async fn sweep(
    db: &DatabaseConnection,
    from: NaiveDate,
    day: NaiveDate,
    runs: usize,
    batch: u64,
) -> Runs {
    let mut result = Runs {
        claimed: 0,
        expired: 0,
        claim_ms: vec![],
        expire_ms: vec![],
        total_ms: vec![],
    };
    let ms = |started: Instant| started.elapsed().as_secs_f64() * 1000.0;
    for _ in 0..runs {
        reset(db, from, day).await;
        let policy = policy(day, batch);
        let started = Instant::now();
        // As `sweep::run`: reminders, then expiries. The claims are what the sweep hands to the
        // workers; enqueueing them is the queue's cost, and sending is the workers'.
        result.claimed = sweep::claim_all_due(db, &policy, |_| async { Ok(()) })
            .await
            .unwrap();
        result.claim_ms.push(ms(started));
        let expiries = Instant::now();
        result.expired = sweep::record_expired_documents(db, day, policy.now, batch)
            .await
            .unwrap();
        result.expire_ms.push(ms(expiries));
        result.total_ms.push(ms(started));
    }
    result
}

fn stats(ms: &[f64]) -> String {
    let mut sorted = ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    format!(
        "{median:.1} ({:.1}–{:.1})",
        sorted[0],
        sorted[sorted.len() - 1]
    )
}

/// A Markdown table: median (min–max) in milliseconds.
pub fn report(rows: &[(&str, &Runs)]) -> String {
    let mut out = String::from(
        "| measurement | reminders claimed | documents expired | claiming, ms | document_expired, ms | whole sweep, ms |\n\
         | --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (name, runs) in rows {
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} | {} |",
            runs.claimed,
            runs.expired,
            stats(&runs.claim_ms),
            stats(&runs.expire_ms),
            stats(&runs.total_ms)
        );
    }
    let _ = write!(
        out,
        "\nmedian (min–max) of {} runs",
        rows.first().map_or(0, |(_, r)| r.claim_ms.len())
    );
    out
}

async fn text<C: ConnectionTrait>(db: &C, sql: &str, column: usize) -> Vec<String> {
    let rows = db
        .query_all_raw(Statement::from_string(
            db.get_database_backend(),
            sql.to_string(),
        ))
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    rows.iter()
        .map(|r| {
            r.try_get_by_index::<String>(column)
                .or_else(|_| r.try_get_by_index::<i64>(column).map(|n| n.to_string()))
                .unwrap_or_default()
        })
        .collect()
}

/// The processor, memory and database version the numbers were taken on.
pub async fn machine(db: &DatabaseConnection) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines().next().map(|l| {
                l.split_whitespace()
                    .nth(1)
                    .unwrap_or("0")
                    .parse::<u64>()
                    .unwrap_or(0)
            })
        })
        .map_or_else(
            || "unknown".into(),
            |kb| format!("{} GB", kb.div_ceil(1_048_576)),
        );
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let version = if is_pg(db) {
        format!(
            "PostgreSQL {}",
            text(db, "SHOW server_version", 0).await.join("")
        )
    } else {
        format!(
            "SQLite {}",
            text(db, "SELECT sqlite_version()", 0).await.join("")
        )
    };
    format!("machine: {cpu}, {cores} cores, {memory} RAM; {version}")
}

/// The plans of the sweep's statements, built by the same functions the sweep uses, with
/// everything from `from` pending. On `PostgreSQL` they are executed (`EXPLAIN ANALYZE`) in a
/// transaction that is rolled back, so the plan shows where the time goes.
pub async fn plans(db: &DatabaseConnection, from: NaiveDate, day: NaiveDate, batch: u64) -> String {
    reset(db, from, day).await;
    let backend = db.get_database_backend();
    let policy = policy(day, batch);
    let after = Some(Cursor {
        reminder_date: day - Duration::days(10),
        id: 1_000,
    });
    let render = |stmt: &sea_orm::sea_query::UpdateStatement| match backend {
        DbBackend::Postgres => stmt.to_string(PostgresQueryBuilder),
        _ => stmt.to_string(SqliteQueryBuilder),
    };
    let statements = [
        (
            "claiming the first batch of due reminders",
            render(&policy.claim_statement(backend, "token", None)),
        ),
        (
            "claiming the next batch (after the cursor)",
            render(&policy.claim_statement(backend, "token", after)),
        ),
        (
            "recording a batch of expired documents",
            render(&sweep::expiry_statement(backend, day, policy.now, batch)),
        ),
    ];
    let mut out = String::new();
    for (name, sql) in statements {
        let plan = if is_pg(db) {
            let txn = db.begin().await.unwrap();
            let plan = text(
                &txn,
                &format!("EXPLAIN (ANALYZE, COSTS OFF, TIMING ON) {sql}"),
                0,
            )
            .await;
            txn.rollback().await.unwrap();
            plan
        } else {
            text(db, &format!("EXPLAIN QUERY PLAN {sql}"), 3).await
        };
        let _ = writeln!(
            out,
            "{name}:\n```sql\n{sql}\n```\n```\n{}\n```\n",
            plan.join("\n")
        );
    }
    out
}
