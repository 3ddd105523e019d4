//! Per-client rate limits ([`budget`]): login attempts per address and email, password-reset
//! requests, portal key checks and uploads, registrations and failed sign-ins per address,
//! the calls that make the server call Stripe, per organization, and the calls of each API key.
//! Each is counted in Redis when one is configured, so every server process behind a proxy
//! shares one budget (with N servers a per-process count would allow N times as much); else in
//! this process.

mod budget;

use std::{sync::Arc, time::Duration};

use loco_rs::prelude::*;

pub use self::budget::{Budget, RedisWindows};
use crate::settings::Settings;

/// The limiters of one server process, shared through the app context.
#[derive(Clone)]
pub struct RateLimiters {
    /// Sign-in attempts per address and email.
    pub login: Arc<Budget>,
    /// Password-reset requests per address.
    pub forgot: Arc<Budget>,
    /// Portal company-key checks (wrong keys, on upload) per address.
    pub portal_keys: Arc<Budget>,
    /// Portal uploads per address.
    pub portal_uploads: Arc<Budget>,
    /// Registrations per address.
    pub registrations: Arc<Budget>,
    /// Failed sign-ins per address, whatever the email.
    pub login_failures: Arc<Budget>,
    /// Checkout sessions started per organization ([`organization_key`]).
    pub checkouts: Arc<Budget>,
    /// Checkout-session look-ups per organization ([`organization_key`]).
    pub checkout_lookups: Arc<Budget>,
    /// Calls per API key, a minute.
    pub api_keys: Arc<Budget>,
}

impl RateLimiters {
    /// The limiters the settings describe. Redis, when configured, is first reached when a
    /// budget is first used.
    ///
    /// # Errors
    /// When `rate_limits.redis_url` is not a Redis URL.
    pub fn new(settings: &Settings) -> Result<Self> {
        let limits = &settings.rate_limits;
        let shared = match limits.redis_url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => Some(Arc::new(
                RedisWindows::new(url, &limits.redis_key_prefix)
                    .map_err(|e| Error::string(&format!("rate_limits.redis_url: {e}")))?,
            )),
            _ => None,
        };
        Ok(Self {
            login: Arc::new(Budget::new(
                "login",
                limits.login_per_minute,
                Duration::from_mins(1),
                shared.clone(),
            )),
            forgot: Arc::new(Budget::new(
                "forgot",
                limits.forgot_per_hour,
                Duration::from_hours(1),
                shared.clone(),
            )),
            portal_keys: Arc::new(Budget::new(
                "portal_keys",
                limits.portal_key_checks,
                Duration::from_secs(limits.portal_window_seconds),
                shared.clone(),
            )),
            portal_uploads: Arc::new(Budget::new(
                "portal_uploads",
                limits.portal_uploads,
                Duration::from_secs(limits.portal_window_seconds),
                shared.clone(),
            )),
            registrations: Arc::new(Budget::new(
                "registrations",
                limits.registrations_per_address,
                Duration::from_secs(limits.registration_window_seconds),
                shared.clone(),
            )),
            login_failures: Arc::new(Budget::new(
                "login_failures",
                limits.login_failures_per_address,
                Duration::from_secs(limits.login_failure_window_seconds),
                shared.clone(),
            )),
            checkouts: Arc::new(Budget::new(
                "checkouts",
                limits.checkouts_per_organization,
                Duration::from_secs(limits.billing_window_seconds),
                shared.clone(),
            )),
            checkout_lookups: Arc::new(Budget::new(
                "checkout_lookups",
                limits.checkout_lookups_per_organization,
                Duration::from_secs(limits.billing_window_seconds),
                shared.clone(),
            )),
            api_keys: Arc::new(Budget::new(
                "api_keys",
                limits.api_key_calls,
                Duration::from_mins(1),
                shared,
            )),
        })
    }

    /// The limiters stored in the context at start-up.
    ///
    /// # Errors
    /// When the app was started without them (a wiring bug).
    pub fn from_context(ctx: &AppContext) -> Result<Self> {
        ctx.shared_store
            .get::<Self>()
            .ok_or_else(|| Error::string("rate limiters are not set up"))
    }
}

/// The key of an organization's budgets: its id, so every member (and every address) of the
/// organization spends the same budget.
#[must_use]
pub fn organization_key(org_id: i64) -> String {
    format!("org:{org_id}")
}

/// The client address as the configured `remote_ip` middleware resolved it.
#[must_use]
pub fn client_key(ip: &RemoteIP) -> String {
    match ip {
        RemoteIP::Forwarded(ip) | RemoteIP::Socket(ip) => ip.to_string(),
        RemoteIP::None => "unknown".to_string(),
    }
}
