//! Every connection of the app's `SQLite` pool runs with the same settings (Loco set them on
//! one connection only: the others waited for an fsync at each commit).

use loco_rs::boot::StartMode;
use sea_orm::{sqlx::Row, DatabaseBackend};

use crate::support::boot_with;

#[tokio::test]
async fn every_sqlite_connection_has_the_pools_settings() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let db = &boot.app_context.db;
    if db.get_database_backend() != DatabaseBackend::Sqlite {
        return; // PostgreSQL: nothing of this applies.
    }
    let pool = db.get_sqlite_connection_pool();
    // Four connections held at once: the pool has to open new ones.
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(pool.acquire().await.unwrap());
    }
    for conn in &mut held {
        let row = sea_orm::sqlx::query(
            "SELECT (SELECT synchronous FROM pragma_synchronous), \
             (SELECT journal_mode FROM pragma_journal_mode), \
             (SELECT foreign_keys FROM pragma_foreign_keys), \
             (SELECT timeout FROM pragma_busy_timeout)",
        )
        .fetch_one(&mut **conn)
        .await
        .unwrap();
        let settings: (i64, String, i64, i64) = (row.get(0), row.get(1), row.get(2), row.get(3));
        // The busy timeout reads 0: the pool's busy handler (`src/infra/db_pool.rs`) replaced
        // SQLite's (sqlx sets 5 s), and it waits as tried below.
        assert_eq!(
            settings,
            (1, "wal".to_string(), 1, 0),
            "NORMAL, WAL, FKs, our busy handler"
        );
    }
    // Each connection waits for the write lock another holds, and takes it once free.
    let (mut first, rest) = held.split_first_mut().unwrap();
    for waiting in rest {
        sea_orm::sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut **first)
            .await
            .unwrap();
        let started = std::time::Instant::now();
        let release = async {
            tokio::time::sleep(std::time::Duration::from_millis(150)).await;
            sea_orm::sqlx::query("COMMIT")
                .execute(&mut **first)
                .await
                .unwrap();
        };
        let take = sea_orm::sqlx::query("BEGIN IMMEDIATE").execute(&mut **waiting);
        let ((), taken) = tokio::join!(release, take);
        taken.expect("waited for the lock rather than failing at once");
        let waited = started.elapsed();
        assert!(
            waited >= std::time::Duration::from_millis(140),
            "took the lock only once it was free: {waited:?}"
        );
        sea_orm::sqlx::query("COMMIT")
            .execute(&mut **waiting)
            .await
            .unwrap();
        first = waiting;
    }
}

/// The embedded queue's pool too: Loco opened it with `SQLite`'s defaults (a rollback journal,
/// and an fsync at every commit, two commits per job).
#[tokio::test]
async fn every_embedded_queue_connection_has_the_pools_settings() {
    let dir = tempfile::tempdir().unwrap();
    let config = loco_rs::config::SqliteQueueConfig {
        uri: format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("queue.sqlite").display()
        ),
        dangerously_flush: false,
        enable_logging: false,
        max_connections: 4,
        min_connections: 1,
        connect_timeout: 5_000,
        idle_timeout: 10_000,
        poll_interval_sec: 1,
        num_workers: 2,
        reaper: None,
    };
    let pool = vendorwatch::workers::embedded_queue_pool(&config)
        .await
        .unwrap();
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(pool.acquire().await.unwrap());
    }
    for conn in &mut held {
        let row = sea_orm::sqlx::query(
            "SELECT (SELECT synchronous FROM pragma_synchronous), \
             (SELECT journal_mode FROM pragma_journal_mode), \
             (SELECT timeout FROM pragma_busy_timeout)",
        )
        .fetch_one(&mut **conn)
        .await
        .unwrap();
        let settings: (i64, String, i64) = (row.get(0), row.get(1), row.get(2));
        assert_eq!(settings, (1, "wal".to_string(), 5000), "NORMAL, WAL, 5 s");
    }
}
