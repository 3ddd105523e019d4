//! One error envelope for every `/api/*` failure (API.md):
//! `{"error": "<machine_code>", "message": "<one human sentence>", "errors": {"field": ["..."]}}`.
//!
//! Handlers return Loco's `Error`; the constructors here build the ones with our codes, and
//! [`api_envelope`] rewrites whatever else reaches the client (framework rejections, unknown
//! paths, wrong methods, panics) into the same shape.

use std::collections::BTreeMap;

use axum::{
    body::Body,
    extract::Request,
    http::{header, HeaderValue, StatusCode},
    middleware::Next,
};
use loco_rs::{controller::ErrorDetail, prelude::*};
use serde::Serialize;

/// Field name -> human messages, as sent in the envelope's `errors`.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

/// The body of every failed `/api` response.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Envelope {
    pub error: String,
    pub message: String,
    /// Field name -> messages, for validation failures only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub errors: Option<serde_json::Value>,
}

/// What every handler and extractor of ours fails with: Loco's error, answered in the envelope
/// and logged at the level its status deserves. A client's mistake (4xx) is expected and logged
/// at debug (a rate limit at info); only a fault of ours (5xx) is logged at error, with its
/// details. Loco's own `IntoResponse` would log every error, 404s and 422s included, at error.
#[derive(Debug)]
pub struct ApiError(pub Error);

/// The result of a handler.
pub type ApiResult<T = Response> = std::result::Result<T, ApiError>;

impl<E> From<E> for ApiError
where
    Error: From<E>,
{
    fn from(err: E) -> Self {
        Self(Error::from(err))
    }
}

fn blank() -> ErrorDetail {
    ErrorDetail {
        error: None,
        description: None,
        errors: None,
    }
}

impl ApiError {
    /// The status and the public detail of the error.
    fn public(self) -> (StatusCode, ErrorDetail) {
        match self.0 {
            Error::CustomError(status, detail) => (status, detail),
            Error::WithBacktrace { inner, .. } => Self(*inner).public(),
            Error::NotFound | Error::Model(ModelError::EntityNotFound) => {
                (StatusCode::NOT_FOUND, blank())
            }
            Error::Unauthorized(_) => (StatusCode::UNAUTHORIZED, blank()),
            Error::BadRequest(message) => (
                StatusCode::BAD_REQUEST,
                ErrorDetail::new("bad_request", &message),
            ),
            Error::JsonRejection(rejection) => (rejection.status(), blank()),
            Error::Model(ModelError::EntityAlreadyExists) => (StatusCode::CONFLICT, blank()),
            _ => (StatusCode::INTERNAL_SERVER_ERROR, blank()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (msg, details) = (self.0.to_string(), format!("{:?}", self.0));
        let (status, detail) = self.public();
        if status.is_server_error() {
            tracing::error!(error.msg = msg, error.details = details, %status, "request failed");
        } else if status == StatusCode::TOO_MANY_REQUESTS {
            tracing::info!(error.msg = msg, %status, "request refused");
        } else {
            tracing::debug!(error.msg = msg, %status, "request refused");
        }
        let envelope = if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
            normalize(status, b"")
        } else {
            Envelope {
                error: detail
                    .error
                    .filter(|c| !c.is_empty())
                    .unwrap_or_else(|| default_code(status).to_string()),
                message: detail
                    .description
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| default_message(status).to_string()),
                errors: detail.errors.filter(serde_json::Value::is_object),
            }
        };
        envelope_response(status, &envelope)
    }
}

/// An error with our own status, code and message.
#[must_use]
pub fn api_error(status: StatusCode, code: &str, message: &str) -> Error {
    Error::CustomError(status, ErrorDetail::new(code, message))
}

#[must_use]
pub fn not_found() -> Error {
    api_error(
        StatusCode::NOT_FOUND,
        "not_found",
        "We could not find what you asked for.",
    )
}

#[must_use]
pub fn conflict(code: &str, message: &str) -> Error {
    api_error(StatusCode::CONFLICT, code, message)
}

