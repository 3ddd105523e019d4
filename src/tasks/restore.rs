use std::path::PathBuf;

use loco_rs::prelude::*;

use crate::infra::backup;

/// `cargo loco task restore file:PATH confirm:yes`: puts a `backup` archive back, replacing
/// every row and writing every file. Stop the servers and workers first.
pub struct Restore;

#[async_trait]
impl Task for Restore {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "restore".to_string(),
            detail: "Replace the database and the stored files with a backup archive's: restore file:PATH confirm:yes"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let file = PathBuf::from(
            vars.cli_arg("file")
                .map_err(|_| Error::string("give the archive: restore file:PATH confirm:yes"))?,
        );
        if !vars.cli_arg("confirm").is_ok_and(|v| v == "yes") {
            return Err(Error::string(
                "restore replaces every row and file with the archive's: add confirm:yes",
            ));
        }
        let manifest = backup::restore(ctx, &file).await?;
        println!(
            "restored {} (taken {}): the {} database and {} files",
            file.display(),
            manifest.created_at,
            manifest.database,
            manifest.files.len()
        );
        Ok(())
    }
}
