//! Transactions that write, and on `SQLite` their turns.
//!
//! `SQLite` lets one connection write at a time. A write transaction begins `IMMEDIATE`, taking
//! the write lock first, and one that finds it taken polls for it ([`crate::infra::db_pool`]'s
//! busy handler). Under a steady load of writes that polling has no order: whichever waiting
//! connection tries first after a commit wins, so a write can lose the lock many times over
//! (the slowest writes of the mixed load in docs/benchmarks/api.md), and every waiting writer
//! holds one of the pool's connections and a thread while it polls. So in this process the
//! write transactions of one `SQLite` pool take turns first, in the order they asked
//! ([`tokio::sync::Semaphore`] is fair), before they take a connection: the next one begins as
//! soon as the last one ends, and the ones waiting hold nothing. Other processes on the same
//! file (`cargo loco task`, a second server) still meet the busy handler, as writes outside
//! [`begin_write`] do. `PostgreSQL` has no such lock: there a write transaction takes no turn.
//!
//! The one whose turn it is begins on the write lane, a connection beside the pool kept for
//! write transactions ([`give_write_lane`]): on the pool it queued for a connection behind the
//! reads, every later write waiting meanwhile, so each write's wait grew with the reads' queue
//! (docs/benchmarks/api.md, "Ninth pass").

use std::{
    any::Any,
    collections::HashMap,
    future::Future,
    ops::Deref,
    pin::Pin,
    sync::{Arc, LazyLock, Mutex, Weak},
};

use sea_orm::{
    sqlx::sqlite::SqliteConnectOptions, AccessMode, ConnectionTrait, DatabaseConnection,
    DatabaseTransaction, DbBackend, DbErr, ExecResult, IsolationLevel, QueryResult,
    SqliteTransactionMode, Statement, StreamTrait, TransactionError, TransactionOptions,
    TransactionTrait,
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::infra::db_pool::BUSY_WAIT;

/// Begins a transaction that writes. On `SQLite` it takes the write lock at its start
/// (`BEGIN IMMEDIATE`): a deferred transaction that reads first and writes later is refused at
/// once with "database is locked" when another connection wrote in between, which no busy
/// timeout waits out (two uploads at once failed so). Before that, on a pool (not inside a
/// transaction), it waits for its turn among this process's write transactions on the same
/// `SQLite` database (the module's comment), and begins on the write lane when the pool has one;
/// after [`BUSY_WAIT`] without a turn it goes ahead on the pool and waits for the lock as a
/// write of another process would. On `PostgreSQL`, a plain `BEGIN`.
///
/// # Errors
/// When the transaction cannot begin (on `SQLite`: the write lock still held by another
/// connection when the busy timeout runs out).
pub async fn begin_write<C: Writable>(db: &C) -> Result<WriteTransaction, DbErr> {
    let options = TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..Default::default()
    };
    let Some(pool) = (db as &dyn Any).downcast_ref::<DatabaseConnection>() else {
        let txn = db.begin_with_options(options).await?;
        return Ok(WriteTransaction { txn, _turn: None });
    };
    let (turn, lane) = wait_for_turn(pool).await;
    let txn = match &lane {
        Some(writer) => writer.begin_with_options(options).await?,
        None => db.begin_with_options(options).await?,
    };
    Ok(WriteTransaction { txn, _turn: turn })
}

/// What [`begin_write`] begins on: the pool, a transaction, or a [`WriteTransaction`] (the last
/// two give a savepoint, without a turn).
pub trait Writable:
    ConnectionTrait + TransactionTrait<Transaction = DatabaseTransaction> + 'static
{
}

impl<C> Writable for C where
    C: ConnectionTrait + TransactionTrait<Transaction = DatabaseTransaction> + 'static
{
}

/// The turns of each `SQLite` pool of this process and its write lane, by the address of its
/// connect options (shared by every clone of the pool, and kept alive by it). An entry outlives
/// its pool until the next lane is given ([`forget_gone_lanes`]); meanwhile its `owner` keeps
/// the options' allocation, so no later pool's options can take the same address and find a
/// gone pool's lane.
static LANES: LazyLock<Mutex<HashMap<usize, Lane>>> = LazyLock::new(Mutex::default);

/// One `SQLite` pool's write transactions in this process: their turns, one at a time, and the
/// connection they begin on once their turn has come, when the pool has one of its own for them.
struct Lane {
    /// The pool's connect options, gone with the pool.
    owner: Weak<SqliteConnectOptions>,
    turns: Arc<Semaphore>,
    writer: Option<DatabaseConnection>,
}

