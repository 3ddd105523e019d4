//! The app's clock. The system's, unless a test fixed it in the app's shared store
//! (`ctx.shared_store.insert(Clock::fixed(..))`): the requests' "today" (each organization's
//! local date) and the scheduled sweeps read it, so a test can stand at any instant, say 23:30
//! UTC, 16:30 in Los Angeles, without waiting for it.

use chrono::{DateTime, Utc};
use loco_rs::app::AppContext;

/// The system clock, or a fixed instant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    fixed: Option<DateTime<Utc>>,
}

impl Clock {
    /// A clock that always says `at`.
    #[must_use]
    pub fn fixed(at: DateTime<Utc>) -> Self {
        Self { fixed: Some(at) }
    }

    /// The time now.
    #[must_use]
    pub fn now(self) -> DateTime<Utc> {
        self.fixed.unwrap_or_else(Utc::now)
    }

    /// The app's clock: the one in its shared store, else the system's.
    #[must_use]
    pub fn from_context(ctx: &AppContext) -> Self {
        ctx.shared_store.get::<Self>().unwrap_or_default()
    }
}
