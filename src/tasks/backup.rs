use std::path::PathBuf;

use loco_rs::prelude::*;

use crate::{app::App, infra::backup};
use loco_rs::app::Hooks;

/// `cargo loco task backup [file:backups/vendorwatch-<time>.zip]`: the database and every
/// stored file in one archive (`backup`), while the app keeps running.
pub struct Backup;

#[async_trait]
impl Task for Backup {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "backup".to_string(),
            detail:
                "Back up the database and the stored files into one ZIP archive: backup [file:PATH]"
                    .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let file = vars.cli_arg("file").map_or_else(
            |_| {
                PathBuf::from("backups").join(format!(
                    "vendorwatch-{}.zip",
                    chrono::Utc::now().format("%Y%m%dT%H%M%SZ")
                ))
            },
            PathBuf::from,
        );
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let manifest = backup::write(ctx, &file, &<App as Hooks>::app_version()).await?;
        println!(
            "backup written to {}: the {} database and {} files ({} missing: deleted after the snapshot)",
            file.display(),
            manifest.database,
            manifest.files.len(),
            manifest.missing.len()
        );
        Ok(())
    }
}
