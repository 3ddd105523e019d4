use chrono::{Datelike, Weekday};
use loco_rs::prelude::*;

use crate::{
    infra::clock::Clock,
    models::{organizations, weekly_summaries},
    workers::weekly_summary::{week_start, WeeklySummaryArgs, WeeklySummaryWorker},
};

/// `cargo loco task weekly_summary`: queues the weekly summary of every Professional
/// organization whose Monday morning (8:00 in its time zone) has come and whose summary of the
/// week is not taken yet; the scheduler runs it every hour. A job queued twice sends once.
pub struct WeeklySummary;

#[async_trait]
impl Task for WeeklySummary {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "weekly_summary".to_string(),
            detail: "Queue this week's summary email of every Professional organization whose \
                     Monday morning has come"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, _vars: &task::Vars) -> Result<()> {
        let now = Clock::from_context(ctx).now();
        let orgs = organizations::Entity::find()
            .filter(
                organizations::organizations::Column::Plan.eq(organizations::Plan::Professional),
            )
            .all(&ctx.db)
            .await?;
        let mut queued = 0;
        for org in &orgs {
            let day = organizations::swept_day(org.zone(), now);
            if day.weekday() != Weekday::Mon
                || weekly_summaries::is_taken(&ctx.db, org.id, week_start(day)).await?
            {
                continue;
            }
            WeeklySummaryWorker::perform_later(
                ctx,
                WeeklySummaryArgs {
                    organization_id: org.id,
                    day: Some(day),
                },
            )
            .await?;
            queued += 1;
        }
        println!("queued the weekly summary of {queued} organizations");
        Ok(())
    }
}
