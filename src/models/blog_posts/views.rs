//! Post views: a reader adds at most one view to a post a day, however often they load it.
//!
//! Reads are noted in memory as (post, reader) pairs and written in batches: reading a post never
//! waits on a write. Each batch inserts the pairs into `blog_post_readers`, where a unique index
//! on (post, day, reader) keeps the first of the day, and adds to each post only the pairs that
//! were new. Several server processes therefore count a reader once between them, and nothing is
//! counted twice. The server flushes every few seconds from start-up (`start_flushing`), the
//! admin's stats flush first, and rows older than yesterday are deleted as batches are written.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex},
};

use chrono::{Days, NaiveDate, Utc};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait, OnConflict},
    TransactionTrait,
};
use sha2::{Digest, Sha256};

use super::{Column, Entity};
use crate::models::_entities::blog_post_readers;

/// Pairs noted and not yet written, by day (a batch that spans midnight keeps each day's own).
type Pending = HashMap<(NaiveDate, i64), HashSet<String>>;

/// Pairs kept in memory at most between two writes; past it further reads are not counted
/// until the next write (a flood of invented readers cannot grow the process without bound).
const MAX_PENDING: usize = 100_000;

/// The pairs not yet written, and how many there are (kept, not counted on every read).
#[derive(Default)]
struct Noted {
    pending: Pending,
    pairs: usize,
}

/// The reads a process noted and has not written yet; one per application context (kept in its
/// shared store), so two apps in one process (the tests) never write each other's.
#[derive(Clone, Default)]
pub struct Reads(Arc<Mutex<Noted>>);

impl Reads {
    /// The context's reads.
    ///
    /// # Errors
    /// When the context was not set up by the app (`App::after_context` puts them there).
    pub fn of(ctx: &AppContext) -> Result<Self> {
        ctx.shared_store
            .get::<Self>()
            .ok_or_else(|| Error::string("blog reads are not set up"))
    }

    /// Notes that `reader` read post `id` today; written by the next flush.
    pub fn count(&self, id: i64, reader: String) {
        let day = Utc::now().date_naive();
        let Ok(mut noted) = self.0.lock() else {
            return;
        };
        if noted.pairs < MAX_PENDING && noted.pending.entry((day, id)).or_default().insert(reader) {
            noted.pairs += 1;
        }
    }

    /// Writes the reads noted so far: each new (post, day, reader) adds one view. The pairs are
    /// taken out before the write and put back if it fails.
    ///
    /// # Errors
    /// Database errors.
    pub async fn flush(&self, db: &DatabaseConnection) -> Result<()> {
        let taken: Pending = self
            .0
            .lock()
            .map(|mut noted| std::mem::take(&mut *noted).pending)
            .unwrap_or_default();
        if taken.is_empty() {
            return Ok(());
        }
        if let Err(err) = write(db, &taken).await {
            if let Ok(mut noted) = self.0.lock() {
                for (key, readers) in taken {
                    let mine = noted.pending.entry(key).or_default();
                    let before = mine.len();
                    mine.extend(readers);
                    let added = mine.len() - before;
                    noted.pairs += added;
                }
            }
            return Err(err);
        }
        Ok(())
    }

    /// Flushes every 10 seconds for the life of the process; started once, when the server
    /// starts.
    pub fn start_flushing(&self, db: DatabaseConnection) {
        static STARTED: std::sync::Once = std::sync::Once::new();
        let reads = self.clone();
        STARTED.call_once(|| {
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(std::time::Duration::from_secs(10));
                loop {
                    tick.tick().await;
                    if let Err(err) = reads.flush(&db).await {
                        tracing::warn!(error = %err, "could not write the blog's view counts");
                    }
                }
            });
        });
    }
}

/// Who is reading, as a digest that names nobody: the day, the client address and its user
/// agent under the server's secret. The same person is another reader tomorrow.
#[must_use]
pub fn reader(secret: &str, day: NaiveDate, address: &str, user_agent: &str) -> String {
    let mut hash = Sha256::new();
    for part in [secret, &day.to_string(), address, user_agent] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hex::encode(&hash.finalize()[..16])
}

async fn write(db: &DatabaseConnection, taken: &Pending) -> Result<()> {
    let txn = db.begin().await?;
    let now = Utc::now();
    for ((day, id), readers) in taken {
        let readers: Vec<&String> = readers.iter().collect();
        let mut new = 0;
        // Batches within SQLite's limit on bound values in one statement.
        for batch in readers.chunks(500) {
            let rows = batch.iter().map(|reader| blog_post_readers::ActiveModel {
                post_id: Set(*id),
                day: Set(*day),
                reader: Set((*reader).clone()),
                created_at: Set(now.into()),
                updated_at: Set(now.into()),
                ..Default::default()
            });
            new += blog_post_readers::Entity::insert_many(rows)
                .on_conflict(
                    OnConflict::columns([
                        blog_post_readers::Column::PostId,
                        blog_post_readers::Column::Day,
                        blog_post_readers::Column::Reader,
                    ])
                    .do_nothing()
                    .to_owned(),
                )
                .exec_without_returning(&txn)
                .await?;
        }
        if new > 0 {
            Entity::update_many()
                .col_expr(
                    Column::Views,
                    Expr::col(Column::Views).add(i64::try_from(new).unwrap_or(i64::MAX)),
                )
                .filter(Column::Id.eq(*id))
                .exec(&txn)
                .await?;
        }
    }
    if let Some(yesterday) = now.date_naive().checked_sub_days(Days::new(1)) {
        blog_post_readers::Entity::delete_many()
            .filter(blog_post_readers::Column::Day.lt(yesterday))
            .exec(&txn)
            .await?;
    }
    txn.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_is_the_same_within_a_day_and_another_the_next() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 26).unwrap();
        let next = day.succ_opt().unwrap();
        let one = reader("s", day, "203.0.113.9", "Firefox");
        assert_eq!(one, reader("s", day, "203.0.113.9", "Firefox"));
        assert_ne!(one, reader("s", next, "203.0.113.9", "Firefox"));
        assert_ne!(one, reader("s", day, "203.0.113.10", "Firefox"));
        assert_ne!(one, reader("s", day, "203.0.113.9", "Chrome"));
        assert_ne!(one, reader("t", day, "203.0.113.9", "Firefox"));
        // Parts are separated: moving a character from one to the next is another reader.
        assert_ne!(
            reader("s", day, "1.2.3.4", "5x"),
            reader("s", day, "1.2.3.45", "x")
        );
        assert_eq!(one.len(), 32);
    }
}
