use loco_rs::{bgworker::JobStatus, prelude::*};

/// `cargo loco task queue_tidy [failed_days:7]`: deletes the queue's finished jobs. Loco's
/// queues keep every job with its arguments once it is done; an email job carries the whole
/// message (a password-reset link among them), so finished jobs would hold secrets and grow
/// the queue's memory without end. Completed and cancelled jobs go at once; failed ones, kept
/// for inspection (`cargo loco jobs`), after `failed_days`. The scheduler runs it every ten
/// minutes.
pub struct QueueTidy;

#[async_trait]
impl Task for QueueTidy {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "queue_tidy".to_string(),
            detail: "Delete finished jobs from the queue: queue_tidy [failed_days:7]".to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let failed_days = match vars.cli_arg("failed_days") {
            Ok(raw) => raw.parse::<i64>().ok().filter(|d| *d >= 0).ok_or_else(|| {
                Error::string(&format!("invalid failed_days `{raw}`: use a whole number"))
            })?,
            Err(_) => 7,
        };
        let Some(queue) = ctx.queue_provider.as_ref() else {
            println!("queue tidy: no queue configured");
            return Ok(());
        };
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
