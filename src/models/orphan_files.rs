//! Files in storage that no document points to. An upload writes its file before its row, in a
//! task that removes the file when the row is refused; only a crash between the two (or an
//! older version's dropped request) leaves one behind. The `storage_orphans` task finds them.

use std::{collections::HashSet, path::Path};

use chrono::{DateTime, Duration, Utc};
use loco_rs::prelude::*;

use super::_entities::documents;

/// Where uploads are stored: `documents/<organization pid>/<generated name>`.
pub const DOCUMENTS_FOLDER: &str = "documents";

/// What a run found and did.
#[derive(Debug, Default)]
pub struct OrphanReport {
    /// Files looked at.
    pub checked: usize,
    /// Files no row points to, old enough to be no upload in flight: removed unless a dry run.
    pub orphans: Vec<String>,
    /// Orphans that could not be removed, with why.
    pub failed: Vec<(String, String)>,
}

/// Every storage key a document row (current or history) points to.
async fn referenced_keys(db: &DatabaseConnection) -> Result<HashSet<String>> {
    Ok(documents::Entity::find()
        .select_only()
        .column(documents::Column::StorageKey)
        .into_tuple::<String>()
        .all(db)
        .await?
        .into_iter()
        .collect())
}

/// Finds the files under `documents/` that no row points to and that were written before
/// `older_than` ago (a younger one may be an upload whose row is being committed), and removes
/// them unless `dry_run`.
///
/// # Errors
/// Storage listing and database errors; a file that cannot be removed is reported, not fatal.
pub async fn sweep(ctx: &AppContext, older_than: Duration, dry_run: bool) -> Result<OrphanReport> {
    let cutoff: DateTime<Utc> = Utc::now() - older_than;
    let entries = ctx
        .storage
        .list(Path::new(DOCUMENTS_FOLDER), true)
        .await
        .map_err(|e| Error::string(&format!("could not list stored files: {e}")))?;
    // Read after the listing: a row committed in between still counts.
    let referenced = referenced_keys(&ctx.db).await?;
    let mut report = OrphanReport::default();
    for entry in entries.into_iter().filter(|e| !e.is_dir) {
        report.checked += 1;
        let key = entry.path.trim_start_matches('/').to_string();
        if referenced.contains(&key) {
            continue;
        }
        let modified = match entry.last_modified {
            Some(at) => Some(at),
            None => ctx
                .storage
                .stat(Path::new(&key))
                .await
                .ok()
                .and_then(|s| s.last_modified),
        };
        if modified.is_none_or(|at| at > cutoff) {
            continue;
        }
        if !dry_run {
            if let Err(err) = ctx.storage.delete(Path::new(&key)).await {
                report.failed.push((key, err.to_string()));
                continue;
            }
        }
        report.orphans.push(key);
    }
    Ok(report)
}
