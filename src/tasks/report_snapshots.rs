use loco_rs::prelude::*;

use crate::{infra::clock::Clock, models::reports};

/// `cargo loco task report_snapshots`: today's compliance snapshot of every organization (the
/// reports' trend); run daily by the scheduler. Running it again the same day changes the
/// day's snapshot, never adds a second one.
pub struct ReportSnapshots;

#[async_trait]
impl Task for ReportSnapshots {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "report_snapshots".to_string(),
            detail: "Take today's compliance snapshot of every organization".to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, _vars: &task::Vars) -> Result<()> {
        let counted = reports::take_all_snapshots(&ctx.db, Clock::from_context(ctx).now()).await?;
        println!("took today's snapshot of {counted} organizations");
        Ok(())
    }
}
