//! The product's own configuration: the `settings:` block of `config/<env>.yaml`.

use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Settings {
    /// Where the app is reached; links in emails start with it.
    pub app_url: String,
    /// The support contact shown in the footer and used as the mail reply-to.
    pub support_email: String,
    pub plans: Plans,
    pub mail: MailSettings,
    #[serde(default)]
    pub rate_limits: RateLimits,
    #[serde(default)]
    pub security: Security,
    #[serde(default = "default_reset_ttl")]
    pub reset_token_ttl_minutes: i64,
    /// How long an invitation's link works.
    #[serde(default = "default_invitation_ttl")]
    pub invitation_ttl_days: i64,
    #[serde(default)]
    pub storage: StorageSettings,
    #[serde(default)]
    pub reminders: ReminderSettings,
    #[serde(default)]
    pub billing: BillingSettings,
    #[serde(default)]
    pub bulk: BulkSettings,
    #[serde(default)]
    pub ai: AiSettings,
    #[serde(default)]
    pub metrics: MetricsSettings,
    #[serde(default)]
    pub webhooks: WebhookSettings,
    /// How long a stopping server lets the requests in flight finish (`graceful`).
    #[serde(default = "default_shutdown_grace")]
    pub shutdown_grace_seconds: u64,
    /// Megabytes of computed answers kept per process (`answer_cache`); 0 keeps none.
    #[serde(default = "default_answer_cache_mb")]
    pub answer_cache_mb: u64,
}

/// Prometheus metrics (`observability`): off unless `listen` names an address (`METRICS_LISTEN`,
/// e.g. `127.0.0.1:9464`), where this process answers scrapes on a port of its own.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct MetricsSettings {
    #[serde(default)]
    pub listen: String,
}

/// The content engine's AI drafts: any OpenAI-compatible chat completions API. With no key (the
/// default set-up) generation is off and its calls answer 503 `ai_not_configured`.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AiSettings {
    /// The API key; empty means AI generation is off.
    #[serde(default)]
    pub api_key: String,
    /// The API's base URL, up to and including `/v1`; empty for `OpenAI` itself.
    #[serde(default)]
    pub base_url: String,
    #[serde(default = "default_ai_model")]
    pub model: String,
    /// How long one request may take before the job fails with a timeout.
    #[serde(default = "default_ai_timeout")]
    pub timeout_seconds: u64,
    /// US dollars per million prompt tokens and per million completion tokens: the job's
    /// recorded cost (the defaults are `gpt-4o-mini`'s list prices).
    #[serde(default = "default_ai_input_price")]
    pub input_usd_per_million_tokens: f64,
    #[serde(default = "default_ai_output_price")]
    pub output_usd_per_million_tokens: f64,
    /// A job still running after this long belonged to a worker that died: the next scheduler
    /// run queues it again (at most three attempts). Longer than any request can take.
    #[serde(default = "default_ai_stale")]
    pub stale_after_seconds: u64,
    /// Whether the model reads images: certificates that are photos or scans (no text layer)
    /// are then sent as images; otherwise their reading is `unavailable`, saying why.
    #[serde(default)]
    pub vision: bool,
}

impl Default for AiSettings {
    fn default() -> Self {
        Self {
            api_key: String::new(),
            base_url: String::new(),
            model: default_ai_model(),
            timeout_seconds: default_ai_timeout(),
            input_usd_per_million_tokens: default_ai_input_price(),
            output_usd_per_million_tokens: default_ai_output_price(),
            stale_after_seconds: default_ai_stale(),
            vision: false,
        }
    }
}

impl AiSettings {
    #[must_use]
    pub fn is_enabled(&self) -> bool {
        !self.api_key.trim().is_empty()
    }
}

fn default_ai_model() -> String {
    "gpt-4o-mini".to_string()
}

const fn default_ai_timeout() -> u64 {
    120
}

const fn default_ai_input_price() -> f64 {
    0.15
}

const fn default_ai_output_price() -> f64 {
    0.60
}

const fn default_ai_stale() -> u64 {
    900
}

/// The Professional plan's bulk calls.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct BulkSettings {
    /// The most ids one bulk call takes.
    #[serde(default = "default_bulk_max_ids")]
    pub max_ids: usize,
}

