//! How long browsers keep the web app's files: the built assets (`/assets/*`, named by their
//! content's hash, so a new build never reuses a name) for a year without asking again; the
//! HTML pages (`index.html` for every app route, the server-rendered blog) revalidated on every
//! visit, so a new release is seen at once.

use axum::{
    extract::Request,
    http::{header, HeaderValue, StatusCode},
    middleware::Next,
    response::Response,
};

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const REVALIDATE: &str = "no-cache";

/// Sets `Cache-Control`, with `Vary: Accept-Encoding`: a built asset's file (or its 304) is
/// kept a year whatever header it came with, since the static middleware's `cache_control`
/// (`no-cache` in production, for the files outside `/assets/` such as the favicon) is set on
/// every file it serves, and left there every repeat visit asked again for each of the app's
/// files; an HTML answer without one is revalidated; anything else is left as it is.
pub async fn cache_headers(req: Request, next: Next) -> Response {
    // The build empties its output first and names every file under `/assets/` by its
    // content's hash (Vite's `[name]-[hash]`), so no name there ever holds two contents.
    let hashed_asset = req.uri().path().starts_with("/assets/");
    let mut res = next.run(req).await;
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    // A missing asset gets the app's page (the fallback): never cached for a year. A 304 keeps
    // its headers too: the browser takes them in place of the ones it stored.
    let found = res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED;
    let value = if hashed_asset && found && !html {
        IMMUTABLE
    } else if html && !res.headers().contains_key(header::CACHE_CONTROL) {
        REVALIDATE
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
