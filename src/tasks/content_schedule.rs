use chrono::{Duration, Utc};
use loco_rs::prelude::*;

use crate::{
    models::{extractions, generation_jobs},
    settings::Settings,
    workers::generate_post::{GeneratePostArgs, GeneratePostWorker},
};

/// `cargo loco task content_schedule`: queues the weekly plan's AI drafts that are due (each
/// once, however many schedulers run this at once), and again the drafts whose job was lost or
/// whose worker died; and fails the certificate readings whose worker died (they are asked for
/// again by hand). Run by the scheduler every minute.
pub struct ContentSchedule;

#[async_trait]
impl Task for ContentSchedule {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "content_schedule".to_string(),
            detail: "Queue the AI drafts that are due, and those whose worker died; fail stalled certificate readings".to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, _vars: &task::Vars) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        let now = Utc::now();
        let due = generation_jobs::Model::claim_due(&ctx.db, now).await?;
        let stale_after = Duration::seconds(
            i64::try_from(settings.ai.stale_after_seconds).unwrap_or(i64::MAX / 1000),
        );
        let again = generation_jobs::Model::requeue_stale(&ctx.db, now, stale_after).await?;
        // One round trip to the queue for all of them.
        GeneratePostWorker::perform_all_later(
            ctx,
            due.iter()
                .chain(&again)
                .map(|&job_id| GeneratePostArgs { job_id })
                .collect(),
        )
        .await?;
        let failed = extractions::fail_stale(&ctx.db, stale_after).await?;
        println!(
            "queued {} due AI drafts and {} again; {failed} stalled certificate readings failed",
            due.len(),
            again.len()
        );
        Ok(())
    }
}
