//! Post views, counted in memory and written in batches: reading a post never waits on a
//! write. Each process adds its counts to the rows every few seconds (and when the admin's
//! stats are read), so nothing is counted twice.

use std::{
    collections::HashMap,
    sync::{LazyLock, Mutex},
};

use loco_rs::prelude::*;
use sea_orm::sea_query::{Expr, ExprTrait};

use super::{Column, Entity};

static PENDING: LazyLock<Mutex<HashMap<i64, i64>>> = LazyLock::new(Mutex::default);

/// One more view of post `id`, written later.
pub fn count(id: i64) {
    if let Ok(mut pending) = PENDING.lock() {
        *pending.entry(id).or_default() += 1;
    }
}

/// Writes the views counted so far; the counts are taken out before the write, and put back
/// if it fails.
///
/// # Errors
/// Database errors.
pub async fn flush(db: &DatabaseConnection) -> Result<()> {
    let taken: HashMap<i64, i64> = PENDING
        .lock()
        .map(|mut p| std::mem::take(&mut *p))
        .unwrap_or_default();
    for (id, n) in &taken {
        let written = Entity::update_many()
            .col_expr(Column::Views, Expr::col(Column::Views).add(*n))
            .filter(Column::Id.eq(*id))
            .exec(db)
            .await;
        if let Err(err) = written {
            if let Ok(mut pending) = PENDING.lock() {
                *pending.entry(*id).or_default() += n;
            }
            return Err(err.into());
        }
    }
    Ok(())
}

/// Flushes every 10 seconds for the life of the process (started once, with the server).
pub fn start_flushing(db: DatabaseConnection) {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(10));
            loop {
                tick.tick().await;
                if let Err(err) = flush(&db).await {
                    tracing::warn!(error = %err, "could not write the blog's view counts");
                }
            }
        });
    });
}
