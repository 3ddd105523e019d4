//! Paying for Professional through Stripe: Checkout, the upgrade after it, the customer portal
//! and Stripe's webhook (docs/product.md, "Plans and limits"). No handler grants Professional
//! without Stripe saying the organization paid.

use axum::{body::Bytes, http::HeaderMap};
use loco_rs::prelude::*;
use serde::Deserialize;

use super::current::OrgAdmin;
use crate::{
    errors::{api_error, bad_request, conflict, field_error, rate_limited, ApiResult, Envelope},
    infra::rate_limit::{organization_key, RateLimiters},
    mailers::billing::{BillingMailer, ChangedBy},
    models::{
        billing::{self as plans, PlanChanged},
        checkout_sessions,
        organizations::{self, Plan},
    },
    services::billing::{self, webhook},
    settings::Settings,
    views::account::{RedirectUrl, UpgradeResponse, WebhookReceived},
};

/// Starts a Stripe Checkout for the Professional plan; the browser goes to `url`. A session
/// still open from an earlier click is handed back rather than another created; each call
/// spends from the organization's budget (`rate_limits.checkouts_per_organization`).
#[utoipa::path(post, path = "/api/create-subscription", tag = "billing", security(("bearer" = [])),
    responses((status = 200, body = RedirectUrl), (status = 401, body = Envelope), (status = 409, body = Envelope),
        (status = 429, body = Envelope), (status = 503, body = Envelope)))]
async fn create_subscription(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
) -> ApiResult {
    let stripe = billing::configured(&ctx)?;
    if current.org.plan() == Plan::Professional {
        return Err(conflict(
            "already_professional",
            "Your organization is already on the Professional plan.",
        )
        .into());
    }
    RateLimiters::from_context(&ctx)?
        .checkouts
        .spend(&organization_key(current.org.id))
        .await
        .map_err(rate_limited)?;
    if let Some(open) =
        checkout_sessions::latest_reusable(&ctx.db, current.org.id, stripe.price_id()).await?
    {
        if let Some(url) = stripe.open_checkout_url(&open.session_id).await? {
            return super::ok_json(RedirectUrl { url });
        }
    }
    let customer = if let Some(id) = current.org.stripe_customer_id.clone() {
        id
    } else {
        let id = stripe.create_customer(&current.org, &current.user).await?;
        let mut org = current.org.clone().into_active_model();
        org.stripe_customer_id = ActiveValue::Set(Some(id.clone()));
        org.update(&ctx.db).await?;
        id
    };
    let settings = Settings::from_context(&ctx)?;
    let checkout = stripe
        .create_checkout(&current.org, &customer, &settings.app_url)
        .await?;
    checkout_sessions::record_created(
        &ctx.db,
        current.org.id,
        &checkout.session_id,
        stripe.price_id(),
        checkout.expires_at,
    )
    .await?;
    super::ok_json(RedirectUrl { url: checkout.url })
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct UpgradeParams {
    /// The Checkout session the browser came back with (`session_id` of the return URL).
    pub session_id: Option<String>,
}

/// Confirms a payment with Stripe and upgrades; the body may be empty. The session must be
/// this organization's, paid for the Professional price in subscription mode, its subscription
/// live, and never used to upgrade before.
#[utoipa::path(post, path = "/api/upgrade-to-professional", tag = "billing", security(("bearer" = [])),
    request_body(content = Option<UpgradeParams>, content_type = "application/json"),
    responses((status = 200, body = UpgradeResponse), (status = 400, body = Envelope), (status = 401, body = Envelope),
        (status = 402, body = Envelope), (status = 429, body = Envelope), (status = 503, body = Envelope)))]
async fn upgrade(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    body: Bytes,
) -> ApiResult {
    let stripe = billing::configured(&ctx)?;
    let params = upgrade_params(&body)?;
    let upgraded = UpgradeResponse {
        success: true,
        plan: Plan::Professional,
    };
    if current.org.plan() == Plan::Professional {
        return super::ok_json(upgraded);
    }
    let paid = match params
        .session_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        // Stripe's ids are letters, digits and underscores (`cs_test_…`); anything else is no
        // session of ours, and is never put in the address of a call to Stripe.
        Some(id) if id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => {
            RateLimiters::from_context(&ctx)?
                .checkout_lookups
                .spend(&organization_key(current.org.id))
                .await
                .map_err(rate_limited)?;
            stripe.confirmed_checkout(id).await?
        }
        Some(_) | None => None,
    };
    let ours = paid.filter(|p| p.organization_pid.as_deref() == Some(&current.org.pid.to_string()));
    let Some(paid) = ours else {
        return Err(payment_not_confirmed().into());
    };
    let org = current.org.clone();
    if let Some(change) = plans::upgrade_after_checkout(&ctx.db, org, &paid).await? {
        tell_owner(&ctx, &change).await;
    }
    let now = organizations::Model::find_by_id(&ctx.db, current.org.id).await?;
    if now.plan() != Plan::Professional {
        return Err(payment_not_confirmed().into());
    }
    super::ok_json(upgraded)
}

