pub mod generate_post;
pub mod keyword_chunk;
pub mod reminders;
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

/// Puts the embedded queue's `SQLite` file in WAL mode (kept in the file, so every connection
/// of Loco's queue pool uses it from then on). Loco opens that pool with sqlx's defaults, a
/// rollback journal: each dequeue and each completion then synced the journal and the file
/// several times, and a reader waited for every writer (docs/benchmarks/keywords.md).
///
/// # Errors
/// When the queue's database cannot be opened.
pub async fn embedded_queue_in_wal(uri: &str) -> loco_rs::Result<()> {
    use sea_orm::sqlx::{
        sqlite::{SqliteConnectOptions, SqliteJournalMode},
        ConnectOptions, Connection,
    };
    let sqlx_error = |e: sea_orm::sqlx::Error| loco_rs::Error::string(&format!("queue: {e}"));
    let options: SqliteConnectOptions = uri.parse().map_err(sqlx_error)?;
    let conn = options
        .journal_mode(SqliteJournalMode::Wal)
        .connect()
        .await
        .map_err(sqlx_error)?;
    conn.close().await.map_err(sqlx_error)
}
