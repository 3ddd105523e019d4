//! Security headers on every response. Set deliberately rather than through Loco's presets:
//! its `github` preset allows any HTTPS script and its `owasp` preset sends `Clear-Site-Data`,
//! which would wipe the token kept in localStorage.

use axum::{
    http::{header, HeaderName, HeaderValue},
    Router,
};
use tower_http::set_header::SetResponseHeaderLayer;

/// Only the app's own scripts; no plugins; no framing by other sites.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; \
    connect-src 'self'; frame-src 'self' blob:; object-src 'none'; base-uri 'self'; \
    form-action 'self'; frame-ancestors 'self'";

/// Adds the headers to `router`. A handler that sets one itself (the sandboxed document view)
/// keeps its own.
pub fn apply(router: Router, hsts: bool) -> Router {
    let layer = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    let router = router
        .layer(layer(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(layer(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(layer(
            header::REFERRER_POLICY,
            "strict-origin-when-cross-origin",
        ))
        .layer(layer(header::X_FRAME_OPTIONS, "SAMEORIGIN"))
        .layer(layer(
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
        ));
    if hsts {
        router.layer(layer(
            header::STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        ))
    } else {
        router
    }
}
