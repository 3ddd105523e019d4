use crate::errors::ApiResult;
use chrono::Duration;
use loco_rs::prelude::*;

use super::current::CurrentUser;
use crate::{
    errors::Envelope,
    models::{compliance::Status, documents, vendors},
    settings::Settings,
    views::account::{
        DashboardStats, DocumentsByStatus, ExpirationBucket, PaymentStatus, PlanInfo, Plans,
        PublicConfig,
    },
};

/// The organization's plan, its vendor count and its limits.
#[utoipa::path(get, path = "/api/payment-status", tag = "account", security(("bearer" = [])),
    responses((status = 200, body = PaymentStatus), (status = 401, body = Envelope)))]
async fn payment_status(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let limits = settings.plan_limits(&current.org.plan);
    super::ok_json(PaymentStatus {
        plan: current.org.plan.clone(),
        current_vendor_count: vendors::Model::count_in_org(&ctx.db, current.org.id).await?,
        vendor_limit: limits.vendor_limit,
        document_limit_per_vendor: limits.documents_per_vendor,
    })
}

/// Vendor counts by status, and the document figures of the dashboard chart.
#[utoipa::path(get, path = "/api/dashboard/stats", tag = "account", security(("bearer" = [])),
    responses((status = 200, body = DashboardStats), (status = 401, body = Envelope)))]
async fn dashboard_stats(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let standings = vendors::Model::standings(&ctx.db, current.org.id).await?;
    let mut stats = DashboardStats {
        total_vendors: standings.len() as u64,
        ..Default::default()
    };
    for s in &standings {
        match s.status {
            Status::Current => stats.compliant_vendors += 1,
            Status::ExpiringSoon => stats.expiring_vendors += 1,
            Status::Expired | Status::Missing => stats.non_compliant_vendors += 1,
        }
    }
    let (docs, _) = documents::Model::list_current(
        &ctx.db,
        current.org.id,
        &documents::DocumentQuery::default(),
    )
    .await?;
    let today = documents::today();
    let mut by_status = DocumentsByStatus::default();
    let mut weeks = vec![0u64; 13];
    for (doc, _) in &docs {
        match doc.status(today) {
            Status::Current | Status::Missing => by_status.current += 1,
            Status::ExpiringSoon => by_status.expiring_soon += 1,
            Status::Expired => by_status.expired += 1,
        }
        if let Some(exp) = doc.expiration_date {
            let days = (exp - today).num_days();
            if (0..91).contains(&days) {
                weeks[usize::try_from(days / 7).unwrap_or(12).min(12)] += 1;
            }
        }
    }
    stats.documents_by_status = by_status;
    stats.expirations_next_90_days = weeks
        .into_iter()
        .enumerate()
        .map(|(i, count)| ExpirationBucket {
            week_start: (today + Duration::days(i64::try_from(i).unwrap_or(0) * 7)).to_string(),
            count,
        })
        .collect();
    super::ok_json(stats)
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
    };
    super::ok_json(PublicConfig {
        support_email: settings.support_email.clone(),
        plans: Plans {
            free: plan(&settings.plans.free),
            professional: plan(&settings.plans.professional),
        },
    })
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/config", get(public_config))
        .add("/api/payment-status", get(payment_status))
        .add("/api/dashboard/stats", get(dashboard_stats))
}
