use chrono::NaiveDate;
use loco_rs::prelude::*;

use crate::{infra::clock::Clock, models::sweep};

/// `cargo loco task reminders_sweep [date:YYYY-MM-DD]`: the sweep, which the scheduler runs
/// every hour. Without a date it sweeps each organization's latest day whose morning (8:00 in
/// its time zone) has come; with one (an operator's), that day in every organization. Sends
/// the reminders due on or before the day through the background workers and records
/// `document_expired` for documents that have expired. Safe to run again: nothing is sent or
/// recorded twice.
pub struct RemindersSweep;

#[async_trait]
impl Task for RemindersSweep {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "reminders_sweep".to_string(),
            detail:
                "Send due reminders and record expired documents: reminders_sweep [date:YYYY-MM-DD]"
                    .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let day = match vars.cli_arg("date") {
            Ok(raw) => Some(
                NaiveDate::parse_from_str(raw, "%Y-%m-%d")
                    .map_err(|_| Error::string(&format!("invalid date `{raw}`: use YYYY-MM-DD")))?,
            ),
            Err(_) => None,
        };
        // `cargo loco task` and `cargo loco scheduler` do not set the queue up as `start` does:
        // on a database queue (SQLite, PostgreSQL) that no worker has started on yet, the jobs'
        // table would not exist and every job would fail to enqueue. Setting up is idempotent.
        if let Some(queue) = &ctx.queue_provider {
            queue.setup().await?;
        }
        let reports = match day {
            Some(day) => vec![(day, sweep::run(ctx, day).await?)],
            None => sweep::run_due(ctx, Clock::from_context(ctx).now()).await?,
        };
        for (day, report) in reports {
            println!(
                "reminders sweep for {day}: {} reminders handed to workers, {} documents recorded as expired",
                report.reminders_claimed, report.documents_expired
            );
        }
        Ok(())
    }
}
