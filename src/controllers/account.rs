use crate::errors::ApiResult;
use loco_rs::prelude::*;

use super::current::{CurrentUser, OrgAdmin, Reader};
use crate::{
    errors::Envelope,
    infra::answer_cache::{AnswerCache, Question},
    models::{organizations, vendors},
    settings::Settings,
    views::account::{DashboardStats, PaymentStatus, PlanInfo, Plans, PublicConfig},
};

/// The organization's plan, its vendor count and its limits.
#[utoipa::path(get, path = "/api/payment-status", tag = "account", security(("bearer" = [])),
    responses((status = 200, body = PaymentStatus), (status = 401, body = Envelope)))]
async fn payment_status(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let limits = settings.plan_limits(current.org.plan());
    super::ok_json(PaymentStatus {
        plan: current.org.plan(),
        current_vendor_count: vendors::Model::count_in_org(&ctx.db, current.org.id).await?,
        vendor_limit: limits.vendor_limit,
        document_limit_per_vendor: limits.documents_per_vendor,
        billing_enabled: settings.billing.is_enabled(),
        renews_at: current.org.plan_renews_at,
        cancel_at: current.org.plan_cancel_at,
        payment_problem: current.org.payment_problem.clone(),
    })
}

/// Vendor counts by status, and the document figures of the dashboard chart.
#[utoipa::path(get, path = "/api/dashboard/stats", tag = "account", security(("bearer" = [])),
    responses((status = 200, body = DashboardStats), (status = 401, body = Envelope)))]
async fn dashboard_stats(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let answer = AnswerCache::from_context(&ctx)
        .answer(
            &ctx.db,
            &current.org,
            current.today,
            Question::DashboardStats,
        )
        .await?;
    Ok(answer.into_response())
}

/// What the public pages show that is configuration: the support contact and the plans.
#[utoipa::path(get, path = "/api/config", tag = "account",
    responses((status = 200, body = PublicConfig)))]
async fn public_config(State(ctx): State<AppContext>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let plan = |p: &crate::settings::PlanLimits| PlanInfo {
        vendor_limit: p.vendor_limit,
        documents_per_vendor: p.documents_per_vendor,
        price_cents: p.price_cents,
        seats: p.seats,
        ai_readings_per_month: p.ai_readings_per_month,
    };
    super::ok_json(PublicConfig {
        support_email: settings.support_email.clone(),
        plans: Plans {
            free: plan(&settings.plans.free),
            professional: plan(&settings.plans.professional),
        },
        ai_reading: settings.ai.is_enabled(),
    })
}

#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preferences {
    /// Whether to get the weekly summary email; unchanged when absent (never null).
    #[serde(default, deserialize_with = "present_bool")]
    #[schema(nullable = false)]
    pub weekly_summary: Option<bool>,
    /// Whether to get the reminder emails of the organization's documents; unchanged when
    /// absent (never null).
    #[serde(default, deserialize_with = "present_bool")]
    #[schema(nullable = false)]
    pub reminder_emails: Option<bool>,
}

/// A field that may be left out but, when sent, is `true` or `false`: `null` is refused.
fn present_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    <bool as serde::Deserialize>::deserialize(d).map(Some)
}

/// The signed-in person's email preferences: their own, so any role may set them.
#[utoipa::path(put, path = "/api/account/preferences", tag = "account", security(("bearer" = [])), request_body = Preferences,
    responses((status = 200, body = crate::views::auth::UserResponse), (status = 400, body = Envelope), (status = 401, body = Envelope)))]
async fn preferences(
    Reader(current): Reader,
    State(ctx): State<AppContext>,
    super::json::ApiJson(params): super::json::ApiJson<Preferences>,
) -> ApiResult {
    let mut user = current.user.clone().into_active_model();
    if let Some(on) = params.weekly_summary {
        user.weekly_summary = ActiveValue::Set(on);
    }
    if let Some(on) = params.reminder_emails {
        user.reminder_emails = ActiveValue::Set(on);
    }
    let user = user.update(&ctx.db).await?;
    super::ok_json(crate::views::auth::UserResponse::new(&user, &current.org))
}

#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OrganizationSettings {
    /// The organization's IANA time zone (`America/Los_Angeles`), as the tz database spells it.
    #[schema(schema_with = crate::models::organizations::time_zone_schema)]
    pub time_zone: String,
}

/// The organization's settings: its time zone, which sets its "today" (statuses, the
/// dashboard, reports) and the morning its reminders and weekly summary go out. Its owner and
/// admins may change it.
#[utoipa::path(put, path = "/api/account/organization", tag = "account", security(("bearer" = [])), request_body = OrganizationSettings,
    responses((status = 200, body = crate::views::auth::UserResponse), (status = 400, body = Envelope), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 422, body = Envelope)))]
async fn organization_settings(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    super::json::ApiJson(params): super::json::ApiJson<OrganizationSettings>,
) -> ApiResult {
    let zone = organizations::parse_time_zone(&params.time_zone)?;
    let org = organizations::Model::set_time_zone(&ctx.db, current.org.id, zone).await?;
    super::ok_json(crate::views::auth::UserResponse::new(&current.user, &org))
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/account/preferences", put(preferences))
        .add("/api/account/organization", put(organization_settings))
        .add("/api/config", get(public_config))
        .add("/api/payment-status", get(payment_status))
        .add("/api/dashboard/stats", get(dashboard_stats))
}
