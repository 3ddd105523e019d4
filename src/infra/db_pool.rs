//! The app's `SQLite` pool with the same settings on every connection. Loco runs its `SQLite`
//! PRAGMAs (`synchronous = NORMAL`, the cache and memory-map sizes) as one statement on one
//! connection of the pool, so every other connection the pool opened later ran with `SQLite`'s
//! defaults: each commit there waited for an `fsync` of the log (3-4 ms on this kind of disk).
//! Here each connection is opened with them.
//!
//! `synchronous = NORMAL` in WAL mode keeps the database consistent whatever happens, and a
//! committed transaction survives a crash of the process; a power cut or an operating-system
//! crash may lose the last commits (docs/configuration.md, `DATABASE_URL`). `PostgreSQL` is
//! the production database where that matters.

use std::time::Duration;

use loco_rs::{config::Database, Error, Result};
use sea_orm::{
    sqlx::{
        sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
        ConnectOptions,
    },
    DatabaseConnection, SqlxSqliteConnector,
};

/// A pool on `config.uri` (a `SQLite` file) with Loco's pool sizes and timeouts and its PRAGMAs
/// on every connection; `None` (the pool Loco made stays) for an in-memory database, where each
/// connection is a database of its own, or when the configuration names its own
/// `run_on_start` statements.
///
/// # Errors
/// The URI does not parse, or the database cannot be opened.
pub async fn sqlite(config: &Database) -> Result<Option<DatabaseConnection>> {
    // An operator's own `run_on_start` statements are Loco's to run: its pool stays.
    if config.run_on_start.is_some()
        || config.uri.contains(":memory:")
        || config.uri.contains("mode=memory")
    {
        return Ok(None);
    }
    let mut options: SqliteConnectOptions = config
        .uri
        .parse()
        .map_err(|e| Error::string(&format!("DATABASE_URL: {e}")))?;
    options = options
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5))
        .pragma("mmap_size", "134217728")
        .pragma("journal_size_limit", "67108864")
        .pragma("cache_size", "2000");
    if !config.enable_logging {
        options = options.disable_statement_logging();
    }
    // sea-orm (and so Loco) uses the connect timeout as the pool's acquire timeout.
    let acquire = config.acquire_timeout.unwrap_or(config.connect_timeout);
    let pool = SqlitePoolOptions::new()
        .max_connections(config.max_connections)
        .min_connections(config.min_connections)
        .acquire_timeout(Duration::from_millis(acquire))
        .idle_timeout(Duration::from_millis(config.idle_timeout))
        .connect_with(options)
        .await
        .map_err(|e| Error::string(&format!("the SQLite database cannot be opened: {e}")))?;
    Ok(Some(SqlxSqliteConnector::from_sqlx_sqlite_pool(pool)))
}