impl Lane {
    fn of(options: &Arc<SqliteConnectOptions>) -> Self {
        Self {
            owner: Arc::downgrade(options),
            turns: Arc::new(Semaphore::new(1)),
            writer: None,
        }
    }

    fn is_gone(&self) -> bool {
        self.owner.strong_count() == 0
    }
}

/// The lanes of this process, locked.
fn lanes() -> std::sync::MutexGuard<'static, HashMap<usize, Lane>> {
    LANES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `pool`'s lane, a new one (turns, no connection) when it has none yet; `f` of it, under the
/// lock of [`LANES`].
fn with_lane<T>(pool: &DatabaseConnection, f: impl FnOnce(&mut Lane) -> T) -> T {
    let options = pool.get_sqlite_connection_pool().connect_options();
    let mut all = lanes();
    f(all
        .entry(Arc::as_ptr(&options) as usize)
        .or_insert_with(|| Lane::of(&options)))
}

/// Gives the write transactions of `pool` (a `SQLite` pool) `writer`, a pool of one connection
/// to the same database, to begin on once their turn has come: a write then never queues for
/// one of `pool`'s connections behind its reads while holding the turn that every later write
/// waits for ([`crate::infra::db_pool::sqlite`] opens both). Forgets the lanes of pools gone
/// meanwhile, closing their connections.
pub fn give_write_lane(pool: &DatabaseConnection, writer: DatabaseConnection) {
    forget_gone_lanes();
    with_lane(pool, |lane| lane.writer = Some(writer));
}

/// Drops the lanes whose pools are gone (one per booted app in a test process), and with them
/// their connections, which their pools' minimum would otherwise keep open.
fn forget_gone_lanes() {
    let gone: Vec<(usize, Lane)> = lanes().extract_if(|_, lane| lane.is_gone()).collect();
    // Closed outside the lock: dropping a pool closes its idle connection.
    drop(gone);
}

/// This write's turn on `pool`'s database and the lane's connection to begin on, if it has one:
/// `(None, None)` off `SQLite`, or when no turn came within [`BUSY_WAIT`] (a write transaction
/// of this process held open meanwhile, or one begun inside another: it then waits for
/// `SQLite`'s lock on the pool instead, and fails as it would have).
async fn wait_for_turn(
    pool: &DatabaseConnection,
) -> (Option<OwnedSemaphorePermit>, Option<DatabaseConnection>) {
    if pool.get_database_backend() != DbBackend::Sqlite {
        return (None, None);
    }
    let (turns, writer) = with_lane(pool, |lane| (lane.turns.clone(), lane.writer.clone()));
    if let Ok(Ok(permit)) = tokio::time::timeout(BUSY_WAIT, turns.acquire_owned()).await {
        (Some(permit), writer)
    } else {
        tracing::warn!("no turn to write within the busy wait; waiting for SQLite's lock");
        (None, None)
    }
}

/// A write transaction ([`begin_write`]) and, on `SQLite`, its turn, which ends with it
/// (committed, rolled back, or dropped). It is used as the transaction it holds: every query
/// and statement runs on it, and it begins nested transactions (savepoints) as that does.
pub struct WriteTransaction {
    txn: DatabaseTransaction,
    _turn: Option<OwnedSemaphorePermit>,
}

impl WriteTransaction {
    /// Commits, and ends the turn.
    ///
    /// # Errors
    /// When the commit fails (nothing of the transaction stays).
    pub async fn commit(self) -> Result<(), DbErr> {
        self.txn.commit().await
    }

    /// Rolls back, and ends the turn.
    ///
    /// # Errors
    /// When the rollback fails.
    pub async fn rollback(self) -> Result<(), DbErr> {
        self.txn.rollback().await
    }
}

impl Deref for WriteTransaction {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        &self.txn
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for WriteTransaction {
    fn get_database_backend(&self) -> DbBackend {
        ConnectionTrait::get_database_backend(&self.txn)
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        self.txn.execute_raw(stmt).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.txn.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.txn.query_one_raw(stmt).await
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.txn.query_all_raw(stmt).await
    }

    fn support_returning(&self) -> bool {
        self.txn.support_returning()
    }

    fn is_mock_connection(&self) -> bool {
        self.txn.is_mock_connection()
    }
}

impl StreamTrait for WriteTransaction {
    type Stream<'a> = <DatabaseTransaction as StreamTrait>::Stream<'a>;

