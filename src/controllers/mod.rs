pub mod account;
pub mod activity;
pub mod auth;
pub mod current;
pub mod documents;
pub mod json;
pub mod openapi;
pub mod portal;
pub mod reminders;
pub mod upload;
pub mod vendors;

use crate::errors::{ApiError, ApiResult};
use axum::http::{HeaderName, HeaderValue};
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

/// Unknown `/api` paths answer a JSON 404, never the single-page app.
async fn api_not_found() -> ApiResult {
    Err(ApiError(crate::errors::not_found()))
}

#[must_use]
pub fn fallback_routes() -> Routes {
    Routes::new()
        .prefix("/api")
        .add("/", axum::routing::any(api_not_found))
        .add("/{*rest}", axum::routing::any(api_not_found))
}

/// A JSON array with the total count of matching rows in `X-Total-Count` (API.md lists).
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
/// without `limit`, everything. A negative or non-numeric value is a 400; values past what the
/// databases take mean the same rows as the largest they take.
#[derive(Debug, Default, Clone, Copy, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct Paging {
    /// Rows at most.
    pub limit: Option<u64>,
    /// Rows skipped first.
    pub offset: Option<u64>,
}

impl Paging {
    #[must_use]
    pub const fn page(self) -> crate::models::search::Page {
        crate::models::search::Page {
            limit: self.limit,
            offset: self.offset,
        }
    }
}

/// The `status` query filter of a list: absent, empty or `all` means no filter.
///
/// # Errors
/// A 422 for an unknown status.
pub fn status_filter(raw: Option<&str>) -> Result<Option<crate::models::compliance::Status>> {
    match raw.filter(|s| !s.is_empty() && *s != "all") {
        Some(s) => crate::models::compliance::Status::parse(s)
            .map(Some)
            .ok_or_else(|| crate::errors::field_error("status", "Unknown status filter")),
        None => Ok(None),
    }
}

/// A 200 JSON answer.
///
/// # Errors
/// When the body cannot be serialized.
pub fn ok_json<T: Serialize>(body: T) -> ApiResult {
    Ok(format::json(body)?)
}
