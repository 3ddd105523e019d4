use chrono::Duration;
use loco_rs::prelude::*;

use super::whole_number;
use crate::{
    models::outgoing_emails::{self, MAX_ATTEMPTS},
    workers::outgoing_email::{OutgoingEmailArgs, OutgoingEmailWorker},
};

/// At most this many emails queued again per run (the next run takes the rest).
const BATCH: u64 = 1_000;

/// `cargo loco task outgoing_emails [min_age_minutes:10] [keep_days:7]`: queues again every
/// email kept more than `min_age_minutes` ago and still unsent (its job was lost with the
/// queue, its worker died, or the mail server refused it: up to 10 attempts), and deletes sent
/// ones and ones given up on after `keep_days` (until then each run logs the given-up ones as
/// an error). The scheduler runs it every 10 minutes.
pub struct OutgoingEmails;

#[async_trait]
impl Task for OutgoingEmails {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "outgoing_emails".to_string(),
            detail: "Queue again the emails still unsent and delete old sent or given-up ones: \
                     outgoing_emails [min_age_minutes:10] [keep_days:7]"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let minutes = whole_number(vars, "min_age_minutes", 10)?;
        let keep_days = whole_number(vars, "keep_days", 7)?;
        let unsent = outgoing_emails::unsent(
            &ctx.db,
            Duration::minutes(i64::from(minutes)),
            MAX_ATTEMPTS,
            BATCH,
        )
        .await?;
        let mut refused = 0;
        for &id in &unsent {
            // With jobs run in the task's own process (ForegroundBlocking), an error is the mail
            // server's refusal: the email was given back for the next run.
            if OutgoingEmailWorker::perform_later(ctx, OutgoingEmailArgs { id })
                .await
                .is_err()
            {
                refused += 1;
            }
        }
        let deleted =
            outgoing_emails::prune(&ctx.db, Duration::days(i64::from(keep_days)), MAX_ATTEMPTS)
                .await?;
        let given_up = outgoing_emails::given_up(&ctx.db, MAX_ATTEMPTS).await?;
        if given_up > 0 {
            tracing::error!(
                given_up,
                "emails refused {MAX_ATTEMPTS} times are no longer tried (outgoing_emails.last_error says why)"
            );
        }
        println!(
            "outgoing emails: {} queued again ({refused} refused at once), {deleted} sent or given up deleted, {given_up} given up after {MAX_ATTEMPTS} attempts",
            unsent.len()
        );
        Ok(())
    }
}
