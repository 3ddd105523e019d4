use serde::Serialize;
use utoipa::ToSchema;

use crate::models::organizations::Plan;

/// `GET /api/payment-status`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentStatus {
    pub plan: Plan,
    pub current_vendor_count: u64,
    pub vendor_limit: u64,
    /// Current documents allowed per vendor; null means no limit.
    pub document_limit_per_vendor: Option<u64>,
    /// Whether online payment (Stripe) is configured on this server.
    pub billing_enabled: bool,
    /// When the Professional subscription renews, if it does.
    pub renews_at: Option<chrono::DateTime<chrono::FixedOffset>>,
    /// When the Professional subscription ends (cancelled); the plan then returns to Free.
    pub cancel_at: Option<chrono::DateTime<chrono::FixedOffset>>,
    /// A payment problem to show (the last payment failed), if any.
    pub payment_problem: Option<String>,
}

/// `GET /api/dashboard/stats`.
#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardStats {
    pub total_vendors: u64,
    pub compliant_vendors: u64,
    pub expiring_vendors: u64,
    pub non_compliant_vendors: u64,
    /// Vendors whose certificates fall short of their requirement set (a gap not waived).
    pub vendors_with_gaps: u64,
    /// Vendors expiring soon, non-compliant or with gaps, each once (the dashboard's "Needs
    /// Attention").
    pub vendors_needing_attention: u64,
    /// Current documents by status, for the dashboard chart.
    pub documents_by_status: DocumentsByStatus,
    /// Current documents expiring in each of the next 90 days' weeks (13 buckets of 7 days).
    pub expirations_next_90_days: Vec<ExpirationBucket>,
    /// Current documents expiring from today through day 89, in six spans of 15 days (the
    /// dashboard's Upcoming Expirations chart).
    pub upcoming_expirations: Vec<ExpirationSpan>,
}

#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentsByStatus {
    pub current: u64,
    pub expiring_soon: u64,
    pub expired: u64,
    /// Requested documents not there: each vendor's required slots holding no current
    /// document.
    pub missing: u64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExpirationSpan {
    /// First day of the span (YYYY-MM-DD).
    pub start: String,
    /// Last day of the span (YYYY-MM-DD), included.
    pub end: String,
    pub count: u64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExpirationBucket {
    /// First day of the bucket (YYYY-MM-DD).
    pub week_start: String,
    pub count: u64,
}

/// `GET /api/config`: configuration the public pages show.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfig {
    pub support_email: String,
    pub plans: Plans,
    /// Whether certificates are read with AI on this server (an AI key is configured); when
    /// not, coverage is entered by hand.
    pub ai_reading: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Plans {
    pub free: PlanInfo,
    pub professional: PlanInfo,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanInfo {
    pub vendor_limit: u64,
    /// Null means no limit.
    pub documents_per_vendor: Option<u64>,
    pub price_cents: u64,
    /// How many people the plan has room for: members plus pending invitations.
    pub seats: u64,
    /// Certificates read with AI a calendar month.
    pub ai_readings_per_month: u64,
}

/// `POST /api/create-subscription` and `POST /api/billing/portal`: where the browser goes.
#[derive(Debug, Serialize, ToSchema)]
pub struct RedirectUrl {
    pub url: String,
}

/// `POST /api/upgrade-to-professional`.
#[derive(Debug, Serialize, ToSchema)]
pub struct UpgradeResponse {
    pub success: bool,
    pub plan: Plan,
}

/// `POST /api/webhooks/stripe`.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookReceived {
    pub received: bool,
}
