use loco_rs::{bgworker::JobStatus, prelude::*};

use super::whole_number;

/// `cargo loco task queue_tidy [failed_days:7] [stalled_minutes:30]`: puts jobs a dead worker
/// left in hand back on their queue (`workers::stalled`), and deletes the finished ones. Loco's
/// queues keep every job with its arguments once it is done, so finished jobs would grow the
/// queue's memory without end (our email jobs carry only an `outgoing_emails` id; a Loco
/// mailer job left from before carries the whole message). Completed and cancelled jobs go at once; failed ones, kept
/// for inspection (`cargo loco jobs`), after `failed_days`. The scheduler runs it every ten
/// minutes.
pub struct QueueTidy;

#[async_trait]
impl Task for QueueTidy {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "queue_tidy".to_string(),
            detail: "Requeue stalled jobs and delete finished ones: queue_tidy [failed_days:7] \
                     [stalled_minutes:30]"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let failed_days = i64::from(whole_number(vars, "failed_days", 7)?);
        let stalled_minutes = i64::from(whole_number(vars, "stalled_minutes", 30)?);
        let Some(queue) = ctx.queue_provider.as_ref() else {
            println!("queue tidy: no queue configured");
            return Ok(());
        };
        match crate::workers::stalled::requeue_stalled(
            ctx,
            chrono::Duration::minutes(stalled_minutes),
        )
        .await?
        {
            Some(moved) => println!(
                "queue tidy: {moved} jobs in hand for {stalled_minutes} minutes queued again"
            ),
            None => println!("queue tidy: jobs in hand for {stalled_minutes} minutes queued again"),
        }
        queue
            .clear_by_status(vec![JobStatus::Completed, JobStatus::Cancelled])
            .await?;
        queue
            .clear_jobs_older_than(failed_days, &vec![JobStatus::Failed])
            .await?;
        println!("queue tidy: completed and cancelled jobs deleted, failed ones older than {failed_days} days");
        Ok(())
    }
}
