//! Budgets counted in fixed windows (sign-ins, password resets, portal calls, registrations,
//! failed sign-ins): in this process, or in Redis so that every server process spends one
//! shared budget. A fixed window counts the same way in memory and in Redis, and can be looked
//! at without spending from it (the failed sign-in budget is looked at on every attempt but
//! spent only by failures).

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex, PoisonError,
    },
    time::{Duration, Instant},
};

use redis::aio::MultiplexedConnection;

/// Keys above this many are pruned of windows that have ended.
const PRUNE_ABOVE: usize = 10_000;
/// How long a Redis call may take before this process counts on its own.
const REDIS_TIMEOUT: Duration = Duration::from_millis(500);
/// After a failed Redis call, how long to count locally before trying Redis again, so an
/// outage costs one timeout every few seconds rather than one per request.
const REDIS_BACKOFF: Duration = Duration::from_secs(5);

/// Adds one to the key's count, starting its window on the first; answers the count and the
/// milliseconds left in the window. A key that somehow lost its expiry gets one again.
const ADD_SCRIPT: &str = r"
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
";

/// The key's count and the milliseconds left in its window, without counting.
const PEEK_SCRIPT: &str = r"
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
return {count, redis.call('PTTL', KEYS[1])}
";

/// How many attempts a key has made in its current window, and when that window ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub count: u64,
    pub resets_in: Duration,
}

impl Tally {
    /// Whole seconds until the window ends, at least one (a `Retry-After`).
    #[must_use]
    pub fn wait_secs(&self) -> u64 {
        let d = self.resets_in;
        (d.as_secs() + u64::from(d.subsec_nanos() > 0)).max(1)
    }
}

/// Fixed windows kept in this process.
#[derive(Default)]
pub struct LocalWindows {
    /// Per key: the count, and when its window ends.
    windows: Mutex<HashMap<String, (u64, Instant)>>,
}

impl LocalWindows {
    pub fn add(&self, key: &str, window: Duration, now: Instant) -> Tally {
        let mut windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
        if windows.len() > PRUNE_ABOVE {
            windows.retain(|_, (_, ends)| *ends > now);
        }
        let entry = windows.entry(key.to_string()).or_insert((0, now + window));
        if entry.1 <= now {
            *entry = (0, now + window);
        }
        entry.0 += 1;
        Tally {
            count: entry.0,
            resets_in: entry.1 - now,
        }
    }

    pub fn peek(&self, key: &str, now: Instant) -> Tally {
        let windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
        match windows.get(key) {
            Some(&(count, ends)) if ends > now => Tally {
                count,
                resets_in: ends - now,
            },
            _ => Tally {
                count: 0,
                resets_in: Duration::ZERO,
            },
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.windows.lock().unwrap().len()
    }
}

/// Fixed windows kept in Redis (one key per budget and address, expiring with its window),
/// through one multiplexed connection opened on first use and again after a failure.
pub struct RedisWindows {
    client: redis::Client,
    prefix: String,
    connection: tokio::sync::Mutex<Option<MultiplexedConnection>>,
    retry_at: Mutex<Option<Instant>>,
    down: AtomicBool,
    add: redis::Script,
    peek: redis::Script,
}

impl RedisWindows {
    /// Reads the URL; connects only when first used.
    ///
    /// # Errors
    /// When the URL is not a Redis URL.
    pub fn new(url: &str, prefix: &str) -> redis::RedisResult<Self> {
        Ok(Self {
            client: redis::Client::open(url)?,
            prefix: prefix.to_string(),
            connection: tokio::sync::Mutex::new(None),
            retry_at: Mutex::new(None),
            down: AtomicBool::new(false),
            add: redis::Script::new(ADD_SCRIPT),
            peek: redis::Script::new(PEEK_SCRIPT),
        })
    }

    async fn add(&self, key: &str, window: Duration) -> Option<Tally> {
        let window_ms = u64::try_from(window.as_millis()).unwrap_or(u64::MAX).max(1);
        let mut call = self.add.key(format!("{}{key}", self.prefix));
        call.arg(window_ms);
        self.run(&call).await
    }

