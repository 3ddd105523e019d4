pub mod account;
pub mod activity;
pub mod auth;
pub mod billing;
pub mod blog;
pub mod body_limit;
pub mod bulk;
pub mod content;
pub mod current;
pub mod document_files;
pub mod documents;
pub mod extractions;
pub mod integrations;
pub mod json;
pub mod keywords;
pub mod monitoring;
pub mod openapi;
pub mod portal;
pub mod reminders;
pub mod reports;
pub mod requirements;
pub mod team;
pub mod unsubscribe;
pub mod upload;
pub mod vendors;

use crate::errors::{ApiError, ApiResult};
use axum::http::{HeaderName, HeaderValue};
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

/// Unknown `/api` paths answer a JSON 404, never the single-page app.
async fn api_not_found() -> ApiResult {
    Err(ApiError::from(crate::errors::not_found()))
}

#[must_use]
pub fn fallback_routes() -> Routes {
    Routes::new()
        .prefix("/api")
        .add("/", axum::routing::any(api_not_found))
        .add("/{*rest}", axum::routing::any(api_not_found))
}

/// A download: the body with its content type and an `attachment` disposition naming the file
/// (ASCII fallback and RFC 6266 `filename*`, as document downloads have).
#[must_use]
pub fn attachment(content_type: &'static str, file_name: &str, body: axum::body::Body) -> Response {
    let mut res = Response::new(body);
    let headers = res.headers_mut();
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static(content_type),
    );
    if let Ok(v) = HeaderValue::from_str(&document_files::content_disposition(
        "attachment",
        file_name,
    )) {
        headers.insert(axum::http::header::CONTENT_DISPOSITION, v);
    }
    res
}

/// A sheet (a report, an export) as the file asked for, named after `name` and the day. A
/// workbook is sent while it is zipped ([`Sheet::xlsx_chunks`]).
///
/// # Errors
/// When the CSV writer fails (a workbook's failure ends its body, as it is sent).
///
/// [`Sheet::xlsx_chunks`]: crate::models::sheet::Sheet::xlsx_chunks
pub fn file_answer(
    name: &str,
    today: chrono::NaiveDate,
    sheet: crate::models::sheet::Sheet,
    format: crate::models::sheet::ExportFormat,
) -> Result<Response> {
    use crate::models::sheet::ExportFormat;
    let body = match format {
        ExportFormat::Csv => axum::body::Body::from(sheet.csv()?),
        ExportFormat::Xlsx => axum::body::Body::from_stream(sheet.xlsx_chunks()),
    };
    Ok(file_download(name, today, format, body))
}

/// A file in `format` named after `name` and the day, with `body` (whole, or sent as it is
/// written).
#[must_use]
pub fn file_download(
    name: &str,
    today: chrono::NaiveDate,
    format: crate::models::sheet::ExportFormat,
    body: axum::body::Body,
) -> Response {
    attachment(
        format.content_type(),
        &format!("{name}-{today}.{}", format.extension()),
        body,
    )
}

/// A JSON array with the total count of matching rows in `X-Total-Count` (docs/product.md, "Lists").
///
/// # Errors
/// When the body cannot be serialized.
pub fn list_response<T: Serialize>(items: &[T], total: u64) -> ApiResult {
    let mut res = format::json(items)?;
    if let Ok(v) = HeaderValue::from_str(&total.to_string()) {
        res.headers_mut()
            .insert(HeaderName::from_static("x-total-count"), v);
    }
    Ok(res)
}

/// `limit` and `offset` of every list endpoint (a `Query` of its own beside the list's filters);
/// without `limit`, everything. Each is a whole number from 0 to 2^63-1 (the `OpenAPI` document's
/// `int64`, what the databases bind): anything else is a 400.
#[derive(Debug, Default, Clone, Copy, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct Paging {
    /// Rows at most.
    pub limit: Option<u64>,
    /// Rows skipped first.
    pub offset: Option<u64>,
}

impl Paging {
    /// # Errors
    /// A 400 for a value past 2^63-1.
    pub fn page(self) -> Result<crate::models::search::Page> {
        let too_large = |v: Option<u64>| v.is_some_and(|v| i64::try_from(v).is_err());
        if too_large(self.limit) || too_large(self.offset) {
            return Err(crate::errors::bad_request(
                "bad_request",
                "`limit` and `offset` are whole numbers from 0 to 9223372036854775807.",
            ));
        }
        Ok(crate::models::search::Page {
            limit: self.limit,
            offset: self.offset,
        })
    }
}

