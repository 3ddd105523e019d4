//! The largest request body each route takes, and its 413. One number per limit does both: it
//! is the `DefaultBodyLimit` the extractors enforce and the figure the answer states, so the
//! two cannot drift. A route's layer turns every 413 below it (a JSON body, raw bytes, a
//! multipart upload) into the `payload_too_large` envelope naming its own limit; an inner
//! route's layer answers first and the app-wide one leaves that answer alone.

use axum::{
    extract::{DefaultBodyLimit, Request, State},
    http::StatusCode,
    middleware::Next,
    response::{IntoResponse, Response},
    routing::MethodRouter,
    Router as AxumRouter,
};
use loco_rs::{app::AppContext, controller::middleware::MiddlewareLayer, Error};

use crate::{
    errors::{api_error, ApiError},
    models::file_type::MAX_UPLOAD_BYTES,
};

const MIB: usize = 1024 * 1024;

/// Room in an upload's body for the form's other fields and the multipart framing.
const UPLOAD_FIELDS_ROOM: usize = 256 * 1024;

/// How large a request body may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyLimit {
    /// Any body (JSON, or the raw bytes of a webhook) of at most this many bytes.
    Body(usize),
    /// A multipart upload: its file at most `MAX_UPLOAD_BYTES`, the body that plus room for the
    /// other fields; the answer states the file's limit, the one a person can act on.
    Upload,
}

impl BodyLimit {
    /// Every route that does not set its own.
    pub const JSON: Self = Self::Body(2 * MIB);

    /// The bytes the extractors read before refusing.
    #[must_use]
    pub fn max_bytes(self) -> usize {
        match self {
            Self::Body(bytes) => bytes,
            Self::Upload => usize::try_from(MAX_UPLOAD_BYTES)
                .unwrap_or(usize::MAX)
                .saturating_add(UPLOAD_FIELDS_ROOM),
        }
    }

    /// The 413 for a body past this limit, stating it.
    #[must_use]
    pub fn refusal(self) -> Error {
        match self {
            Self::Body(bytes) => api_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                &format!(
                    "The request body is too large. The limit is {}.",
                    size_text(bytes as u64)
                ),
            ),
            Self::Upload => crate::errors::payload_too_large(),
        }
    }

    /// `route` with this limit enforced and stated.
    pub fn on(self, route: MethodRouter<AppContext>) -> MethodRouter<AppContext> {
        let stated: MethodRouter<AppContext> =
            route.layer(axum::middleware::from_fn_with_state(self, state_limit));
        stated.layer(DefaultBodyLimit::max(self.max_bytes()))
    }
}

/// A size as the answers write it: whole MB (of 1,048,576 bytes) when it is one, else KB or
/// bytes.
#[must_use]
pub fn size_text(bytes: u64) -> String {
    const MB: u64 = 1024 * 1024;
    if bytes >= MB && bytes.is_multiple_of(MB) {
        format!("{} MB", bytes / MB)
    } else if bytes >= MB {
        let tenths = (bytes * 10 + MB / 2) / MB;
        format!("{}.{} MB", tenths / 10, tenths % 10)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// Marks an answer whose 413 already states a route's limit.
#[derive(Debug, Clone, Copy)]
struct Stated;

/// Middleware: a 413 from below becomes this limit's envelope, unless an inner route's limit
/// already stated its own.
async fn state_limit(State(limit): State<BodyLimit>, req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    if res.status() != StatusCode::PAYLOAD_TOO_LARGE || res.extensions().get::<Stated>().is_some() {
        return res;
    }
    let mut out = ApiError::from(limit.refusal()).into_response();
    for (name, value) in res.headers() {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    out.extensions_mut().insert(Stated);
    out
}

/// Loco's `limit_payload` middleware replaced: `BodyLimit::JSON` for the whole app, enforced
/// and stated by the same number.
pub struct AppBodyLimit;

impl MiddlewareLayer for AppBodyLimit {
    fn name(&self) -> &'static str {
        "limit_payload"
    }

    fn config(&self) -> serde_json::Result<serde_json::Value> {
        Ok(serde_json::json!({ "body_limit": BodyLimit::JSON.max_bytes() }))
    }

    fn apply(&self, app: AxumRouter<AppContext>) -> loco_rs::Result<AxumRouter<AppContext>> {
        Ok(app
            .layer(axum::middleware::from_fn_with_state(
                BodyLimit::JSON,
                state_limit,
            ))
            .layer(DefaultBodyLimit::max(BodyLimit::JSON.max_bytes())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_the_answers_write_them() {
        assert_eq!(size_text(2 * 1024 * 1024), "2 MB");
        assert_eq!(size_text(MAX_UPLOAD_BYTES), "10 MB");
        assert_eq!(size_text(1536 * 1024), "1.5 MB");
        assert_eq!(size_text(64 * 1024), "64 KB");
        assert_eq!(size_text(1000), "1000 bytes");
    }

    #[test]
    fn each_refusal_states_the_limit_it_enforces() {
        let message = |limit: BodyLimit| match limit.refusal() {
            Error::CustomError(status, detail) => {
                assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
                assert_eq!(detail.error.as_deref(), Some("payload_too_large"));
                detail.description.unwrap_or_default()
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(
            message(BodyLimit::JSON),
            "The request body is too large. The limit is 2 MB."
        );
        assert_eq!(
            message(BodyLimit::Body(8 * MIB)),
            "The request body is too large. The limit is 8 MB."
        );
        assert_eq!(
            message(BodyLimit::Upload),
            "The file is too large. The limit is 10 MB."
        );
        assert_eq!(BodyLimit::JSON.max_bytes(), 2 * MIB);
        assert_eq!(BodyLimit::Upload.max_bytes(), 10 * MIB + UPLOAD_FIELDS_ROOM);
    }
}