    async fn peek(&self, key: &str) -> Option<Tally> {
        self.run(&self.peek.key(format!("{}{key}", self.prefix)))
            .await
    }

    /// Runs a script; `None` (logged once per outage) when Redis does not answer in time.
    async fn run(&self, call: &redis::ScriptInvocation<'_>) -> Option<Tally> {
        let retry_at = *self.retry_at.lock().unwrap_or_else(PoisonError::into_inner);
        if retry_at.is_some_and(|at| Instant::now() < at) {
            return None;
        }
        match self.invoke(call).await {
            Ok((count, ttl_ms)) => {
                if self.down.swap(false, Ordering::Relaxed) {
                    tracing::info!("rate-limit Redis answers again: budgets are shared again");
                }
                Some(Tally {
                    count: u64::try_from(count).unwrap_or(0),
                    resets_in: Duration::from_millis(u64::try_from(ttl_ms).unwrap_or(0)),
                })
            }
            Err(error) => {
                *self.connection.lock().await = None;
                *self.retry_at.lock().unwrap_or_else(PoisonError::into_inner) =
                    Some(Instant::now() + REDIS_BACKOFF);
                if !self.down.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        %error,
                        "rate-limit Redis is unreachable: each server process counts the \
                         per-address budgets on its own until it answers"
                    );
                }
                None
            }
        }
    }

    async fn invoke(&self, call: &redis::ScriptInvocation<'_>) -> redis::RedisResult<(i64, i64)> {
        let mut connection = {
            let mut slot = self.connection.lock().await;
            if let Some(connection) = slot.as_ref() {
                connection.clone()
            } else {
                let config = redis::AsyncConnectionConfig::new()
                    .set_connection_timeout(Some(REDIS_TIMEOUT))
                    .set_response_timeout(Some(REDIS_TIMEOUT));
                let connection = self
                    .client
                    .get_multiplexed_async_connection_with_config(&config)
                    .await?;
                slot.insert(connection).clone()
            }
        };
        call.invoke_async(&mut connection).await
    }
}

/// At most `limit` attempts per address in each window of `window`.
pub struct Budget {
    name: &'static str,
    limit: u64,
    window: Duration,
    local: LocalWindows,
    shared: Option<Arc<RedisWindows>>,
}

impl Budget {
    /// A budget counted in `shared` when given, else in this process. `name` keeps the keys of
    /// different budgets apart in Redis.
    #[must_use]
    pub fn new(
        name: &'static str,
        limit: u32,
        window: Duration,
        shared: Option<Arc<RedisWindows>>,
    ) -> Self {
        Self {
            name,
            limit: u64::from(limit.max(1)),
            window: window.max(Duration::from_secs(1)),
            local: LocalWindows::default(),
            shared,
        }
    }

    /// Counts one attempt for `key`, and refuses it when that is past the budget.
    ///
    /// # Errors
    /// The seconds until the window ends, when the budget is spent.
    pub async fn spend(&self, key: &str) -> std::result::Result<(), u64> {
        let tally = self.add(key).await;
        if tally.count > self.limit {
            Err(tally.wait_secs())
        } else {
            Ok(())
        }
    }

    /// Refuses when `key` has spent the budget, without counting this attempt (which
    /// [`Self::record`] counts if it turns out to be a failure). Attempts checked at the same
    /// moment may overshoot the budget by as many as are in flight.
    ///
    /// # Errors
    /// The seconds until the window ends, when the budget is spent.
    pub async fn check(&self, key: &str) -> std::result::Result<(), u64> {
        let tally = match self.shared.as_ref() {
            Some(redis) => match redis.peek(&self.shared_key(key)).await {
                Some(tally) => tally,
                None => self.local.peek(key, Instant::now()),
            },
            None => self.local.peek(key, Instant::now()),
        };
        if tally.count >= self.limit {
            Err(tally.wait_secs())
        } else {
            Ok(())
        }
    }

    /// Counts one attempt (a failure) for `key`.
    pub async fn record(&self, key: &str) {
        self.add(key).await;
    }

