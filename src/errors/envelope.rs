//! The envelope every failed `/api/*` answer leaves in, and the middleware that puts
//! framework rejections, unknown paths, wrong methods and panics into it
//! (docs/architecture.md, "The error path").

use axum::{
    body::Body,
    extract::Request,
    http::{header, HeaderValue, StatusCode},
    middleware::Next,
};
use loco_rs::prelude::*;
use serde::Serialize;

use super::ApiError;

/// The body of every failed `/api` response.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Envelope {
    pub error: String,
    pub message: String,
    /// Field name -> messages, for validation failures only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<std::collections::BTreeMap<String, Vec<String>>>)]
    pub errors: Option<serde_json::Value>,
}

/// The envelope as a JSON answer, with any documented extra fields beside `error` and
/// `message`.
pub(super) fn envelope_response(
    status: StatusCode,
    env: &Envelope,
    extra: Option<serde_json::Map<String, serde_json::Value>>,
) -> Response {
    let mut value = serde_json::to_value(env).unwrap_or_else(|_| serde_json::json!({}));
    if let (Some(obj), Some(extra)) = (value.as_object_mut(), extra) {
        obj.extend(extra);
    }
    let body = value.to_string();
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = status;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res
}

pub(super) fn default_code(status: StatusCode) -> &'static str {
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

pub(super) fn default_message(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "The request could not be read.",
        401 => "You need to sign in to do this.",
        403 => "You are not allowed to do this.",
        404 => "We could not find what you asked for.",
        405 => "This method is not allowed here.",
        // Each route's body-limit layer states its own figure (`controllers/body_limit.rs`).
        413 => "The request body is too large.",
        415 => "This type of content is not supported.",
        422 => "The request has invalid fields.",
        429 => "Too many attempts. Please wait a moment and try again.",
        _ if status.is_server_error() => "Something went wrong on our side. Please try again.",
        _ => "The request failed.",
    }
}

/// Builds the envelope for a failed `/api` response from whatever body it had.
/// A 503 or a 507 carries its own code and sentence: they tell the client what to do (wait, try
/// later) and hold no internal detail. Any other 5xx is answered with the generic sentence.
pub(super) fn says_what_to_do(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::INSUFFICIENT_STORAGE
    )
}

pub(super) fn normalize(status: StatusCode, body: &[u8]) -> Envelope {
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
    let (error, message) = if status.is_server_error() && !says_what_to_do(status) {
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

/// Where the path or query carries a NUL character (`%00`), if it does: the query parameter's
/// name, or `path`. `PostgreSQL` cannot store or compare one in text, so it would fail the query
/// instead of matching nothing.
fn encoded_nul_at(uri: &axum::http::Uri) -> Option<String> {
    if uri.path().contains("%00") {
        return Some("path".to_string());
    }
    let query = uri.query().filter(|q| q.contains("%00"))?;
    let name = query
        .split('&')
        .find(|pair| pair.contains("%00"))
        .map(|pair| pair.split_once('=').map_or(pair, |(name, _)| name))
        .map(|name| percent_encoding::percent_decode_str(name).decode_utf8_lossy())
        .map(|name| name.replace('\0', ""))
        .filter(|name| !name.is_empty());
    Some(name.unwrap_or_else(|| "query".to_string()))
}

/// Middleware: every answer under `/api` carries `Cache-Control: no-store` unless it set its
/// own, and every non-2xx one leaves as the envelope.
pub async fn api_envelope(req: Request, next: Next) -> Response {
    let is_api = req.uri().path().starts_with("/api");
    let nul_at = if is_api {
        encoded_nul_at(req.uri())
    } else {
        None
    };
    // A rule about a value (the document's patterns say it), so a 422 naming the parameter.
    let mut res = if let Some(field) = nul_at {
        ApiError::from(super::field_error(
            &field,
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
    let mut out = envelope_response(status, &envelope, None);
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
}