/// A 422 naming each field that failed and why; the message is the first field message.
#[must_use]
pub fn validation(errors: FieldErrors) -> Error {
    let message = errors
        .values()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_else(|| "The request has invalid fields.".to_string());
    Error::CustomError(
        StatusCode::UNPROCESSABLE_ENTITY,
        ErrorDetail {
            error: Some("validation_failed".to_string()),
            description: Some(message),
            errors: serde_json::to_value(errors).ok(),
        },
    )
}

/// A 422 for a single field.
#[must_use]
pub fn field_error(field: &str, message: &str) -> Error {
    validation(FieldErrors::from([(
        field.to_string(),
        vec![message.to_string()],
    )]))
}

/// Turns `validator` results into our field errors (first message of each rule).
#[must_use]
pub fn from_validator(errs: &validator::ValidationErrors) -> FieldErrors {
    errs.field_errors()
        .into_iter()
        .map(|(field, list)| {
            let messages = list
                .iter()
                .map(|e| {
                    e.message
                        .as_ref()
                        .map_or_else(|| format!("{field} is invalid"), ToString::to_string)
                })
                .collect();
            (field.to_string(), messages)
        })
        .collect()
}

/// Validates a request body with its `validator` rules, as a 422 envelope on failure.
///
/// # Errors
/// A 422 `validation_failed` naming each invalid field.
pub fn validate<T: Validate>(params: &T) -> Result<()> {
    validator::Validate::validate(params).map_err(|e| validation(from_validator(&e)))
}

#[must_use]
pub fn too_many_requests(retry_after_secs: u64) -> Response {
    let mut res = envelope_response(
        StatusCode::TOO_MANY_REQUESTS,
        &Envelope {
            error: "rate_limited".to_string(),
            message: "Too many attempts. Please wait a moment and try again.".to_string(),
            errors: None,
        },
    );
    if let Ok(v) = HeaderValue::from_str(&retry_after_secs.max(1).to_string()) {
        res.headers_mut().insert(header::RETRY_AFTER, v);
    }
    res
}

fn envelope_response(status: StatusCode, env: &Envelope) -> Response {
    let body = serde_json::to_vec(env).unwrap_or_else(|_| b"{}".to_vec());
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = status;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res
}

fn default_code(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        402 => "payment_required",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "validation_failed",
        429 => "rate_limited",
        503 => "service_unavailable",
        _ if status.is_server_error() => "internal_error",
        _ => "error",
    }
}

fn default_message(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "The request could not be read.",
        401 => "You need to sign in to do this.",
        403 => "You are not allowed to do this.",
        404 => "We could not find what you asked for.",
        405 => "This method is not allowed here.",
        413 => "The file is too large. The limit is 10 MB.",
        415 => "This type of content is not supported.",
        422 => "The request has invalid fields.",
        429 => "Too many attempts. Please wait a moment and try again.",
        _ if status.is_server_error() => "Something went wrong on our side. Please try again.",
        _ => "The request failed.",
    }
}

/// Builds the envelope for a failed `/api` response from whatever body it had.
fn normalize(status: StatusCode, body: &[u8]) -> Envelope {
    let parsed: Option<serde_json::Value> = serde_json::from_slice(body).ok();
    let field = |name: &str| {
        parsed
            .as_ref()
            .and_then(|v| v.get(name))
            .and_then(serde_json::Value::as_str)
            .filter(|s| !s.is_empty())
            .map(ToString::to_string)
    };
    // Server errors never echo internal details.
    let (error, message) = if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE
    {
        (
            default_code(status).to_string(),
            default_message(status).to_string(),
        )
    } else {
        let error = field("error")
            .filter(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'))
            .unwrap_or_else(|| default_code(status).to_string());
        let message = field("message")
            .or_else(|| field("description"))
            .unwrap_or_else(|| default_message(status).to_string());
        (error, message)
    };
    let errors = parsed
        .as_ref()
        .and_then(|v| v.get("errors"))
        .filter(|v| v.is_object())
        .cloned();
    Envelope {
        error,
        message,
        errors,
    }
}

/// Whether a body is already our envelope (a code and a sentence), possibly with extra
/// documented fields such as the portal's `valid: false`.
fn is_envelope(body: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(body).is_ok_and(|v| {
        v.get("error")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|c| !c.is_empty())
            && v.get("message")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|m| !m.is_empty())
    })
}

