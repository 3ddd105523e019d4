//! How long browsers keep the web app's files: the built assets (`/assets/*`, named by their
//! content's hash, so a new build never reuses a name) for a year without asking again; the
//! HTML pages (`index.html` for every app route, the server-rendered blog) revalidated on every
//! visit, so a new release is seen at once.

use axum::{
    extract::Request,
    http::{header, HeaderValue},
    middleware::Next,
    response::Response,
};

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const REVALIDATE: &str = "no-cache";

/// Sets `Cache-Control` on answers that have none, with `Vary: Accept-Encoding`.
pub async fn cache_headers(req: Request, next: Next) -> Response {
    let hashed_asset = req.uri().path().starts_with("/assets/");
    let mut res = next.run(req).await;
    if res.headers().contains_key(header::CACHE_CONTROL) {
        return res;
    }
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    // A missing asset gets the app's page (the fallback): never cached for a year.
    let value = if html {
        REVALIDATE
    } else if hashed_asset && res.status().is_success() {
        IMMUTABLE
    } else {
        return res;
    };
    let headers = res.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    // The same address answers the build's .gz copy or the plain file, by the request's
    // Accept-Encoding: a shared cache must keep them apart (tower-http does not say so).
    let varies = headers.get_all(header::VARY).iter().any(|v| {
        v.to_str()
            .is_ok_and(|v| v.to_ascii_lowercase().contains("accept-encoding"))
    });
    if !varies {
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    res
}