impl Default for BulkSettings {
    fn default() -> Self {
        Self {
            max_ids: default_bulk_max_ids(),
        }
    }
}

const fn default_bulk_max_ids() -> usize {
    500
}

/// Stripe billing. With no secret key (the default set-up) billing is off: the billing calls
/// answer 503 `billing_not_configured` and the `set_plan` task is the way to change a plan.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct BillingSettings {
    /// Stripe's secret key (`sk_...`); empty means billing is off.
    #[serde(default)]
    pub stripe_secret_key: String,
    /// The recurring price of the Professional plan (`price_...`).
    #[serde(default)]
    pub professional_price_id: String,
    /// The signing secret of the webhook endpoint (`whsec_...`).
    #[serde(default)]
    pub webhook_secret: String,
    /// Where the Stripe API is; empty for Stripe itself (`https://api.stripe.com/`). Tests
    /// point it at a server of their own.
    #[serde(default)]
    pub api_base: String,
}

impl BillingSettings {
    #[must_use]
    pub fn is_enabled(&self) -> bool {
        !self.stripe_secret_key.trim().is_empty()
    }
}

/// Where uploaded files live: a local folder, or an S3-compatible bucket.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct StorageSettings {
    /// `local` or `s3`.
    pub kind: String,
    pub local_dir: String,
    #[serde(default)]
    pub s3: Option<S3Settings>,
}