/// A failed answer in our envelope with extra fields beside `error` and `message`.
#[must_use]
pub fn envelope_with(
    status: StatusCode,
    code: &str,
    message: &str,
    extra: serde_json::Value,
) -> Response {
    let mut body = serde_json::json!({"error": code, "message": message});
    if let (Some(obj), serde_json::Value::Object(more)) = (body.as_object_mut(), extra) {
        obj.extend(more);
    }
    let mut res = Response::new(Body::from(body.to_string()));
    *res.status_mut() = status;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res
}

/// Whether the path or query carries a NUL character (`%00`): `PostgreSQL` cannot store or compare
/// one in text, so it would fail the query instead of matching nothing.
fn has_encoded_nul(uri: &axum::http::Uri) -> bool {
    uri.path_and_query()
        .is_some_and(|pq| pq.as_str().contains("%00"))
}

/// Middleware: every answer under `/api` carries `Cache-Control: no-store` unless it set its
/// own, and every non-2xx one leaves as the envelope.
pub async fn api_envelope(req: Request, next: Next) -> Response {
    let is_api = req.uri().path().starts_with("/api");
    let mut res = if is_api && has_encoded_nul(req.uri()) {
        ApiError(api_error(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "The address may not contain NUL characters.",
        ))
        .into_response()
    } else {
        next.run(req).await
    };
    if is_api {
        // Private answers never sit in a shared or browser cache; an answer that says how it
        // may be cached (none today) keeps its own.
        res.headers_mut()
            .entry(header::CACHE_CONTROL)
            .or_insert(HeaderValue::from_static("no-store"));
    }
    let status = res.status();
    if !is_api || !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let (parts, body) = res.into_parts();
    let bytes = axum::body::to_bytes(body, 256 * 1024)
        .await
        .unwrap_or_default();
    let is_json = parts
        .headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json && !status.is_server_error() && is_envelope(&bytes) {
        return Response::from_parts(parts, Body::from(bytes));
    }
    let envelope = normalize(status, &bytes);
    let mut out = envelope_response(status, &envelope);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loco_error_detail_becomes_the_envelope() {
        let env = normalize(
            StatusCode::UNAUTHORIZED,
            br#"{"error":"unauthorized","description":"You do not have permission"}"#,
        );
        assert_eq!(env.error, "unauthorized");
        assert_eq!(env.message, "You do not have permission");
        assert!(env.errors.is_none());
    }

    #[test]
    fn plain_text_rejections_get_a_code_and_sentence_from_the_status() {
        let env = normalize(StatusCode::METHOD_NOT_ALLOWED, b"");
        assert_eq!(env.error, "method_not_allowed");
        assert_eq!(env.message, "This method is not allowed here.");
    }

    #[test]
    fn server_errors_never_leak_details() {
        let env = normalize(
            StatusCode::INTERNAL_SERVER_ERROR,
            br#"{"error":"db","description":"relation users does not exist"}"#,
        );
        assert_eq!(env.error, "internal_error");
        assert!(!env.message.contains("relation"));
    }

    #[test]
    fn validation_keeps_field_errors_and_leads_with_the_first_message() {
        let Error::CustomError(status, detail) =
            field_error("password", "Password must be at least 6 characters")
        else {
            panic!("expected a custom error");
        };
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            detail.description.as_deref(),
            Some("Password must be at least 6 characters")
        );
        assert_eq!(
            detail.errors,
            Some(serde_json::json!({"password": ["Password must be at least 6 characters"]}))
        );
    }
}
