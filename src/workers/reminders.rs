//! Sends one claimed reminder. The job carries only the reminder's id and the claim token; the
//! worker re-reads the rest, so a job that waited in the queue acts on today's data, and a job
//! whose claim was taken over (it went stale) does nothing.

use chrono::NaiveDate;
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::models::{documents::today, reminders};

pub struct ReminderWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReminderArgs {
    pub reminder_id: i64,
    pub claim_token: String,
    /// The day the sweep claimed it for (`None` in jobs enqueued before the field existed:
    /// today).
    #[serde(default)]
    pub due_by: Option<NaiveDate>,
}

#[async_trait]
impl BackgroundWorker<ReminderArgs> for ReminderWorker {
    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// An email the mail server refused (the reminder stays pending for the next sweep), or a
    /// database error.
    async fn perform(&self, args: ReminderArgs) -> Result<()> {
        let result: Result<()> = async {
            let due_by = args.due_by.unwrap_or_else(today);
            let outcome =
                reminders::Model::deliver(&self.ctx, args.reminder_id, &args.claim_token, due_by)
                    .await?;
            tracing::debug!(reminder = args.reminder_id, ?outcome, "reminder job done");
            Ok(())
        }
        .await;
        crate::observability::job_done("reminder", &result);
        result
    }
}