    fn get_database_backend(&self) -> DbBackend {
        StreamTrait::get_database_backend(&self.txn)
    }

    fn stream_raw<'a>(
        &'a self,
        stmt: Statement,
    ) -> Pin<Box<dyn Future<Output = Result<Self::Stream<'a>, DbErr>> + 'a + Send>> {
        self.txn.stream_raw(stmt)
    }
}

#[async_trait::async_trait]
impl TransactionTrait for WriteTransaction {
    type Transaction = DatabaseTransaction;

    async fn begin(&self) -> Result<DatabaseTransaction, DbErr> {
        self.txn.begin().await
    }

    async fn begin_with_config(
        &self,
        isolation_level: Option<IsolationLevel>,
        access_mode: Option<AccessMode>,
    ) -> Result<DatabaseTransaction, DbErr> {
        self.txn
            .begin_with_config(isolation_level, access_mode)
            .await
    }

    async fn begin_with_options(
        &self,
        options: TransactionOptions,
    ) -> Result<DatabaseTransaction, DbErr> {
        self.txn.begin_with_options(options).await
    }

    async fn transaction<F, T, E>(&self, callback: F) -> Result<T, TransactionError<E>>
    where
        F: for<'c> FnOnce(
                &'c DatabaseTransaction,
            ) -> Pin<Box<dyn Future<Output = Result<T, E>> + Send + 'c>>
            + Send,
        T: Send,
        E: std::fmt::Display + std::fmt::Debug + Send,
    {
        self.txn.transaction(callback).await
    }

    async fn transaction_with_config<F, T, E>(
        &self,
        callback: F,
        isolation_level: Option<IsolationLevel>,
        access_mode: Option<AccessMode>,
    ) -> Result<T, TransactionError<E>>
    where
        F: for<'c> FnOnce(
                &'c DatabaseTransaction,
            ) -> Pin<Box<dyn Future<Output = Result<T, E>> + Send + 'c>>
            + Send,
        T: Send,
        E: std::fmt::Display + std::fmt::Debug + Send,
    {
        self.txn
            .transaction_with_config(callback, isolation_level, access_mode)
            .await
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use sea_orm::{ConnectOptions, Database};

    use super::*;

    /// A pool of `connections` on a new `SQLite` file with a table `t(n)`.
    async fn sqlite(dir: &tempfile::TempDir, connections: u32) -> DatabaseConnection {
        let url = format!("sqlite://{}/writes.sqlite?mode=rwc", dir.path().display());
        let mut options = ConnectOptions::new(url);
        options
            .max_connections(connections)
            .min_connections(0)
            .acquire_timeout(Duration::from_millis(500))
            .sqlx_logging(false);
        let db = Database::connect(options).await.unwrap();
        db.execute_unprepared("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER)")
            .await
            .unwrap();
        db
    }

    fn insert(n: u32) -> Statement {
        Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "INSERT INTO t (n) VALUES (?)",
            [n.into()],
        )
    }

    /// A pool of `connections` as the app opens it, on a new file in `dir`, with a minimum of
    /// one connection and its write lane, with a table `t(n)`.
    async fn app_pool(
        dir: &tempfile::TempDir,
        connections: u32,
        idle_ms: u64,
    ) -> DatabaseConnection {
        let config: loco_rs::config::Database = serde_json::from_value(serde_json::json!({
            "uri": format!("sqlite://{}/lane.sqlite?mode=rwc", dir.path().display()),
            "enable_logging": false,
            "min_connections": 1,
            "max_connections": connections,
            "connect_timeout": 500,
            "idle_timeout": idle_ms,
        }))
        .unwrap();
        let db = crate::infra::db_pool::sqlite(&config)
            .await
            .unwrap()
            .unwrap();
        db.execute_unprepared("CREATE TABLE t (n INTEGER)")
            .await
            .unwrap();
        db
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn write_transactions_take_turns_in_the_order_they_asked() {
        let dir = tempfile::tempdir().unwrap();
        let db = sqlite(&dir, 10).await;
        let first = begin_write(&db).await.unwrap();
        first.execute_raw(insert(0)).await.unwrap();
        let mut writers = Vec::new();
        for n in 1..=8 {
            let db = db.clone();
            writers.push(tokio::spawn(async move {
                let txn = begin_write(&db).await.unwrap();
                txn.execute_raw(insert(n)).await.unwrap();
                txn.commit().await.unwrap();
            }));
            // Each asks well after the one before.
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        first.commit().await.unwrap();
        for writer in writers {
            writer.await.unwrap();
        }
        let order: Vec<u32> = db
            .query_all_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT n FROM t ORDER BY rowid",
            ))
            .await
            .unwrap()
            .iter()
            .map(|row| row.try_get::<u32>("", "n").unwrap())
            .collect();
        assert_eq!(order, (0..=8).collect::<Vec<_>>());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_waiting_for_its_turn_holds_no_connection() {
        let dir = tempfile::tempdir().unwrap();
        let db = sqlite(&dir, 2).await;
        let first = begin_write(&db).await.unwrap();
        first.execute_raw(insert(1)).await.unwrap();
        let waiting: Vec<_> = (2..=3)
            .map(|n| {
                let db = db.clone();
                tokio::spawn(async move {
                    let txn = begin_write(&db).await.unwrap();
                    txn.execute_raw(insert(n)).await.unwrap();
                    txn.commit().await.unwrap();
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        // The pool's second connection is free for a read (its acquire timeout is 500 ms).
        let read = db
            .query_one_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT COUNT(*) AS c FROM t",
            ))
            .await;
        assert!(read.is_ok(), "{read:?}");
        first.commit().await.unwrap();
        for writer in waiting {
            writer.await.unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_whose_turn_came_begins_while_reads_hold_every_connection_of_the_pool() {
        let dir = tempfile::tempdir().unwrap();
        let db = app_pool(&dir, 1, 500).await;
        // A read holds the pool's only connection.
        let read = db.begin().await.unwrap();
        let count = Statement::from_string(DbBackend::Sqlite, "SELECT COUNT(*) AS c FROM t");
        read.query_one_raw(count.clone()).await.unwrap();
        let write = tokio::time::timeout(Duration::from_secs(2), async {
            let txn = begin_write(&db).await?;
            txn.execute_raw(insert(1)).await?;
            txn.commit().await
        })
        .await
        .expect("the write does not wait for the read");
        assert!(write.is_ok(), "{write:?}");
        read.commit().await.unwrap();
        let seen = db
            .query_one_raw(count)
            .await
            .unwrap()
            .unwrap()
            .try_get::<i64>("", "c")
            .unwrap();
        assert_eq!(seen, 1, "the lane's commit is seen through the pool");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_lanes_connection_stays_open_when_idle() {
        let dir = tempfile::tempdir().unwrap();
        let db = app_pool(&dir, 2, 100).await;
        let txn = begin_write(&db).await.unwrap();
        txn.execute_raw(insert(1)).await.unwrap();
        txn.commit().await.unwrap();
        // Several idle timeouts, each a pass of sqlx's reaper.
        tokio::time::sleep(Duration::from_millis(700)).await;
        let writer = with_lane(&db, |lane| lane.writer.clone()).expect("a lane");
        assert_eq!(
            writer.get_sqlite_connection_pool().size(),
            1,
            "the next write finds the lane's connection open"
        );
    }

    #[tokio::test]
    async fn the_lanes_of_gone_pools_are_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let db = app_pool(&dir, 2, 500).await;
        let options = Arc::downgrade(&db.get_sqlite_connection_pool().connect_options());
        let key = options.as_ptr() as usize;
        assert!(lanes().contains_key(&key));
        drop(db);
        // sqlx's maintenance task may hold the pool a moment longer.
        tokio::time::timeout(Duration::from_secs(5), async {
            while options.strong_count() > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the pool is gone");
        forget_gone_lanes();
        // `options` keeps the address: no other pool's lane can be at it.
        assert!(
            !lanes().contains_key(&key),
            "the gone pool's lane and its connection are dropped"
        );
    }

    #[tokio::test]
    async fn a_write_begun_inside_one_is_a_savepoint_without_a_turn() {
        let dir = tempfile::tempdir().unwrap();
        let db = sqlite(&dir, 2).await;
        let outer = begin_write(&db).await.unwrap();
        let inner = tokio::time::timeout(Duration::from_secs(1), begin_write(&*outer))
            .await
            .expect("no wait for a turn")
            .unwrap();
        inner.execute_raw(insert(1)).await.unwrap();
        inner.commit().await.unwrap();
        outer.commit().await.unwrap();
        let count = db
            .query_one_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT COUNT(*) AS c FROM t",
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get::<i64>("", "c")
            .unwrap();
        assert_eq!(count, 1);
    }
}