/// A query filter's allowed values, for the `OpenAPI` document: `values`, `all` or empty (no
/// filter).
fn filter_schema(values: &[&str]) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values.iter().copied().chain(["all", ""])))
        .into()
}

/// The `status` filter: a status, `all` or empty.
pub struct StatusFilter;

impl utoipa::PartialSchema for StatusFilter {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::models::compliance::Status;
        filter_schema(
            &[
                Status::Current,
                Status::ExpiringSoon,
                Status::Expired,
                Status::Missing,
            ]
            .map(Status::as_str),
        )
    }
}

impl utoipa::ToSchema for StatusFilter {}

/// A list's `sort` values, for the `OpenAPI` document: each key, each with a leading `-`, and
/// empty (the list's default order).
fn sort_schema<K>(keys: &[(&str, K)]) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let mut values: Vec<String> = keys.iter().map(|(name, _)| (*name).to_string()).collect();
    values.extend(keys.iter().map(|(name, _)| format!("-{name}")));
    values.push(String::new());
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .into()
}

/// The `sort` of the vendor list.
pub struct VendorSortParam;

impl utoipa::PartialSchema for VendorSortParam {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        sort_schema(&crate::models::vendors::VendorSort::KEYS)
    }
}

impl utoipa::ToSchema for VendorSortParam {}

/// The `sort` of the document list.
pub struct DocumentSortParam;

impl utoipa::PartialSchema for DocumentSortParam {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        sort_schema(&crate::models::documents::DocumentSort::KEYS)
    }
}

impl utoipa::ToSchema for DocumentSortParam {}

/// The `sort` of the reminder list.
pub struct ReminderSortParam;

impl utoipa::PartialSchema for ReminderSortParam {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        sort_schema(&crate::models::reminders::ReminderSort::KEYS)
    }
}

impl utoipa::ToSchema for ReminderSortParam {}

/// The `type` filter of documents: a document type, `all` or empty.
pub struct DocumentTypeFilter;

impl utoipa::PartialSchema for DocumentTypeFilter {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::models::compliance::DocumentType;
        filter_schema(&DocumentType::ALL.map(DocumentType::as_str))
    }
}

impl utoipa::ToSchema for DocumentTypeFilter {}

/// The `type` filter of the activity log: an activity type, `all` or empty.
pub struct ActivityTypeFilter;

impl utoipa::PartialSchema for ActivityTypeFilter {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use sea_orm::{ActiveEnum, Iterable};
        let types: Vec<String> = crate::models::activities::ActivityType::iter()
            .map(|t| t.to_value())
            .collect();
        filter_schema(&types.iter().map(String::as_str).collect::<Vec<_>>())
    }
}

impl utoipa::ToSchema for ActivityTypeFilter {}

/// A list's query filter as given: absent, empty or `all` means no filter.
#[must_use]
pub fn filter_value(raw: Option<&str>) -> Option<&str> {
    raw.filter(|s| !s.is_empty() && *s != "all")
}

/// The `status` query filter of a list: absent, empty or `all` means no filter.
///
/// # Errors
/// A 422 for an unknown status.
pub fn status_filter(raw: Option<&str>) -> Result<Option<crate::models::compliance::Status>> {
    match filter_value(raw) {
        Some(s) => crate::models::compliance::Status::parse(s)
            .map(Some)
            .ok_or_else(|| crate::errors::field_error("status", "Unknown status filter")),
        None => Ok(None),
    }
}

/// The `sort` query parameter of a list: one of `keys`, with a leading `-` for descending;
/// absent or empty, `default`.
///
/// # Errors
/// A 422 naming the keys for any other value.
pub fn sort_param<K: Copy>(
    raw: Option<&str>,
    default: crate::models::search::Sort<K>,
    keys: &[(&str, K)],
) -> Result<crate::models::search::Sort<K>> {
    crate::models::search::Sort::parse(raw, default, keys).ok_or_else(|| {
        let names: Vec<&str> = keys.iter().map(|(name, _)| *name).collect();
        crate::errors::field_error(
            "sort",
            &format!(
                "Sort by one of {}, with a leading - for descending order",
                names.join(", ")
            ),
        )
    })
}

/// A 200 JSON answer.
///
/// # Errors
/// When the body cannot be serialized.
pub fn ok_json<T: Serialize>(body: T) -> ApiResult {
    Ok(format::json(body)?)
}
