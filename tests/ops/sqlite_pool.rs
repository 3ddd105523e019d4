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
        assert_eq!(
            settings,
            (1, "wal".to_string(), 1, 5000),
            "NORMAL, WAL, FKs, 5 s"
        );
    }
}
