pub mod backup;
pub mod content_schedule;
pub mod keyword_ingests;
pub mod mail_previews;
pub mod make_admin;
pub mod outgoing_emails;
pub mod queue_tidy;
pub mod reminders_retake;
pub mod reminders_sweep;
pub mod report_snapshots;
pub mod restore;
pub mod set_plan;
pub mod storage_orphans;
pub mod webhooks;
pub mod weekly_summary;

use loco_rs::{prelude::*, task};

/// The task argument `name` (`name:N`) as a whole number, or `default` when it is not given.
/// Anything else (`-1`, `soon`, `1.5`) is refused before the task does anything.
///
/// # Errors
/// When the argument is given and is not a whole number of at least 0.
pub fn whole_number(vars: &task::Vars, name: &str, default: u32) -> Result<u32> {
    match vars.cli_arg(name) {
        Ok(raw) => raw
            .parse::<u32>()
            .map_err(|_| Error::string(&format!("invalid {name} `{raw}`: use a whole number"))),
        Err(_) => Ok(default),
    }
}
