use loco_rs::prelude::*;

use crate::models::sweep;

/// `cargo loco task reminders_retake`: hands out again the reminders due by today that a sweep
/// claimed and no worker finished within `claim_timeout_seconds` (their job lost with a queue
/// that keeps nothing across a restart, or their worker dead). The scheduler runs it every 10
/// minutes; two runs at once hand each reminder out once, and a reminder is sent once (its
/// claim's token).
pub struct RemindersRetake;

#[async_trait]
impl Task for RemindersRetake {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "reminders_retake".to_string(),
            detail:
                "Hand out again due reminders whose claim went stale (a lost job): reminders_retake"
                    .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, _vars: &task::Vars) -> Result<()> {
        // As `reminders_sweep`: the queue's tables may not exist yet in a task's process.
        if let Some(queue) = &ctx.queue_provider {
            queue.setup().await?;
        }
        let retaken = sweep::retake_stale_claims(ctx).await?;
        println!("reminders retake: {retaken} reminders whose claim went stale handed to workers");
        Ok(())
    }
}
