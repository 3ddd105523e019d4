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
//!
//! A connection that finds the write lock taken waits for it by polling every 50 µs to 1 ms
//! ([`wait_for_lock`]), for up to [`BUSY_WAIT`]. `SQLite`'s own busy timeout sleeps 1, 2, 5,
//! 10... then 100 ms between tries, so under a steady load of writes a waiting transaction
//! kept losing the lock to others that came later and waited for hundreds of milliseconds (the
//! mixed load of docs/benchmarks/api.md: p99 0.5-0.7 s at 16 connections). Within this process
//! write transactions wait for their turn before they reach the lock (`models::writes`), so the
//! handler mostly serves writes from elsewhere (another process, an autocommit statement).
//!
//! Those write transactions also have a connection of their own beside the pool (the write
//! lane, `models::writes`): a write whose turn has come begins at once, instead of queueing for
//! one of the pool's connections behind the reads while every later write waits on its turn.

use std::{
    ffi::{c_int, c_void},
    time::Duration,
};

use loco_rs::{config::Database, Error, Result};
use sea_orm::{
    sqlx::{
        sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
        ConnectOptions,
    },
    DatabaseConnection, SqlxSqliteConnector,
};

use crate::models::writes;

/// A pool on `config.uri` (a `SQLite` file) with Loco's pool sizes and timeouts and its PRAGMAs
/// on every connection, and beside it the write lane's one connection with the same settings;
/// `None` (the pool Loco made stays) for an in-memory database, where each connection is a
/// database of its own, or when the configuration names its own `run_on_start` statements.
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
        .busy_timeout(BUSY_WAIT)
        .pragma("mmap_size", "134217728")
        .pragma("journal_size_limit", "67108864")
        .pragma("cache_size", "2000");
    if !config.enable_logging {
        options = options.disable_statement_logging();
    }
    // sea-orm (and so Loco) uses the connect timeout as the pool's acquire timeout.
    let acquire = Duration::from_millis(config.acquire_timeout.unwrap_or(config.connect_timeout));
    let idle = Duration::from_millis(config.idle_timeout);
    let pool = with_busy_handler(SqlitePoolOptions::new())
        .max_connections(config.max_connections)
        .min_connections(config.min_connections)
        .acquire_timeout(acquire)
        .idle_timeout(idle)
        .connect_with(options.clone())
        .await
        .map_err(|e| Error::string(&format!("the SQLite database cannot be opened: {e}")))?;
    // The write lane: one connection more, for write transactions only. Kept open as the
    // pool's own are (to their minimum): closed when idle, the next write would open it again
    // while every later write waits for its turn.
    let writer = with_busy_handler(SqlitePoolOptions::new())
        .max_connections(1)
        .min_connections(config.min_connections.min(1))
        .acquire_timeout(acquire)
        .idle_timeout(idle)
        .connect_lazy_with(options);
    let pool = SqlxSqliteConnector::from_sqlx_sqlite_pool(pool);
    writes::give_write_lane(&pool, SqlxSqliteConnector::from_sqlx_sqlite_pool(writer));
    Ok(Some(pool))
}

/// `options` with [`wait_for_lock`] as the busy handler of every connection it opens.
fn with_busy_handler(options: SqlitePoolOptions) -> SqlitePoolOptions {
    options.after_connect(|conn, _| {
        Box::pin(async move {
            let mut handle = conn.lock_handle().await?;
            // SAFETY: the handle is the connection's open database, locked for this call;
            // the handler keeps no state (its argument is null) and only sleeps.
            unsafe {
                libsqlite3_sys::sqlite3_busy_handler(
                    handle.as_raw_handle().as_ptr(),
                    Some(wait_for_lock),
                    std::ptr::null_mut(),
                );
            }
            Ok(())
        })
    })
}

