use std::path::PathBuf;

use loco_rs::prelude::*;

use crate::{mailers::previews, settings::Settings};

/// `cargo loco task mail_previews [dir:tmp/mail-previews]`: writes every email template,
/// rendered with sample values, as `<area>-<name>.html` (and `.txt`), to open in a browser, at a
/// phone's width too. The browser tests open them at 375 px (`frontend/e2e/emails.spec.ts`).
pub struct MailPreviews;

#[async_trait]
impl Task for MailPreviews {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "mail_previews".to_string(),
            detail: "Write every email rendered with sample values: mail_previews [dir:<folder>]"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let dir = PathBuf::from(vars.cli_arg("dir").map_or("tmp/mail-previews", |d| d));
        let settings = Settings::from_context(ctx)?;
        std::fs::create_dir_all(&dir)?;
        let all = previews::all(&settings.app_url)?;
        for preview in &all {
            let stem = preview.name.replace('/', "-");
            std::fs::write(dir.join(format!("{stem}.html")), &preview.content.html)?;
            std::fs::write(dir.join(format!("{stem}.txt")), &preview.content.text)?;
        }
        println!("{} emails written to {}", all.len(), dir.display());
        Ok(())
    }
}
