//! The Professional plan's reports, as JSON or (`?format=csv`) as CSV (docs/product.md,
//! "Reports").

use axum::body::Body;
use loco_rs::prelude::*;
use serde::Deserialize;

use super::current::CurrentUser;
use crate::{
    errors::{field_error, ApiResult, Envelope},
    models::{
        compliance::Status,
        csv_io::to_csv,
        reports::{self, ComplianceTrend, ExpirationWeek, NonCompliantVendor, Responsiveness},
    },
};

const FEATURE: &str = "Reports";

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct Format {
    /// `json` (the default) or `csv`.
    #[param(value_type = Option<String>, pattern = "^(json|csv)?$")]
    pub format: Option<String>,
}

fn wants_csv(format: &Format) -> Result<bool> {
    match format.format.as_deref().unwrap_or("json") {
        "" | "json" => Ok(false),
        "csv" => Ok(true),
        _ => Err(field_error("format", "Use json or csv")),
    }
}

fn csv_answer(name: &str, today: chrono::NaiveDate, bytes: Vec<u8>) -> Response {
    super::attachment(
        "text/csv; charset=utf-8",
        &format!("{name}-{today}.csv"),
        Body::from(bytes),
    )
}

fn rate_cell(rate: Option<f64>) -> String {
    rate.map(|r| format!("{r:.1}")).unwrap_or_default()
}

/// The days a compliance trend covers, for the `OpenAPI` document: 30, 90 or 365.
pub struct TrendDays;

impl utoipa::PartialSchema for TrendDays {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .enum_values(Some(TREND_DAYS))
            .into()
    }
}

impl utoipa::ToSchema for TrendDays {}

/// The spans a compliance trend can cover, in days.
const TREND_DAYS: [i64; 3] = [30, 90, 365];

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct TrendQuery {
    /// 30 (the default), 90 or 365.
    #[param(value_type = TrendDays, inline, required = false)]
    pub days: Option<i64>,
}