/// The pool's size on a machine of `cores` processor cores when the configuration leaves it
/// to the machine: twice the cores and one, the rule of thumb of `PostgreSQL`'s wiki ("How to
/// find the optimal database connection pool size"). A statement is work on a core, in this
/// process (`SQLite`, on its connection's thread) or in the database's (a `PostgreSQL`
/// backend); a connection more than the cores can run is a thread or a process more taking
/// turns on them, and each hand-over between the request and the connection a wake-up more.
/// On two cores, 5 connections answered more of the vendor list than 20 in most rounds, and
/// under writes with a lower p99, on both databases (docs/benchmarks/api.md, "Eighth pass").
#[must_use]
pub fn connections_for(cores: usize) -> u32 {
    u32::try_from(cores.max(1))
        .unwrap_or(u32::MAX / 2)
        .saturating_mul(2)
        .saturating_add(1)
}

/// Sizes `database`'s pool to this machine when its `max_connections` is 0 (production's
/// default, `DB_MAX_CONNECTIONS` unset: [`connections_for`] its cores), and keeps
/// `min_connections` within the pool. A size given is kept.
pub fn size_to_machine(database: &mut Database) {
    if database.max_connections == 0 {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        database.max_connections = connections_for(cores);
    }
    database.min_connections = database.min_connections.min(database.max_connections);
}

/// How long a connection waits for the write lock before "database is locked".
pub const BUSY_WAIT: Duration = Duration::from_secs(5);

/// The pause before try `tries + 1` for the lock: 50 µs doubling to 1 ms.
fn pause(tries: u32) -> Duration {
    Duration::from_micros((50_u64 << tries.min(5)).min(1000))
}

/// The pause before the next try for the lock after `tries` tries, or `None` once the pauses
/// add up to [`BUSY_WAIT`].
fn next_pause(tries: u32) -> Option<Duration> {
    let waited: Duration = (0..tries).map(pause).sum();
    (waited < BUSY_WAIT).then(|| pause(tries))
}

/// `SQLite`'s busy handler of every connection: called with the tries made so far, it sleeps
/// [`next_pause`] and asks for another try (1), or gives up (0: the statement fails with
/// `SQLITE_BUSY`).
unsafe extern "C" fn wait_for_lock(_: *mut c_void, tries: c_int) -> c_int {
    match next_pause(u32::try_from(tries).unwrap_or(0)) {
        Some(pause) => {
            std::thread::sleep(pause);
            1
        }
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_left_to_the_machine_is_twice_its_cores_and_one() {
        assert_eq!(connections_for(0), 3);
        assert_eq!(connections_for(1), 3);
        assert_eq!(connections_for(2), 5);
        assert_eq!(connections_for(16), 33);
        let machine = connections_for(std::thread::available_parallelism().unwrap().get());
        let mut database: Database = serde_json::from_value(serde_json::json!({
            "uri": "sqlite://vendorwatch.sqlite",
            "enable_logging": false,
            "min_connections": 40,
            "max_connections": 0,
            "connect_timeout": 5000,
            "idle_timeout": 500,
        }))
        .unwrap();
        size_to_machine(&mut database);
        assert_eq!(database.max_connections, machine);
        assert_eq!(
            database.min_connections, machine,
            "the minimum kept within the pool"
        );
        database.max_connections = 20;
        database.min_connections = 2;
        size_to_machine(&mut database);
        assert_eq!(
            (database.max_connections, database.min_connections),
            (20, 2)
        );
    }

    #[test]
    fn the_pauses_start_short_and_end_at_the_busy_wait() {
        assert_eq!(pause(0), Duration::from_micros(50));
        assert_eq!(pause(3), Duration::from_micros(400));
        assert_eq!(pause(40), Duration::from_millis(1));
        let tries = (0..100_000).find(|t| next_pause(*t).is_none()).unwrap();
        let waited: Duration = (0..tries).map(pause).sum();
        assert!(waited >= BUSY_WAIT && waited < BUSY_WAIT + Duration::from_millis(2));
    }
}
