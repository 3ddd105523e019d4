//! Stripe, as the product uses it: a Checkout session for the Professional plan, the look-up of
//! a session the browser came back with, and the customer portal (docs/product.md, "Plans and
//! limits"). Webhook events are read in `billing/webhook.rs`. Everything here talks to Stripe
//! through the async-stripe client; `settings.billing.api_base` points it elsewhere in tests.

use loco_rs::prelude::*;
use stripe_billing::billing_portal_session::CreateBillingPortalSession;
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, RetrieveCheckoutSession,
};
use stripe_core::customer::CreateCustomer;
use stripe_shared::{
    CheckoutSessionMode, CheckoutSessionPaymentStatus, CheckoutSessionStatus, SubscriptionStatus,
};

use self::webhook::{BillingEvent, EventKind};
use crate::{
    models::{organizations, users},
    settings::{BillingSettings, Settings},
};

pub mod webhook;

/// Stripe, configured; `None` from [`Stripe::from_settings`] when billing is off.
pub struct Stripe {
    client: stripe::Client,
    price_id: String,
}

/// What Stripe says of a Checkout session that pays for Professional now: in subscription
/// mode, paid, for the configured Professional price, and its subscription live
/// ([`Stripe::confirmed_checkout`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaidCheckout {
    /// Stripe's `cs_...` id: a session upgrades at most once.
    pub session_id: String,
    /// `client_reference_id`: the organization's pid, as the session was created with.
    pub organization_pid: Option<String>,
    pub customer_id: Option<String>,
    pub subscription_id: Option<String>,
    /// The Professional price the session was paid for.
    pub price_id: String,
}

/// A Checkout session the browser can be sent to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenCheckout {
    pub session_id: String,
    pub url: String,
    /// When Stripe expires it.
    pub expires_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// What a session is looked up with: its line items (for the price paid) and its
/// subscription (for whether it is still live), in one call.
const CONFIRM_EXPAND: [&str; 2] = ["line_items", "subscription"];

fn stripe_error(what: &str, err: &stripe::StripeError) -> Error {
    Error::string(&format!(
        "Stripe refused or could not be reached ({what}): {err}"
    ))
}

impl Stripe {
    /// The client for these settings, or `None` when no secret key is configured.
    ///
    /// # Errors
    /// When the configured API base is not a URL.
    pub fn from_settings(billing: &BillingSettings) -> Result<Option<Self>> {
        if !billing.is_enabled() {
            return Ok(None);
        }
        crate::install_tls_provider();
        let mut builder = stripe::ClientBuilder::new(billing.stripe_secret_key.trim());
        if !billing.api_base.trim().is_empty() {
            builder = builder.url(billing.api_base.trim());
        }
        let client = builder
            .build()
            .map_err(|e| Error::string(&format!("the Stripe client: {e}")))?;
        Ok(Some(Self {
            client,
            price_id: billing.professional_price_id.trim().to_string(),
        }))
    }

    /// The organization's Stripe customer, created on first use (the caller keeps its id).
    ///
    /// # Errors
    /// When Stripe refuses or cannot be reached.
    pub async fn create_customer(
        &self,
        org: &organizations::Model,
        owner: &users::Model,
    ) -> Result<String> {
        let customer = CreateCustomer::new()
            .email(owner.email.clone())
            .name(org.name.clone())
            .metadata(std::collections::HashMap::from([(
                "organization".to_string(),
                org.pid.to_string(),
            )]))
            .send(&self.client)
            .await
            .map_err(|e| stripe_error("create a customer", &e))?;
        Ok(customer.id.to_string())
    }

    /// The configured Professional price.
    #[must_use]
    pub fn price_id(&self) -> &str {
        &self.price_id
    }

    /// A new Checkout session in subscription mode for the Professional price. Stripe sends
    /// the browser back to `/payment-success` with the session's id.
    ///
    /// # Errors
    /// When Stripe refuses or cannot be reached, or answers without a URL.
    pub async fn create_checkout(
        &self,
        org: &organizations::Model,
        customer_id: &str,
        app_url: &str,
    ) -> Result<OpenCheckout> {
        let mut item = CreateCheckoutSessionLineItems::new();
        item.price = Some(self.price_id.clone());
        item.quantity = Some(1);
        let session = CreateCheckoutSession::new()
            .mode(CheckoutSessionMode::Subscription)
            .customer(customer_id)
            .client_reference_id(org.pid.to_string())
            .line_items(vec![item])
            .success_url(format!(
                "{app_url}/payment-success?session_id={{CHECKOUT_SESSION_ID}}&upgrade_success=true"
            ))
            .cancel_url(format!("{app_url}/dashboard"))
            .send(&self.client)
            .await
            .map_err(|e| stripe_error("create a checkout session", &e))?;
        let url = session
            .url
            .ok_or_else(|| Error::string("Stripe answered a checkout session without a URL"))?;
        Ok(OpenCheckout {
            session_id: session.id.to_string(),
            url,
            expires_at: chrono::DateTime::from_timestamp(session.expires_at, 0),
        })
    }