/// Compliance over the last 30, 90 or 365 days, from the daily snapshots and today's figures
/// as they stand (a read: the snapshots are written by the `report_snapshots` task).
#[utoipa::path(get, path = "/api/reports/compliance", tag = "reports", security(("bearer" = [])), params(TrendQuery, Format),
    responses((status = 200, description = "The trend, or (`format=csv`) its rows as CSV",
        content((ComplianceTrend = "application/json"), (String = "text/csv"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
async fn compliance(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(q): Query<TrendQuery>,
    Query(f): Query<Format>,
) -> ApiResult {
    let days = q.days.unwrap_or(30);
    if !TREND_DAYS.contains(&days) {
        return Err(field_error("days", "Use 30, 90 or 365").into());
    }
    let csv = wants_csv(&f)?;
    current.org.require_professional(FEATURE)?;
    let day = current.today;
    let trend = reports::compliance_trend(&ctx.db, &current.org, days, day).await?;
    if !csv {
        return super::ok_json(trend);
    }
    let rows = trend.points.iter().map(|p| {
        vec![
            p.date.to_string(),
            p.vendors_current.to_string(),
            p.vendors_expiring_soon.to_string(),
            p.vendors_expired.to_string(),
            p.vendors_missing.to_string(),
            p.documents_current.to_string(),
            p.documents_expiring_soon.to_string(),
            p.documents_expired.to_string(),
            rate_cell(p.compliance_rate),
        ]
    });
    let bytes = to_csv(
        &[
            "Date",
            "Vendors Current",
            "Vendors Expiring Soon",
            "Vendors Expired",
            "Vendors Missing",
            "Documents Current",
            "Documents Expiring Soon",
            "Documents Expired",
            "Compliance Rate (%)",
        ],
        rows,
    )?;
    Ok(csv_answer("compliance", current.today, bytes))
}

/// The expirations report: the weeks in an object, so that fields can be added beside them.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ExpirationReport {
    pub weeks: Vec<ExpirationWeek>,
}

/// Current documents expiring in each of the next 12 weeks, with their vendors.
#[utoipa::path(get, path = "/api/reports/expirations", tag = "reports", security(("bearer" = [])), params(Format),
    responses((status = 200, description = "The weeks, or (`format=csv`) one CSV row per document",
        content((ExpirationReport = "application/json"), (String = "text/csv"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
async fn expirations(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(f): Query<Format>,
) -> ApiResult {
    let csv = wants_csv(&f)?;
    current.org.require_professional(FEATURE)?;
    let weeks = reports::expirations(&ctx.db, current.org.id, current.today).await?;
    if !csv {
        return super::ok_json(ExpirationReport { weeks });
    }
    let rows = weeks.iter().flat_map(|w| {
        w.vendors.iter().flat_map(move |v| {
            v.documents.iter().map(move |d| {
                vec![
                    w.week_start.to_string(),
                    v.name.clone(),
                    v.id.clone(),
                    d.label.clone(),
                    d.expiration_date.to_string(),
                ]
            })
        })
    });
    let bytes = to_csv(
        &[
            "Week Of",
            "Vendor",
            "Company Key",
            "Document",
            "Expiration Date",
        ],
        rows,
    )?;
    Ok(csv_answer("expirations", current.today, bytes))
}

/// The `status` filter of the non-compliant report: a status other than `current`, `all` or
/// empty.
pub struct NonCompliantStatus;

impl utoipa::PartialSchema for NonCompliantStatus {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        super::filter_schema(
            &[Status::Missing, Status::ExpiringSoon, Status::Expired].map(Status::as_str),
        )
    }
}

impl utoipa::ToSchema for NonCompliantStatus {}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default, rename_all = "camelCase")]
pub struct NonCompliantQuery {
    /// `missing`, `expiring_soon` or `expired`; empty or `all` for every one.
    #[param(value_type = NonCompliantStatus, inline, required = false)]
    pub status: Option<String>,
    /// A service type; empty or `all` for every one.
    pub service_type: Option<String>,
}

/// Each vendor that is not current, and why.
#[utoipa::path(get, path = "/api/reports/non-compliant", tag = "reports", security(("bearer" = [])), params(NonCompliantQuery, Format),
    responses((status = 200, description = "The vendors, or (`format=csv`) their rows as CSV",
        content((Vec<NonCompliantVendor> = "application/json"), (String = "text/csv"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
async fn non_compliant(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(q): Query<NonCompliantQuery>,
    Query(f): Query<Format>,
) -> ApiResult {
    let csv = wants_csv(&f)?;
    let status = super::status_filter(q.status.as_deref())?;
    if status == Some(Status::Current) {
        return Err(field_error("status", "Use missing, expiring_soon or expired").into());
    }
    current.org.require_professional(FEATURE)?;
    let service = super::filter_value(q.service_type.as_deref());
    let rows =
        reports::non_compliant(&ctx.db, current.org.id, status, service, current.today).await?;
    if !csv {
        return super::ok_json(rows);
    }
    let lines = rows.iter().map(|v| {
        vec![
            v.name.clone(),
            v.id.clone(),
            v.service_type.clone(),
            v.status.as_str().to_string(),
            v.reasons.join("; "),
            v.gaps.join(" "),
            v.waived.join(" "),
        ]
    });
    let bytes = to_csv(
        &[
            "Vendor",
            "Company Key",
            "Service Type",
            "Status",
            "Reasons",
            "Gaps",
            "Waived Gaps",
        ],
        lines,
    )?;
    Ok(csv_answer("non-compliant-vendors", current.today, bytes))
}

/// Each renewal request sent to a vendor, and when the vendor uploaded afterwards.
#[utoipa::path(get, path = "/api/reports/responsiveness", tag = "reports", security(("bearer" = [])), params(Format),
    responses((status = 200, description = "The requests, or (`format=csv`) their rows as CSV",
        content((Vec<Responsiveness> = "application/json"), (String = "text/csv"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
async fn responsiveness(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(f): Query<Format>,
) -> ApiResult {
    let csv = wants_csv(&f)?;
    current.org.require_professional(FEATURE)?;
    let rows = reports::responsiveness(&ctx.db, current.org.id).await?;
    if !csv {
        return super::ok_json(rows);
    }
    let lines = rows.iter().map(|r| {
        vec![
            r.vendor_name.clone(),
            r.vendor_id.clone(),
            r.document_label.clone(),
            r.requested_at.to_rfc3339(),
            r.uploaded_at.map(|u| u.to_rfc3339()).unwrap_or_default(),
            r.days_to_upload.map(|d| d.to_string()).unwrap_or_default(),
        ]
    });
    let bytes = to_csv(
        &[
            "Vendor",
            "Company Key",
            "Requested",
            "Requested At",
            "Uploaded At",
            "Days To Upload",
        ],
        lines,
    )?;
    Ok(csv_answer("vendor-responsiveness", current.today, bytes))
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/reports/compliance", get(compliance))
        .add("/api/reports/expirations", get(expirations))
        .add("/api/reports/non-compliant", get(non_compliant))
        .add("/api/reports/responsiveness", get(responsiveness))
}
