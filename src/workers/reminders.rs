//! Sends the claimed reminders of one organization. The job carries only the reminders' ids and
//! the claim token; the worker re-reads the rest, so a job that waited in the queue acts on
//! today's data, and a job whose claims were taken over (they went stale, or another job of the
//! same organization gathered them first) does nothing.

use chrono::NaiveDate;
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::models::{documents::today, reminders};

pub struct ReminderWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReminderArgs {
    /// The job's first reminder: jobs enqueued before reminders were grouped carry this one
    /// only (and a worker of that version reads this one of a newer job).
    pub reminder_id: i64,
    /// The job's other reminders, of the same organization and claim.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_reminder_ids: Vec<i64>,
    pub claim_token: String,
    /// The day the sweep claimed them for (`None` in jobs enqueued before the field existed:
    /// today).
    #[serde(default)]
    pub due_by: Option<NaiveDate>,
}

impl ReminderArgs {
    /// The job of `ids` (at least one) claimed with `token` by a sweep of `day`.
    ///
    /// # Panics
    /// When `ids` is empty.
    #[must_use]
    pub fn new(mut ids: Vec<i64>, token: &str, day: NaiveDate) -> Self {
        let first = ids.remove(0);
        Self {
            reminder_id: first,
            more_reminder_ids: ids,
            claim_token: token.to_string(),
            due_by: Some(day),
        }
    }

    /// Every reminder of the job.
    #[must_use]
    pub fn reminder_ids(&self) -> Vec<i64> {
        std::iter::once(self.reminder_id)
            .chain(self.more_reminder_ids.iter().copied())
            .collect()
    }
}

#[async_trait]
impl BackgroundWorker<ReminderArgs> for ReminderWorker {
    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// An email the mail server refused (its reminders stay pending for the next sweep), or a
    /// database error.
    async fn perform(&self, args: ReminderArgs) -> Result<()> {
        let result: Result<()> = async {
            let due_by = args.due_by.unwrap_or_else(today);
            let ids = args.reminder_ids();
            let delivered =
                reminders::Model::deliver_all(&self.ctx, &ids, &args.claim_token, due_by).await?;
            tracing::debug!(reminders = ?ids, ?delivered, "reminder job done");
            Ok(())
        }
        .await;
        crate::infra::observability::job_done("reminder", &result);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_enqueued_before_grouping_reads_as_a_job_of_one_reminder() {
        let old: ReminderArgs = serde_json::from_value(serde_json::json!({
            "reminder_id": 7, "claim_token": "t", "due_by": "2026-03-10"
        }))
        .unwrap();
        assert_eq!(old.reminder_ids(), vec![7]);
        let older: ReminderArgs =
            serde_json::from_value(serde_json::json!({"reminder_id": 7, "claim_token": "t"}))
                .unwrap();
        assert_eq!(older.due_by, None);
    }

    #[test]
    fn a_grouped_job_keeps_its_first_reminder_where_older_workers_read_it() {
        let day = NaiveDate::from_ymd_opt(2026, 3, 10).unwrap();
        let job = serde_json::to_value(ReminderArgs::new(vec![3, 5, 9], "t", day)).unwrap();
        assert_eq!(job["reminder_id"], 3);
        assert_eq!(job["more_reminder_ids"], serde_json::json!([5, 9]));
        let back: ReminderArgs = serde_json::from_value(job).unwrap();
        assert_eq!(back.reminder_ids(), vec![3, 5, 9]);
    }
}
