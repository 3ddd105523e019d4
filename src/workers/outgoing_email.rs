//! Sends one email the app kept (`models::outgoing_emails`). The job carries only the row's id,
//! on Loco's `mailer` queue: a job lost with the queue, or held by a worker that died, leaves
//! the row unsent, and the `outgoing_emails` task queues it again.

use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

pub struct OutgoingEmailWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OutgoingEmailArgs {
    /// `outgoing_emails.id`.
    pub id: i64,
}

#[async_trait]
impl BackgroundWorker<OutgoingEmailArgs> for OutgoingEmailWorker {
    fn queue() -> Option<String> {
        Some("mailer".to_string())
    }

    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// The mail server's refusal (the email is kept for the task), or a database error.
    async fn perform(&self, args: OutgoingEmailArgs) -> Result<()> {
        let result = crate::mailers::send_kept(&self.ctx, args.id).await;
        crate::infra::observability::job_done("outgoing_email", &result);
        result
    }
}