    /// The URL of the session if Stripe says it is still open (neither paid nor expired);
    /// `None` otherwise, or when Stripe no longer knows it.
    ///
    /// # Errors
    /// When Stripe cannot be reached or answers with a fault of its own.
    pub async fn open_checkout_url(&self, session_id: &str) -> Result<Option<String>> {
        match RetrieveCheckoutSession::new(session_id)
            .send(&self.client)
            .await
        {
            Ok(session) => Ok(session
                .url
                .filter(|_| session.status == Some(CheckoutSessionStatus::Open))),
            Err(stripe::StripeError::Stripe(_, status)) if (400..500).contains(&status) => Ok(None),
            Err(e) => Err(stripe_error("look up a checkout session", &e)),
        }
    }

    /// The session, if Stripe knows it and it pays for Professional now (see
    /// [`professional`]); `None` for an unknown, unpaid, ended or other kind of session.
    ///
    /// # Errors
    /// When Stripe cannot be reached or answers with a fault of its own.
    pub async fn confirmed_checkout(&self, session_id: &str) -> Result<Option<PaidCheckout>> {
        let session = match RetrieveCheckoutSession::new(session_id)
            .expand(CONFIRM_EXPAND.map(String::from).to_vec())
            .send(&self.client)
            .await
        {
            Ok(session) => session,
            // A forged or foreign id: Stripe answers 404 (or 400 for a malformed one).
            Err(stripe::StripeError::Stripe(_, status)) if (400..500).contains(&status) => {
                return Ok(None)
            }
            Err(e) => return Err(stripe_error("look up a checkout session", &e)),
        };
        Ok(professional(&session, &self.price_id))
    }

    /// A webhook event, with a completed checkout confirmed with Stripe: the event carries
    /// neither the session's line items nor its subscription's state now, and a session paid
    /// for anything but Professional (a Payment Link's one-off payment) must upgrade nothing.
    /// Other events are returned as they are.
    ///
    /// # Errors
    /// When Stripe cannot be reached (the event is then not handled, and Stripe sends it again).
    pub async fn confirm(&self, event: BillingEvent) -> Result<BillingEvent> {
        let EventKind::CheckoutCompleted { session_id } = &event.kind else {
            return Ok(event);
        };
        let kind = match self.confirmed_checkout(session_id).await? {
            Some(paid) => EventKind::CheckoutPaid(paid),
            None => EventKind::Ignored(webhook::CHECKOUT_COMPLETED.to_string()),
        };
        Ok(BillingEvent { id: event.id, kind })
    }

    /// A customer-portal session (cancel, change card, invoices); returns its URL.
    ///
    /// # Errors
    /// When Stripe refuses or cannot be reached.
    pub async fn portal_url(&self, customer_id: &str, return_url: &str) -> Result<String> {
        let session = CreateBillingPortalSession::new()
            .customer(customer_id)
            .return_url(return_url)
            .send(&self.client)
            .await
            .map_err(|e| stripe_error("create a billing portal session", &e))?;
        Ok(session.url)
    }
}

/// Whether a session says it was paid for a subscription: what a webhook event is first
/// read for, before it is confirmed with Stripe.
#[must_use]
pub fn paid_subscription(session: &stripe_shared::CheckoutSession) -> bool {
    session.mode == CheckoutSessionMode::Subscription
        && session.payment_status == CheckoutSessionPaymentStatus::Paid
}

/// Whether a subscription in this status gives Professional: active, trialing, or past due
/// (Stripe is still trying the card). Every other status, one Stripe adds later included, has
/// ended it or never started it.
#[must_use]
pub fn live(status: &SubscriptionStatus) -> bool {
    matches!(
        status,
        SubscriptionStatus::Active | SubscriptionStatus::Trialing | SubscriptionStatus::PastDue
    )
}

/// The facts of a session looked up with its line items and subscription expanded, if it pays
/// for Professional now: subscription mode, paid, a line item of `price_id`, and its
/// subscription live. `None` otherwise (a subscription Stripe did not expand counts as not
/// live).
#[must_use]
pub fn professional(
    session: &stripe_shared::CheckoutSession,
    price_id: &str,
) -> Option<PaidCheckout> {
    if !paid_subscription(session) || price_id.is_empty() {
        return None;
    }
    let for_price = session.line_items.as_ref().is_some_and(|items| {
        items.data.iter().any(|item| {
            item.price
                .as_ref()
                .is_some_and(|p| p.id.as_str() == price_id)
        })
    });
    let subscription = session.subscription.as_ref()?.as_object()?;
    (for_price && live(&subscription.status)).then(|| PaidCheckout {
        session_id: session.id.to_string(),
        organization_pid: session.client_reference_id.clone(),
        customer_id: session.customer.as_ref().map(|c| c.id().to_string()),
        subscription_id: Some(subscription.id.to_string()),
        price_id: price_id.to_string(),
    })
}

/// Stripe for this context, or the 503 every billing call answers when billing is off.
///
/// # Errors
/// `billing_not_configured` when no key is configured.
pub fn configured(ctx: &AppContext) -> Result<Stripe> {
    let settings = Settings::from_context(ctx)?;
    Stripe::from_settings(&settings.billing)?.ok_or_else(crate::errors::billing_not_configured)
}