impl Default for StorageSettings {
    fn default() -> Self {
        Self {
            kind: "local".to_string(),
            local_dir: "storage".to_string(),
            s3: None,
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct S3Settings {
    pub bucket: String,
    pub region: String,
    /// For S3-compatible services (`MinIO`, moto, R2...); empty for AWS itself.
    #[serde(default)]
    pub endpoint: String,
    pub access_key_id: String,
    pub secret_access_key: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ReminderSettings {
    /// Days before the expiration date a reminder is due (0 = on the day).
    pub offsets_days: Vec<u32>,
    /// Reminders claimed (and expiries recorded) per database round trip of the sweep; at most
    /// `sweep::MAX_BATCH_SIZE`.
    #[serde(default = "default_sweep_batch")]
    pub batch_size: u64,
    /// A claim older than this is taken to belong to a worker that died, and the next sweep
    /// claims the reminder again. Longer than any one reminder's sending can take.
    #[serde(default = "default_claim_timeout")]
    pub claim_timeout_seconds: u64,
    /// After this many claims a reminder that keeps failing (a dead address) is left alone.
    #[serde(default = "default_max_attempts")]
    pub max_attempts: i32,
}

impl Default for ReminderSettings {
    fn default() -> Self {
        Self {
            offsets_days: vec![30, 7, 0],
            batch_size: default_sweep_batch(),
            claim_timeout_seconds: default_claim_timeout(),
            max_attempts: default_max_attempts(),
        }
    }
}

const fn default_sweep_batch() -> u64 {
    5000
}

const fn default_invitation_ttl() -> i64 {
    7
}

const fn default_claim_timeout() -> u64 {
    900
}

const fn default_max_attempts() -> i32 {
    10
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Plans {
    pub free: PlanLimits,
    pub professional: PlanLimits,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct PlanLimits {
    pub vendor_limit: u64,
    /// Current documents per vendor; `None` means no limit.
    pub documents_per_vendor: Option<u64>,
    pub price_cents: u64,
    /// People in the organization plus pending invitations.
    pub seats: u64,
    /// Certificates read with AI in a calendar month (UTC), by hand or on upload.
    #[serde(default = "default_ai_readings")]
    pub ai_readings_per_month: u64,
}

const fn default_ai_readings() -> u64 {
    20
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct MailSettings {
    pub from: String,
    /// With no SMTP server configured, every email is written here as an `.eml` file.
    pub outbox_dir: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RateLimits {
    /// Login attempts allowed per minute for one address and email.
    pub login_per_minute: u32,
    /// Password-reset requests allowed per hour for one address.
    pub forgot_per_hour: u32,
    /// Company-key checks (portal validation, and uploads naming an unknown key) allowed per
    /// window for one address: a handful, so 8-character keys cannot be guessed.
    #[serde(default = "default_portal_key_checks")]
    pub portal_key_checks: u32,
    /// Portal uploads allowed per window for one address.
    #[serde(default = "default_portal_uploads")]
    pub portal_uploads: u32,
    /// The portal limits' window, in seconds.
    #[serde(default = "default_portal_window")]
    pub portal_window_seconds: u64,
    /// Registrations allowed per window for one address.
    #[serde(default = "default_registrations")]
    pub registrations_per_address: u32,
    #[serde(default = "default_registration_window")]
    pub registration_window_seconds: u64,
    /// Failed sign-ins allowed per window for one address, whatever the emails (a password
    /// sprayed over many accounts); successful sign-ins do not count. Past it, every sign-in
    /// from the address is refused until the window ends.
    #[serde(default = "default_login_failures")]
    pub login_failures_per_address: u32,
    #[serde(default = "default_login_failure_window")]
    pub login_failure_window_seconds: u64,
    /// `POST /api/create-subscription` calls allowed per window for one organization: each
    /// asks Stripe for a Checkout session (or for the state of the one still open), and the
    /// Stripe account's own rate limit is shared by every customer.
    #[serde(default = "default_checkouts")]
    pub checkouts_per_organization: u32,
    /// Checkout-session look-ups (`POST /api/upgrade-to-professional` with a session id)
    /// allowed per window for one organization.
    #[serde(default = "default_checkout_lookups")]
    pub checkout_lookups_per_organization: u32,
    /// The window of both, in seconds.
    #[serde(default = "default_billing_window")]
    pub billing_window_seconds: u64,
    /// Calls one API key may make per minute (docs/product.md, "Integrations").
    #[serde(default = "default_api_key_calls")]
    pub api_key_calls: u32,
    /// When set (and not empty), the per-address budgets above are counted in this Redis, so
    /// that every server process spends the same budget; otherwise each process counts alone.
    #[serde(default)]
    pub redis_url: Option<String>,
    /// Put before every key of the budgets in Redis.
    #[serde(default = "default_redis_key_prefix")]
    pub redis_key_prefix: String,
}

const fn default_portal_key_checks() -> u32 {
    10
}
const fn default_portal_uploads() -> u32 {
    30
}
const fn default_portal_window() -> u64 {
    60
}
const fn default_registrations() -> u32 {
    10
}
const fn default_registration_window() -> u64 {
    3600
}
const fn default_login_failures() -> u32 {
    20
}
const fn default_login_failure_window() -> u64 {
    900
}
const fn default_api_key_calls() -> u32 {
    600
}
const fn default_checkouts() -> u32 {
    10
}
const fn default_checkout_lookups() -> u32 {
    10
}
const fn default_billing_window() -> u64 {
    600
}
fn default_redis_key_prefix() -> String {
    "vendorwatch:rate:".to_string()
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            login_per_minute: 5,
            forgot_per_hour: 5,
            portal_key_checks: default_portal_key_checks(),
            portal_uploads: default_portal_uploads(),
            portal_window_seconds: default_portal_window(),
            registrations_per_address: default_registrations(),
            registration_window_seconds: default_registration_window(),
            login_failures_per_address: default_login_failures(),
            login_failure_window_seconds: default_login_failure_window(),
            checkouts_per_organization: default_checkouts(),
            checkout_lookups_per_organization: default_checkout_lookups(),
            billing_window_seconds: default_billing_window(),
            api_key_calls: default_api_key_calls(),
            redis_url: None,
            redis_key_prefix: default_redis_key_prefix(),
        }
    }
}

/// Webhooks out (docs/product.md, "Integrations").
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WebhookSettings {
    /// Let endpoints be on private, loopback and link-local addresses (tests, a private
    /// network); off, such targets are refused when added and when delivered to.
    #[serde(default)]
    pub allow_private_targets: bool,
    /// How long a delivery waits for the endpoint's answer before it counts as failed.
    #[serde(default = "default_webhook_timeout")]
    pub timeout_seconds: u64,
}

const fn default_webhook_timeout() -> u64 {
    10
}

impl WebhookSettings {
    /// How long a delivery handed to a worker is held: the attempt's timeout and a minute.
    /// Past it, a worker that died with the delivery no longer keeps it from the next.
    #[must_use]
    pub fn hold(&self) -> chrono::Duration {
        chrono::Duration::seconds(i64::try_from(self.timeout_seconds).unwrap_or(10) + 60)
    }
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            allow_private_targets: false,
            timeout_seconds: default_webhook_timeout(),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Security {
    /// Send `Strict-Transport-Security` (production, behind TLS).
    #[serde(default)]
    pub hsts: bool,
}

const fn default_reset_ttl() -> i64 {
    60
}

const fn default_shutdown_grace() -> u64 {
    30
}

const fn default_answer_cache_mb() -> u64 {
    64
}

impl Settings {
    /// Reads the typed settings from the loaded configuration.
    ///
    /// # Errors
    /// When `settings:` is absent or does not match this shape.
    pub fn from_config(config: &loco_rs::config::Config) -> Result<Self> {
        let invalid = |e: serde_json::Error| Error::string(&format!("invalid `settings:`: {e}"));
        match config.settings.as_ref() {
            None => Err(Error::string("missing `settings:` in config")),
            // Kept as one JSON text once the app has started (`compact_in`).
            Some(serde_json::Value::String(json)) => serde_json::from_str(json).map_err(invalid),
            Some(raw) => Self::deserialize(raw).map_err(invalid),
        }
    }

    /// Replaces the configuration's `settings:` tree with its JSON text. Axum clones the app's
    /// state, Loco's `AppContext` with the whole configuration in it, for every request: a tree
    /// of some 60 keys was a few hundred allocations and frees per request, about half of the
    /// CPU time of `GET /_ping` (measured with `perf`, docs/benchmarks/api.md). The typed
    /// settings live in the shared store (`from_context`); the text still reads back with
    /// `from_config`.
    pub fn compact_in(config: &mut loco_rs::config::Config) {
        if let Some(raw) = config.settings.as_mut() {
            if !raw.is_string() {
                *raw = serde_json::Value::String(raw.to_string());
            }
        }
    }

    /// The settings of a running app.
    ///
    /// # Errors
    /// When `settings:` is absent or does not match this shape.
    pub fn from_context(ctx: &AppContext) -> Result<Self> {
        if let Some(settings) = ctx.shared_store.get::<Self>() {
            return Ok(settings);
        }
        Self::from_config(&ctx.config)
    }

    /// The storage driver these settings describe.
    ///
    /// # Errors
    /// An unknown kind, missing S3 settings, or a driver that cannot be built.
    pub fn storage_driver(&self) -> Result<Box<dyn loco_rs::storage::drivers::StoreDriver>> {
        use loco_rs::storage::drivers::aws;
        let storage_error =
            |e: loco_rs::storage::StorageError| Error::string(&format!("storage: {e}"));
        match self.storage.kind.as_str() {
            "local" => {
                std::fs::create_dir_all(&self.storage.local_dir)?;
                crate::infra::storage::local(std::path::Path::new(&self.storage.local_dir))
                    .map_err(storage_error)
            }
            "s3" => {
                // OpenDAL's S3 service speaks HTTP through a process-wide transport.
                opendal::install_default();
                let s3 = self.storage.s3.as_ref().ok_or_else(|| {
                    Error::string("storage kind `s3` needs `storage.s3` settings")
                })?;
                let credential = aws::Credential {
                    key_id: s3.access_key_id.clone(),
                    secret_key: s3.secret_access_key.clone(),
                    token: None,
                };
                if s3.endpoint.is_empty() {
                    aws::with_credentials(&s3.bucket, &s3.region, credential).map_err(storage_error)
                } else {
                    aws::with_credentials_and_endpoint(
                        &s3.bucket,
                        &s3.region,
                        &s3.endpoint,
                        credential,
                    )
                    .map_err(storage_error)
                }
            }
            other => Err(Error::string(&format!(
                "unknown storage kind `{other}`: use local or s3"
            ))),
        }
    }

    #[must_use]
    pub fn plan_limits(&self, plan: crate::models::organizations::Plan) -> &PlanLimits {
        use crate::models::organizations::Plan;
        match plan {
            Plan::Professional => &self.plans.professional,
            Plan::Free => &self.plans.free,
        }
    }
}