fn payment_not_confirmed() -> Error {
    api_error(
        axum::http::StatusCode::PAYMENT_REQUIRED,
        "payment_not_confirmed",
        "We could not confirm a payment for your organization. Your plan has not changed.",
    )
}

fn upgrade_params(body: &[u8]) -> Result<UpgradeParams> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(UpgradeParams::default());
    }
    let unreadable = |e: serde_json::Error| {
        bad_request(
            "invalid_body",
            &format!("The request body could not be read: {e}"),
        )
    };
    let value: serde_json::Value = serde_json::from_slice(body).map_err(unreadable)?;
    if let Some(field) = super::json::nul_at(&value, "") {
        return Err(field_error(&field, "Text may not contain NUL characters."));
    }
    // `null` is no body too, as the schema's optional body says.
    serde_json::from_value::<Option<UpgradeParams>>(value)
        .map(Option::unwrap_or_default)
        .map_err(unreadable)
}

/// A Stripe customer-portal session: cancel, change the card, see invoices.
#[utoipa::path(post, path = "/api/billing/portal", tag = "billing", security(("bearer" = [])),
    responses((status = 200, body = RedirectUrl), (status = 401, body = Envelope), (status = 409, body = Envelope), (status = 503, body = Envelope)))]
async fn portal(OrgAdmin(current): OrgAdmin, State(ctx): State<AppContext>) -> ApiResult {
    let stripe = billing::configured(&ctx)?;
    let Some(customer) = current.org.stripe_customer_id.as_deref() else {
        return Err(conflict(
            "no_billing_account",
            "Your organization has no billing account yet: upgrade first.",
        )
        .into());
    };
    let settings = Settings::from_context(&ctx)?;
    let url = stripe
        .portal_url(customer, &format!("{}/billing", settings.app_url))
        .await?;
    super::ok_json(RedirectUrl { url })
}

/// Stripe's events: checked against the endpoint's signing secret, each applied once.
#[utoipa::path(post, path = "/api/webhooks/stripe", tag = "billing",
    params(("Stripe-Signature" = String, Header, description = "Stripe's signature of the body (`t=…,v1=…`)")),
    request_body(content = String, content_type = "application/json", description = "A Stripe event, signed in `Stripe-Signature`"),
    responses((status = 200, body = WebhookReceived), (status = 400, body = Envelope), (status = 503, body = Envelope)))]
async fn stripe_webhook(
    State(ctx): State<AppContext>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let secret = settings.billing.webhook_secret.trim();
    if !settings.billing.is_enabled() || secret.is_empty() {
        return Err(crate::errors::billing_not_configured().into());
    }
    let payload = std::str::from_utf8(&body)
        .map_err(|_| bad_request("invalid_webhook", "The event is not UTF-8 text."))?;
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok());
    let event = webhook::read(payload, signature, secret)
        .map_err(|refused| bad_request("invalid_webhook", &refused.to_string()))?;
    if plans::event_seen(&ctx.db, &event.id).await? {
        return super::ok_json(WebhookReceived { received: true });
    }
    let event = billing::configured(&ctx)?.confirm(event).await?;
    if let Some(change) = plans::apply_event(&ctx.db, &event).await? {
        tell_owner(&ctx, &change).await;
    }
    super::ok_json(WebhookReceived { received: true })
}

/// The email to the owner; the plan has changed whatever happens to it.
async fn tell_owner(ctx: &AppContext, change: &PlanChanged) {
    if let Err(err) = BillingMailer::plan_changed(ctx, change, ChangedBy::Billing).await {
        tracing::error!(error = %err, org = change.org.id, "could not send the plan-change email");
    }
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/create-subscription", post(create_subscription))
        .add("/api/upgrade-to-professional", post(upgrade))
        .add("/api/billing/portal", post(portal))
        .add("/api/webhooks/stripe", post(stripe_webhook))
}
