use chrono::Duration;
use loco_rs::prelude::*;

use crate::{infra::storage, models::orphan_files, settings::Settings};

/// `cargo loco task storage_orphans [min_age_minutes:60] [dry_run:true]`: removes stored files
/// that no document points to (left by a crash between an upload's file and its row) and
/// reports each one. Files younger than `min_age_minutes` are left alone: they may belong to an
/// upload still being recorded. It also removes the temporary files of uploads a crash
/// interrupted (`storage::temp_dirs`) older than an hour. The scheduler runs it once a
/// day.
pub struct StorageOrphans;

#[async_trait]
impl Task for StorageOrphans {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "storage_orphans".to_string(),
            detail: "Remove stored files no document points to: storage_orphans [min_age_minutes:60] [dry_run:true]"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let minutes = super::whole_number(vars, "min_age_minutes", 60)?;
        let dry_run = vars.cli_arg("dry_run").is_ok_and(|v| v == "true");
        let report =
            orphan_files::sweep(ctx, Duration::minutes(i64::from(minutes)), dry_run).await?;
        let verb = if dry_run { "would remove" } else { "removed" };
        let settings = Settings::from_context(ctx)?;
        let local = (settings.storage.kind == "local")
            .then(|| std::path::Path::new(&settings.storage.local_dir));
        // An hour whatever `min_age_minutes` says: a younger temporary file may be an upload
        // under way in a server process, which would fail without it.
        let stale =
            storage::stale_files(&storage::temp_dirs(local), storage::STALE_AFTER, !dry_run)?;
        for path in &stale {
            println!("{verb} the temporary file {}", path.display());
        }
        for key in &report.orphans {
            println!("{verb} {key}");
        }
        for (key, why) in &report.failed {
            println!("could not remove {key}: {why}");
        }
        println!(
            "storage orphans: {} files checked, {} {verb} (no document points to them), {} could not be removed; {} stale temporary files {verb}",
            report.checked,
            report.orphans.len(),
            report.failed.len(),
            stale.len()
        );
        tracing::info!(
            checked = report.checked,
            orphans = report.orphans.len(),
            failed = report.failed.len(),
            stale_temporary = stale.len(),
            dry_run,
            "storage orphans"
        );
        Ok(())
    }
}
