use loco_rs::prelude::*;

use crate::{
    infra::clock::Clock,
    models::webhooks::{changes, deliveries},
    settings::Settings,
    workers::webhook_delivery::{WebhookDeliveryArgs, WebhookDeliveryWorker},
};

/// At most this many deliveries handed out per run (the next run takes the rest).
const BATCH: u64 = 500;

/// `cargo loco task webhooks [changes:true]`: hands every webhook delivery that is due (new,
/// due again after a failed attempt, or held by a worker that died) to a worker, each held for
/// the timeout and a minute; with `changes:true`, first turns what changed since the last look
/// (statuses, gaps, documents expiring or expired) into events; deletes finished deliveries
/// after 30 days. The scheduler runs it every 15 seconds, and with `changes:true` every minute
/// (docs/product.md, "Integrations").
pub struct Webhooks;

#[async_trait]
impl Task for Webhooks {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "webhooks".to_string(),
            detail: "Hand due webhook deliveries to workers; with changes:true, first record the \
                     events of what changed: webhooks [changes:true]"
                .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let now = Clock::from_context(ctx).now();
        if vars.cli_arg("changes").is_ok_and(|v| v == "true") {
            let events = changes::look(&ctx.db, now).await?;
            tracing::info!(events, "webhook events of what changed recorded");
        }
        let settings = Settings::from_context(ctx)?;
        let hold = settings.webhooks.hold();
        let due = deliveries::take_due(&ctx.db, now, hold, BATCH).await?;
        for &id in &due {
            WebhookDeliveryWorker::perform_later(ctx, WebhookDeliveryArgs { id }).await?;
        }
        let pruned = deliveries::prune(&ctx.db, now).await?;
        tracing::info!(handed_out = due.len(), pruned, "webhook deliveries");
        Ok(())
    }
}
