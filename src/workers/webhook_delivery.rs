//! Makes one attempt on a webhook delivery (`services::webhooks::deliver`). The job carries
//! only the row's id, on Loco's default queue: a job lost with the queue, or held by a worker
//! that died, leaves the row pending, and the `webhooks` task hands it out again once its hold
//! has passed.

use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

pub struct WebhookDeliveryWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WebhookDeliveryArgs {
    /// `webhook_deliveries.id`.
    pub id: i64,
}

#[async_trait]
impl BackgroundWorker<WebhookDeliveryArgs> for WebhookDeliveryWorker {
    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// Database errors (an endpoint's refusal is recorded on the row, not an error).
    async fn perform(&self, args: WebhookDeliveryArgs) -> Result<()> {
        let result = crate::services::webhooks::deliver(&self.ctx, args.id).await;
        crate::infra::observability::job_done("webhook_delivery", &result);
        result
    }
}
