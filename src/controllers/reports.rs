//! The Professional plan's reports, as JSON, or (`?format=csv` or `xlsx`) as CSV or an Excel
//! workbook (docs/product.md, "Reports").

use loco_rs::prelude::*;
use serde::Deserialize;

use super::current::CurrentUser;
use crate::{
    errors::{field_error, ApiResult, Envelope},
    models::{
        compliance::Status,
        exports,
        reports::{
            self, ComplianceTrend, ExpirationWeek, ExpirationsReport, NonCompliantReport,
            NonCompliantVendor, Responsiveness, ResponsivenessReport,
        },
        sheet::{Cell, ExportFormat, Sheet},
    },
};

const FEATURE: &str = "Reports";

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct Format {
    /// `json` (the default), `csv` or `xlsx`.
    #[param(value_type = Option<String>, pattern = "^(json|csv|xlsx)?$")]
    pub format: Option<String>,
}

/// The file asked for, or `None` for JSON.
fn wants_file(format: &Format) -> Result<Option<ExportFormat>> {
    match format.format.as_deref().unwrap_or("json") {
        "" | "json" => Ok(None),
        "csv" => Ok(Some(ExportFormat::Csv)),
        "xlsx" => Ok(Some(ExportFormat::Xlsx)),
        _ => Err(field_error("format", "Use json, csv or xlsx")),
    }
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
    responses((status = 200, description = "The trend, or (`format=csv` or `xlsx`) its rows as CSV",
        content((ComplianceTrend = "application/json"), (String = "text/csv"), (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
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
    let file = wants_file(&f)?;
    current.org.require_professional(FEATURE)?;
    let day = current.today;
    let trend = reports::compliance_trend(&ctx.db, &current.org, days, day).await?;
    let Some(file) = file else {
        return super::ok_json(trend);
    };
    let count = |n: i32| Cell::Int(i64::from(n));
    let rows = trend.points.iter().map(|p| {
        vec![
            Cell::Date(Some(p.date)),
            count(p.vendors_current),
            count(p.vendors_expiring_soon),
            count(p.vendors_expired),
            count(p.vendors_missing),
            count(p.documents_current),
            count(p.documents_expiring_soon),
            count(p.documents_expired),
            Cell::Decimal(p.compliance_rate),
        ]
    });
    let sheet = Sheet::of(
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
    );
    Ok(super::file_answer(
        "compliance",
        current.today,
        sheet,
        file,
    )?)
}

/// The expirations report: the weeks in an object, so that fields can be added beside them.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ExpirationReport {
    pub weeks: Vec<ExpirationWeek>,
}

/// Current documents expiring in each of the next 12 weeks, with their vendors.
#[utoipa::path(get, path = "/api/reports/expirations", tag = "reports", security(("bearer" = [])), params(Format),
    responses((status = 200, description = "The weeks, or (`format=csv` or `xlsx`) one CSV row per document",
        content((ExpirationReport = "application/json"), (String = "text/csv"), (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
async fn expirations(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(f): Query<Format>,
) -> ApiResult {
    let file = wants_file(&f)?;
    current.org.require_professional(FEATURE)?;
    // Sent a week at a time as the weeks are read (`ExpirationsReport`); its read begins here,
    // so that a database that fails at once is an error answer, not a broken body.
    let report = ExpirationsReport::open(&ctx.db, current.org.id, current.today).await?;
    let Some(file) = file else {
        return Ok(json_body(exports::json_array_in(
            "{\"weeks\":",
            report.weeks(),
            "}",
        )));
    };
    let body = axum::body::Body::from_stream(exports::expirations_export(report, file));
    Ok(super::file_download(
        "expirations",
        current.today,
        file,
        body,
    ))
}

/// A JSON answer sent while it is written.
fn json_body(
    body: futures_util::stream::BoxStream<'static, std::io::Result<bytes::Bytes>>,
) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        axum::body::Body::from_stream(body),
    )
        .into_response()
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
    responses((status = 200, description = "The vendors, or (`format=csv` or `xlsx`) their rows as CSV",
        content((Vec<NonCompliantVendor> = "application/json"), (String = "text/csv"), (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
async fn non_compliant(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(q): Query<NonCompliantQuery>,
    Query(f): Query<Format>,
) -> ApiResult {
    let file = wants_file(&f)?;
    let status = super::status_filter(q.status.as_deref())?;
    if status == Some(Status::Current) {
        return Err(field_error("status", "Use missing, expiring_soon or expired").into());
    }
    current.org.require_professional(FEATURE)?;
    let service = super::filter_value(q.service_type.as_deref());
    // Sent while it is worked out (`NonCompliantReport`): its read begins here, so that a
    // database that fails at once is an error answer, not a broken body.
    let report =
        NonCompliantReport::open(&ctx.db, current.org.id, status, service, current.today).await?;
    let Some(file) = file else {
        return Ok(json_body(exports::json_array(report.rows())));
    };
    let body = axum::body::Body::from_stream(exports::non_compliant_export(report, file));
    Ok(super::file_download(
        "non-compliant-vendors",
        current.today,
        file,
        body,
    ))
}

/// Each renewal request sent to a vendor, and when the vendor uploaded afterwards.
#[utoipa::path(get, path = "/api/reports/responsiveness", tag = "reports", security(("bearer" = [])), params(Format),
    responses((status = 200, description = "The requests, or (`format=csv` or `xlsx`) their rows as CSV",
        content((Vec<Responsiveness> = "application/json"), (String = "text/csv"), (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))), (status = 401, body = Envelope), (status = 402, body = Envelope), (status = 422, body = Envelope)))]
async fn responsiveness(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(f): Query<Format>,
) -> ApiResult {
    let file = wants_file(&f)?;
    current.org.require_professional(FEATURE)?;
    // Sent while it is worked out (`ResponsivenessReport`): its read begins here, so that a
    // database that fails at once is an error answer, not a broken body.
    let report = ResponsivenessReport::open(&ctx.db, current.org.id).await?;
    let Some(file) = file else {
        return Ok(json_body(exports::json_array(report.rows())));
    };
    let body = axum::body::Body::from_stream(exports::responsiveness_export(report, file));
    Ok(super::file_download(
        "vendor-responsiveness",
        current.today,
        file,
        body,
    ))
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/reports/compliance", get(compliance))
        .add("/api/reports/expirations", get(expirations))
        .add("/api/reports/non-compliant", get(non_compliant))
        .add("/api/reports/responsiveness", get(responsiveness))
}
