//! Per-client rate limits: login attempts per address and email, password-reset requests and
//! portal calls, kept in memory per server process with `governor`'s keyed limiters; and the
//! per-address budgets of registrations and failed sign-ins ([`budget`]), shared through Redis
//! when one is configured.

mod budget;

use std::{num::NonZeroU32, sync::Arc, time::Duration};

use governor::{
    clock::{Clock, DefaultClock},
    DefaultKeyedRateLimiter, Quota, RateLimiter,
};
use loco_rs::prelude::*;

pub use self::budget::{Budget, RedisWindows};
use crate::settings::Settings;

/// Keys above this many are pruned of entries that have fully recovered.
const PRUNE_ABOVE: usize = 10_000;

pub struct Limiter {
    inner: DefaultKeyedRateLimiter<String>,
}

impl Limiter {
    #[must_use]
    pub fn new(burst: u32, period: Duration) -> Self {
        let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(period / burst.get())
            .unwrap_or_else(|| Quota::per_second(burst))
            .allow_burst(burst);
        Self {
            inner: RateLimiter::keyed(quota),
        }
    }

    /// Takes one attempt for `key`; `Err(seconds)` says how long to wait when none is left.
    ///
    /// # Errors
    /// The number of seconds until the next attempt is allowed.
    pub fn check(&self, key: &str) -> std::result::Result<(), u64> {
        if self.inner.len() > PRUNE_ABOVE {
            self.inner.retain_recent();
        }
        self.inner.check_key(&key.to_string()).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
        })
    }
}

/// The limiters of one server process, shared through the app context.
#[derive(Clone)]
pub struct RateLimiters {
    pub login: Arc<Limiter>,
    pub forgot: Arc<Limiter>,
    pub portal_keys: Arc<Limiter>,
    pub portal_uploads: Arc<Limiter>,
    /// Registrations per address.
    pub registrations: Arc<Budget>,
    /// Failed sign-ins per address, whatever the email.
    pub login_failures: Arc<Budget>,
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
            login: Arc::new(Limiter::new(
                limits.login_per_minute,
                Duration::from_mins(1),
            )),
            forgot: Arc::new(Limiter::new(
                limits.forgot_per_hour,
                Duration::from_hours(1),
            )),
            portal_keys: Arc::new(Limiter::new(
                limits.portal_key_checks,
                Duration::from_secs(limits.portal_window_seconds),
            )),
            portal_uploads: Arc::new(Limiter::new(
                limits.portal_uploads,
                Duration::from_secs(limits.portal_window_seconds),
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

/// The client address as the configured `remote_ip` middleware resolved it.
#[must_use]
pub fn client_key(ip: &RemoteIP) -> String {
    match ip {
        RemoteIP::Forwarded(ip) | RemoteIP::Socket(ip) => ip.to_string(),
        RemoteIP::None => "unknown".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_burst_then_refuses_with_a_wait() {
        let limiter = Limiter::new(3, Duration::from_mins(1));
        for _ in 0..3 {
            assert!(limiter.check("a").is_ok());
        }
        let wait = limiter.check("a").unwrap_err();
        assert!((1..=20).contains(&wait), "wait was {wait}");
        assert!(limiter.check("b").is_ok(), "other keys are not affected");
    }
}