    // When Redis is configured but does not answer, this process counts on its own (fails
    // open to a per-process budget): failing closed would lock every user out of signing in
    // and signing up for as long as Redis is down, while the per-process count still slows an
    // attacker as much as it does without Redis.
    async fn add(&self, key: &str) -> Tally {
        if let Some(redis) = self.shared.as_ref() {
            if let Some(tally) = redis.add(&self.shared_key(key), self.window).await {
                return tally;
            }
        }
        self.local.add(key, self.window, Instant::now())
    }

    fn shared_key(&self, key: &str) -> String {
        format!("{}:{key}", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: Duration = Duration::from_hours(1);

    #[test]
    fn a_window_counts_each_key_until_it_ends_then_starts_again() {
        let windows = LocalWindows::default();
        let start = Instant::now();
        assert_eq!(windows.add("a", HOUR, start).count, 1);
        let later = start + Duration::from_mins(10);
        let tally = windows.add("a", HOUR, later);
        assert_eq!(tally.count, 2);
        assert_eq!(
            tally.resets_in,
            Duration::from_mins(50),
            "the window does not slide"
        );
        assert_eq!(windows.add("b", HOUR, later).count, 1, "keys count apart");
        assert_eq!(windows.peek("a", later).count, 2, "peeking does not count");
        assert_eq!(windows.peek("a", later).count, 2);

        let next = start + HOUR;
        assert_eq!(windows.peek("a", next).count, 0, "the window has ended");
        let tally = windows.add("a", HOUR, next);
        assert_eq!(tally.count, 1);
        assert_eq!(tally.resets_in, HOUR);
    }

    #[test]
    fn ended_windows_are_pruned_once_there_are_many_keys() {
        let windows = LocalWindows::default();
        let start = Instant::now();
        for n in 0..=PRUNE_ABOVE {
            windows.add(&n.to_string(), Duration::from_secs(1), start);
        }
        windows.add("late", HOUR, start + Duration::from_secs(2));
        assert_eq!(windows.len(), 1);
    }

    #[test]
    fn a_wait_is_whole_seconds_rounded_up_and_never_zero() {
        let tally = |ms| Tally {
            count: 1,
            resets_in: Duration::from_millis(ms),
        };
        assert_eq!(tally(0).wait_secs(), 1);
        assert_eq!(tally(1500).wait_secs(), 2);
        assert_eq!(tally(2000).wait_secs(), 2);
    }

    #[tokio::test]
    async fn spending_allows_the_budget_then_refuses_until_the_window_ends() {
        let budget = Budget::new("test", 3, HOUR, None);
        for _ in 0..3 {
            assert_eq!(budget.spend("1.2.3.4").await, Ok(()));
        }
        let wait = budget.spend("1.2.3.4").await.unwrap_err();
        assert!((3590..=3600).contains(&wait), "wait was {wait}");
        assert_eq!(budget.spend("5.6.7.8").await, Ok(()), "another address");
    }

    #[tokio::test]
    async fn checking_never_spends_and_recorded_failures_do() {
        let budget = Budget::new("test", 2, HOUR, None);
        for _ in 0..5 {
            assert_eq!(budget.check("1.2.3.4").await, Ok(()));
        }
        budget.record("1.2.3.4").await;
        assert_eq!(budget.check("1.2.3.4").await, Ok(()));
        budget.record("1.2.3.4").await;
        let wait = budget.check("1.2.3.4").await.unwrap_err();
        assert!((3590..=3600).contains(&wait), "wait was {wait}");
        assert_eq!(budget.check("5.6.7.8").await, Ok(()), "another address");
    }

    #[tokio::test]
    async fn an_unreachable_redis_leaves_the_count_to_this_process() {
        let redis = RedisWindows::new("redis://127.0.0.1:1/", "test:").unwrap();
        let budget = Budget::new("test", 2, HOUR, Some(Arc::new(redis)));
        assert_eq!(budget.spend("1.2.3.4").await, Ok(()));
        assert_eq!(budget.spend("1.2.3.4").await, Ok(()));
        assert!(budget.spend("1.2.3.4").await.is_err());
        assert!(budget.check("1.2.3.4").await.is_err());
    }

    #[test]
    fn a_url_that_is_not_redis_is_refused() {
        assert!(RedisWindows::new("http://example.com", "test:").is_err());
    }
}
