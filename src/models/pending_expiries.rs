//! Documents whose expiry the daily sweep has still to record: one narrow row per current
//! document with an expiration date (and the id its `document_expired` entry will have), kept
//! beside its reminders (set and dropped together), and deleted by the sweep in the same
//! transaction that writes the entry.
//!
//! A table of its own rather than a flag on `documents`: recording an expiry then deletes a
//! narrow row instead of rewriting a wide one and every index entry that points at it
//! (docs/benchmarks/reminder-sweep.md).

use loco_rs::prelude::*;
use uuid::Uuid;

use super::_entities::documents;
pub use super::_entities::pending_expiries::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// Waits for `document`'s expiry, when it has a date. Called after `clear` (through
    /// `reminders::Model::clear_pending`), as the document's reminders are replaced.
    ///
    /// # Errors
    /// Database errors.
    pub async fn wait_for<C: ConnectionTrait>(db: &C, document: &documents::Model) -> Result<()> {
        if let Some(expiration_date) = document.expiration_date {
            ActiveModel {
                document_id: ActiveValue::Set(document.id),
                expiration_date: ActiveValue::Set(expiration_date),
                // Fixed now so the sweep writes the entry on the server, and writes it once.
                entry_pid: ActiveValue::Set(Some(Uuid::now_v7())),
            }
            .insert(db)
            .await?;
        }
        Ok(())
    }

    /// Stops waiting for the document's expiry (it was superseded).
    ///
    /// # Errors
    /// Database errors.
    pub async fn clear<C: ConnectionTrait>(db: &C, document_id: i64) -> Result<()> {
        Entity::delete_by_id(document_id).exec(db).await?;
        Ok(())
    }
}
