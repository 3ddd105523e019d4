pub mod extract_coverage;
pub mod generate_post;
pub mod keyword_chunk;
pub mod outgoing_email;
pub mod reminders;
pub mod stalled;
pub mod webhook_delivery;
pub mod weekly_summary;

use std::{future::Future, time::Duration};

/// Runs a unit of database work up to `tries` times: a transaction that lost a race (a unique
/// key taken by a concurrent job, or `SQLite`'s busy snapshot when two writers meet) rolled
/// back whole, so running it again is safe.
///
/// # Errors
/// The last attempt's error.
pub async fn retry_db<T, F, Fut>(what: &str, tries: u32, mut work: F) -> loco_rs::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = loco_rs::Result<T>>,
{
    let mut attempt = 1;
    loop {
        match work().await {
            Err(e) if attempt < tries => {
                tracing::info!(what, attempt, error = %e, "database work retried");
                tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
                attempt += 1;
            }
            result => return result,
        }
    }
}

/// The embedded queue: Loco's `SQLite` queue provider on a pool of our own, whose every
/// connection runs in WAL mode with `synchronous = NORMAL`. Loco opens that pool with sqlx's
/// defaults: a rollback journal (each dequeue and each completion synced the journal and the
/// file several times, and a reader waited for every writer) and `synchronous = FULL` (an
/// `fsync` of the log at every commit, 3-4 ms on this kind of disk; two per job). Jobs, claims
/// and workers are Loco's; only the connections differ (docs/benchmarks/keywords.md).
///
/// What `NORMAL` risks: a power cut (not a crash of the process) may lose the queue's last
/// commits. A lost enqueue or completion is safe here: keyword chunks are recorded as to do in
/// the app's database and queued again by `keyword_ingests`, reminders are claimed there before
/// they are sent, and generations are found again by `content_schedule`. Production runs on
/// Redis.
///
/// # Errors
/// When the queue's database cannot be opened.
pub async fn embedded_queue(
    config: &loco_rs::config::SqliteQueueConfig,
) -> loco_rs::Result<loco_rs::bgworker::Queue> {
    use loco_rs::bgworker::{
        sqlt::{JobRegistry, RunOpts, SqliteQueue},
        Queue,
    };
    Ok(Queue::from_provider(std::sync::Arc::new(SqliteQueue {
        pool: embedded_queue_pool(config).await?,
        registry: std::sync::Arc::new(tokio::sync::Mutex::new(JobRegistry::new())),
        run_opts: RunOpts {
            num_workers: config.num_workers,
            poll_interval_sec: config.poll_interval_sec,
            reaper: config.reaper.clone(),
        },
        token: tokio_util::sync::CancellationToken::new(),
    })))
}

/// The embedded queue's pool (`embedded_queue`): Loco's sizes and timeouts, WAL and
/// `synchronous = NORMAL` on every connection.
///
/// # Errors
/// When the queue's database cannot be opened.
pub async fn embedded_queue_pool(
    config: &loco_rs::config::SqliteQueueConfig,
) -> loco_rs::Result<loco_rs::bgworker::sqlt::SqlitePool> {
    use sea_orm::sqlx::{
        sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
        ConnectOptions,
    };
    let sqlx_error = |e: sea_orm::sqlx::Error| loco_rs::Error::string(&format!("queue: {e}"));
    let mut options: SqliteConnectOptions = config.uri.parse().map_err(sqlx_error)?;
    options = options
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(5));
    if !config.enable_logging {
        options = options.disable_statement_logging();
    }
    SqlitePoolOptions::new()
        .min_connections(config.min_connections)
        .max_connections(config.max_connections)
        .idle_timeout(Duration::from_millis(config.idle_timeout))
        .acquire_timeout(Duration::from_millis(config.connect_timeout))
        .connect_with(options)
        .await
        .map_err(sqlx_error)
}
