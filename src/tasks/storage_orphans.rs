use chrono::Duration;
use loco_rs::prelude::*;

use crate::models::orphan_files;

/// `cargo loco task storage_orphans [min_age_minutes:60] [dry_run:true]`: removes stored files
/// that no document points to (left by a crash between an upload's file and its row) and
/// reports each one. Files younger than `min_age_minutes` are left alone: they may belong to an
/// upload still being recorded. The scheduler runs it once a day.
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
        for key in &report.orphans {
            println!("{verb} {key}");
        }
        for (key, why) in &report.failed {
            println!("could not remove {key}: {why}");
        }
        println!(
            "storage orphans: {} files checked, {} {verb} (no document points to them), {} could not be removed",
            report.checked,
            report.orphans.len(),
            report.failed.len()
        );
        tracing::info!(
            checked = report.checked,
            orphans = report.orphans.len(),
            failed = report.failed.len(),
            dry_run,
            "storage orphans"
        );
        Ok(())
    }
}
