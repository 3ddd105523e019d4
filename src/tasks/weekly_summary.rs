use loco_rs::prelude::*;

use crate::{
    models::organizations,
    workers::weekly_summary::{WeeklySummaryArgs, WeeklySummaryWorker},
};

/// `cargo loco task weekly_summary`: queues the weekly summary of every Professional
/// organization for the workers; run on Monday mornings by the scheduler. A second run the
/// same week queues jobs that send nothing.
pub struct WeeklySummary;

#[async_trait]
impl Task for WeeklySummary {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "weekly_summary".to_string(),
            detail: "Queue this week's summary email of every Professional organization"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, _vars: &task::Vars) -> Result<()> {
        let orgs = organizations::Entity::find()
            .filter(organizations::organizations::Column::Plan.eq(organizations::PLAN_PROFESSIONAL))
            .all(&ctx.db)
            .await?;
        for org in &orgs {
            WeeklySummaryWorker::perform_later(
                ctx,
                WeeklySummaryArgs {
                    organization_id: org.id,
                },
            )
            .await?;
        }
        println!("queued the weekly summary of {} organizations", orgs.len());
        Ok(())
    }
}
