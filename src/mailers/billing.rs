#![allow(non_upper_case_globals)]

use loco_rs::prelude::*;
use serde_json::json;

use crate::{
    models::{
        billing::PlanChanged,
        organizations::{self, Plan},
    },
    settings::Settings,
};

static plan_changed: Dir<'_> = include_dir!("src/mailers/billing/plan_changed");

pub struct BillingMailer;

/// Who changed the plan, which the email says: a payment or its end (Stripe), or the operator
/// (`set_plan`), where no payment was involved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangedBy {
    Billing,
    Operator,
}

impl BillingMailer {
    /// Tells the organization's owner (its first user) that its plan changed, and who changed it.
    ///
    /// # Errors
    /// When the owner cannot be read or the message cannot be rendered or queued.
    pub async fn plan_changed(ctx: &AppContext, change: &PlanChanged, by: ChangedBy) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        let Some(owner) = organizations::Model::owner(&ctx.db, change.org.id).await? else {
            return Ok(());
        };
        let professional = change.org.plan() == Plan::Professional;
        super::deliver(
            ctx,
            &plan_changed,
            &owner.email,
            json!({
                "name": owner.name,
                "organization": change.org.name,
                "professional": professional,
                "byOperator": by == ChangedBy::Operator,
                "vendorLimit": settings.plan_limits(change.org.plan()).vendor_limit,
                "billingUrl": format!("{}/billing", settings.app_url),
                "supportEmail": settings.support_email,
            }),
        )
        .await
    }
}
