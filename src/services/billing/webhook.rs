//! Stripe's webhook events, read: the signature is checked on the raw body (HMAC-SHA256 with
//! the endpoint's secret, at most 5 minutes old, by async-stripe's `Webhook`), and the events
//! the product acts on are reduced to what it needs. Every other event type is accepted and
//! ignored.

use chrono::{DateTime, Utc};
use stripe_webhook::{EventObject, Webhook, WebhookError};

use super::{live, paid_subscription, PaidCheckout};

/// The event type of a completed checkout.
pub const CHECKOUT_COMPLETED: &str = "checkout.session.completed";

/// A Stripe event, as the product reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingEvent {
    pub id: String,
    pub kind: EventKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// `checkout.session.completed`, paid for a subscription as the event tells it: still to
    /// be confirmed with Stripe ([`super::Stripe::confirm`]) before it can upgrade.
    CheckoutCompleted { session_id: String },
    /// A completed checkout Stripe confirmed pays for Professional now.
    CheckoutPaid(PaidCheckout),
    /// `customer.subscription.updated` or `.deleted`.
    Subscription(SubscriptionFacts),
    /// `invoice.payment_failed`.
    PaymentFailed { customer_id: String },
    /// Anything else, a checkout unpaid or not for a subscription included: accepted and
    /// ignored.
    Ignored(String),
}

/// What a subscription event says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionFacts {
    pub customer_id: String,
    pub subscription_id: String,
    /// Stripe's status (`active`, `past_due`, `canceled`, ...).
    pub status: String,
    /// Whether the subscription still gives Professional (active, trialing or past due).
    pub live: bool,
    /// When the current period ends and it renews (none once it is set to end).
    pub renews_at: Option<DateTime<Utc>>,
    /// When it ends, if it is set to end (cancelled at the period's end, or a date).
    pub cancel_at: Option<DateTime<Utc>>,
}

/// Why a webhook request is refused (400).
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("The Stripe-Signature header is missing.")]
    MissingSignature,
    #[error("The signature does not match, or is more than 5 minutes old.")]
    BadSignature,
    #[error("The event could not be read.")]
    Unreadable,
}

fn instant(ts: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(ts, 0)
}

/// Checks the signature of `payload` and reads the event.
///
/// # Errors
/// A missing or wrong signature, a stale timestamp, or a body that is no Stripe event.
pub fn read(payload: &str, signature: Option<&str>, secret: &str) -> Result<BillingEvent, Refused> {
    let signature = signature.ok_or(Refused::MissingSignature)?;
    let event = Webhook::construct_event(payload, signature, secret).map_err(|e| match e {
        WebhookError::BadParse(_) => Refused::Unreadable,
        _ => Refused::BadSignature,
    })?;
    let kind = match event.data.object {
        EventObject::CheckoutSessionCompleted(session) if paid_subscription(&session) => {
            EventKind::CheckoutCompleted {
                session_id: session.id.to_string(),
            }
        }
        EventObject::CustomerSubscriptionUpdated(sub)
        | EventObject::CustomerSubscriptionDeleted(sub) => EventKind::Subscription(facts(&sub)),
        EventObject::InvoicePaymentFailed(invoice) => match invoice.customer.as_ref() {
            Some(customer) => EventKind::PaymentFailed {
                customer_id: customer.id().to_string(),
            },
            None => EventKind::Ignored(event.type_.to_string()),
        },
        _ => EventKind::Ignored(event.type_.to_string()),
    };
    Ok(BillingEvent {
        id: event.id.to_string(),
        kind,
    })
}

fn facts(sub: &stripe_shared::Subscription) -> SubscriptionFacts {
    let live = live(&sub.status);
    let period_end = sub
        .items
        .data
        .iter()
        .map(|item| item.current_period_end)
        .max()
        .and_then(instant);
    let cancel_at = if !live {
        None
    } else if let Some(at) = sub.cancel_at {
        instant(at)
    } else if sub.cancel_at_period_end {
        period_end
    } else {
        None
    };
    SubscriptionFacts {
        customer_id: sub.customer.id().to_string(),
        subscription_id: sub.id.to_string(),
        status: sub.status.as_str().to_string(),
        live,
        renews_at: if live && cancel_at.is_none() {
            period_end
        } else {
            None
        },
        cancel_at,
    }
}
