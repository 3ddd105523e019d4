//! Timing the sweep's database work, resetting between runs, and describing the machine and the
//! query plans.

use std::{
    fmt::Write,
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

use chrono::{Duration, NaiveDate};
use sea_orm::{
    ConnectionTrait, DatabaseConnection, DbBackend, FromQueryResult, QueryResult, Statement,
    TransactionTrait, TryGetableMany,
};
use vendorwatch::models::{
    reminders::{self, ClaimPolicy, Cursor},
    sweep,
};

/// The timings of one measurement over several runs.
#[derive(Default)]
pub struct Runs {
    pub claimed: u64,
    pub expired: u64,
    pub claim_ms: Vec<f64>,
    pub expire_ms: Vec<f64>,
    /// Both at once, as `sweep::run` does them: until the later one ends.
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

/// `--no-checkpoint`: the timed runs start without a checkpoint just before them.
pub static NO_CHECKPOINT: AtomicBool = AtomicBool::new(false);

/// Fresh planner statistics, and (`PostgreSQL`) no dead rows left by the previous run, as
/// autovacuum would leave a table between two daily sweeps.
pub async fn analyze(db: &DatabaseConnection) {
    if is_pg(db) {
        for table in [
            "reminders",
            "reminder_claims",
            "pending_expiries",
            "activities",
            "documents",
            "vendors",
        ] {
            exec(db, &format!("VACUUM ANALYZE {table}")).await;
        }
        // A daily sweep touches pages last written long ago, more than a checkpoint ago, so
        // each first write of a page after it logs the whole page (full-page writes). The
        // checkpoint here makes every timed run pay that, as the real sweep does; without it
        // (`--no-checkpoint`) the pages the reset just wrote are logged already.
        if !NO_CHECKPOINT.load(Ordering::Relaxed) {
            exec(db, "CHECKPOINT").await;
        }
    } else {
        exec(db, "ANALYZE").await;
        exec(db, "PRAGMA wal_checkpoint(TRUNCATE)").await;
    }
}

/// Puts back what a sweep changed: claims gone, the pending expiries of
/// `bench_pending_expiries` (see `pend_from`) back in place, the sweep's activity entries gone.
async fn reset(db: &DatabaseConnection) {
    exec(db, "DELETE FROM reminder_claims").await;
    // Rebuilt whole, in document order, the order the product inserts them in (a document's
    // pending expiry is written when it is uploaded): the rows due on one day lie scattered
    // over the table as they would in production, not packed together at its end.
    let empty = if is_pg(db) {
        "TRUNCATE pending_expiries"
    } else {
        "DELETE FROM pending_expiries"
    };
    exec(db, empty).await;
    exec(
        db,
        "INSERT INTO pending_expiries (document_id, expiration_date, entry_pid) \
         SELECT document_id, expiration_date, entry_pid FROM bench_pending_expiries \
         ORDER BY document_id",
    )
    .await;
    exec(
        db,
        "DELETE FROM activities WHERE activity_type = 'document_expired'",
    )
    .await;
    analyze(db).await;
}

/// The pending expiries a reset puts back: those of every current document expiring on or
/// after `from` (the ones before were recorded by earlier sweeps), each with the id of its
/// entry to be (a reset deletes the entries, so the ids are free again).
async fn pend_from(db: &DatabaseConnection, from: NaiveDate) {
    exec(db, "DROP TABLE IF EXISTS bench_pending_expiries").await;
    let random_uuid = if is_pg(db) {
        "gen_random_uuid()"
    } else {
        "randomblob(16)"
    };
    exec(
        db,
        &format!(
            "CREATE TABLE bench_pending_expiries AS \
             SELECT id AS document_id, expiration_date, {random_uuid} AS entry_pid FROM documents \
             WHERE is_current AND expiration_date >= '{from}'"
        ),
    )
    .await;
}

/// As if the sweeps of `from..=to` had not run: their reminders (of current documents) unsent,
/// their expiries unrecorded.
pub async fn unprocess(db: &DatabaseConnection, from: NaiveDate, to: NaiveDate) {
    exec(
        db,
        &format!(
            "UPDATE reminders SET sent_at = NULL \
         WHERE reminder_date >= '{from}' AND reminder_date <= '{to}' \
         AND document_id IN (SELECT id FROM documents WHERE is_current)"
        ),
    )
    .await;
    pend_from(db, from).await;
    reset(db).await;
}

/// The seeded state: everything before `day0` sent or recorded. Also what makes a database
/// seeded by an earlier run (`--reuse`) ready again.
pub async fn restore(db: &DatabaseConnection, day0: NaiveDate) {
    exec(
        db,
        &format!(
            "UPDATE reminders SET sent_at = CURRENT_TIMESTAMP \
         WHERE reminder_date < '{day0}' AND sent_at IS NULL"
        ),
    )
    .await;
    pend_from(db, day0).await;
    reset(db).await;
}

fn policy(day: NaiveDate, batch: u64) -> ClaimPolicy {
    ClaimPolicy {
        day,
        scope: sweep::Scope::all(),
        now: reminders::now(),
        batch_size: batch,
        claim_timeout: Duration::seconds(900),
        max_attempts: 10,
        only_stale_claims: false,
    }
}

/// Runs the sweep's database work for `day` `runs` times (with what `restore` or `unprocess`
/// left pending).
pub async fn sweep(db: &DatabaseConnection, day: NaiveDate, runs: usize, batch: u64) -> Runs {
    timed(
        db,
        runs,
        // As `sweep::run`: reminders and expiries at once. The claims are what the sweep hands
        // to the workers; enqueueing them is the queue's cost, and sending is the workers'.
        || async move {
            sweep::claim_all_due(db, &policy(day, batch), |_| async { Ok(()) })
                .await
                .unwrap()
        },
        || async move {
            sweep::record_expired_documents(db, day, &sweep::Scope::all(), batch)
                .await
                .unwrap()
        },
    )
    .await
}

/// The reference the targets were set against, under the same conditions: one plain SQL
/// statement for each half (one `UPDATE` rewriting a column of every due reminder through the
/// partial index, one `DELETE` of every due expiry), no batches, no activity entries, nothing
/// read back.
pub async fn floor(db: &DatabaseConnection, day: NaiveDate, runs: usize) -> Runs {
    let plain =
        |sql: String| async move { db.execute_unprepared(&sql).await.unwrap().rows_affected() };
    timed(
        db,
        runs,
        || {
            plain(format!(
                "UPDATE reminders SET updated_at = CURRENT_TIMESTAMP \
                 WHERE sent_at IS NULL AND reminder_date <= '{day}'"
            ))
        },
        || {
            plain(format!(
                "DELETE FROM pending_expiries WHERE expiration_date <= '{day}'"
            ))
        },
    )
    .await
}

/// Resets, then times `claim` and `expire` `runs` times, both at once as `sweep::run` does them:
/// each half's own time, and the whole sweep's from start to the end of the later one.
async fn timed<C, CF, E, EF>(
    db: &DatabaseConnection,
    runs: usize,
    mut claim: C,
    mut expire: E,
) -> Runs
where
    C: FnMut() -> CF,
    CF: std::future::Future<Output = u64>,
    E: FnMut() -> EF,
    EF: std::future::Future<Output = u64>,
{
    let mut result = Runs::default();
    let ms = |started: Instant| started.elapsed().as_secs_f64() * 1000.0;
    for _ in 0..runs {
        reset(db).await;
        let started = Instant::now();
        let claims = claim();
        let expiries = expire();
        let ((claimed, claim_ms), (expired, expire_ms)) =
            tokio::join!(async { (claims.await, ms(started)) }, async {
                (expiries.await, ms(started))
            });
        result.total_ms.push(ms(started));
        result.claimed = claimed;
        result.claim_ms.push(claim_ms);
        result.expired = expired;
        result.expire_ms.push(expire_ms);
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

/// The plans of the sweep's statements, built by the same functions the sweep uses, with what
/// `unprocess` left pending. On `PostgreSQL` they are executed (`EXPLAIN ANALYZE`) in a
/// transaction that is rolled back, so the plan shows where the time goes.
pub async fn plans(db: &DatabaseConnection, day: NaiveDate, batch: u64) -> String {
    reset(db).await;
    let backend = db.get_database_backend();
    let policy = policy(day, batch);
    let cursor = |row: QueryResult| Cursor::from_query_result(&row, "").unwrap();
    let first_end = first_row(db, backend.build(&policy.batch_end_statement(None)))
        .await
        .map(cursor);
    let second_end = first_row(db, backend.build(&policy.batch_end_statement(first_end)))
        .await
        .map(cursor);
    let all = sweep::Scope::all();
    let expiry_end_statement =
        backend.build(&sweep::expiry_batch_end_statement(day, &all, None, batch));
    let expiry_end = first_row(db, expiry_end_statement.clone())
        .await
        .map(|row| <sweep::ExpiryKey>::try_get_many_by_index(&row).unwrap());
    let now = reminders::now();
    // Each group runs in one transaction, rolled back: on SQLite the expiries' delete takes off
    // only rows whose entry the statement before it wrote.
    let groups = [
        vec![(
            "where the first batch of due reminders ends",
            backend.build(&policy.batch_end_statement(None)),
        )],
        vec![(
            "claiming the first batch",
            backend.build(&policy.claim_statement("token", None, first_end)),
        )],
        vec![(
            "claiming the second batch",
            backend.build(&policy.claim_statement("token", first_end, second_end)),
        )],
        vec![(
            "where the first batch of expiries ends",
            expiry_end_statement,
        )],
        {
            let batch = sweep::expiry_batch_statements(
                backend,
                &sweep::Due {
                    day,
                    scope: &all,
                    after: None,
                    end: expiry_end,
                },
                now,
            );
            let mut group = Vec::new();
            if let Some(assign_ids) = &batch.assign_ids {
                group.push((
                    "giving entry ids to rows without one",
                    backend.build(assign_ids),
                ));
            }
            group.push((
                "recording the first batch of expiries",
                backend.build(&batch.entries),
            ));
            if let Some(delete) = &batch.delete {
                group.push((
                    "taking the first batch of expiries off",
                    backend.build(delete),
                ));
            }
            group
        },
    ];
    let mut out = String::new();
    for group in groups {
        let txn = db.begin().await.unwrap();
        for (name, statement) in group {
            let sql = statement.to_string();
            let plan = if is_pg(db) {
                text(
                    &txn,
                    &format!("EXPLAIN (ANALYZE, COSTS OFF, TIMING ON) {sql}"),
                    0,
                )
                .await
            } else {
                let plan = text(&txn, &format!("EXPLAIN QUERY PLAN {sql}"), 3).await;
                // SQLite only explains; run it so the next statement sees what it wrote.
                txn.execute_raw(statement).await.unwrap();
                plan
            };
            let _ = writeln!(
                out,
                "{name}:\n```sql\n{sql}\n```\n```\n{}\n```\n",
                plan.join("\n")
            );
        }
        txn.rollback().await.unwrap();
    }
    out
}

async fn first_row(db: &DatabaseConnection, statement: Statement) -> Option<QueryResult> {
    db.query_one_raw(statement).await.unwrap()
}
