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
use stripe_shared::{CheckoutSessionMode, CheckoutSessionPaymentStatus};

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

/// What Stripe says of a Checkout session that was paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaidCheckout {
    /// `client_reference_id`: the organization's pid, as the session was created with.
    pub organization_pid: Option<String>,
    pub customer_id: Option<String>,
    pub subscription_id: Option<String>,
}

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

    /// A Checkout session in subscription mode for the Professional price; returns its URL.
    /// Stripe sends the browser back to `/payment-success` with the session's id.
    ///
    /// # Errors
    /// When Stripe refuses or cannot be reached, or answers without a URL.
    pub async fn checkout_url(
        &self,
        org: &organizations::Model,
        customer_id: &str,
        app_url: &str,
    ) -> Result<String> {
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
        session
            .url
            .ok_or_else(|| Error::string("Stripe answered a checkout session without a URL"))
    }

    /// The session, if Stripe knows it and it is paid; `None` for an unknown or unpaid one.
    ///
    /// # Errors
    /// When Stripe cannot be reached or answers with a fault of its own.
    pub async fn paid_checkout(&self, session_id: &str) -> Result<Option<PaidCheckout>> {
        let session = match RetrieveCheckoutSession::new(session_id)
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
        Ok(paid(&session))
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

/// The facts of a paid session; `None` unless Stripe says it is paid.
#[must_use]
pub fn paid(session: &stripe_shared::CheckoutSession) -> Option<PaidCheckout> {
    (session.payment_status == CheckoutSessionPaymentStatus::Paid).then(|| PaidCheckout {
        organization_pid: session.client_reference_id.clone(),
        customer_id: session.customer.as_ref().map(|c| c.id().to_string()),
        subscription_id: session.subscription.as_ref().map(|s| s.id().to_string()),
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
