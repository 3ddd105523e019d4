//! A request whose body the server did not read to its end (an unknown route, an upload
//! refused part way) gets `Connection: close` on its answer. Otherwise the client, whose
//! connection still carries the rest of that body, would find it closed under its next
//! request instead of being told (hyper drops such a connection without saying so).

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    task::Poll,
};

use axum::{
    body::Body,
    extract::Request,
    http::{header, HeaderValue},
    middleware::Next,
    response::Response,
};
use futures_util::StreamExt;

/// Whether the request says it has a body.
fn has_body(req: &Request) -> bool {
    let headers = req.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|n| n > 0)
}

pub async fn close_if_unread(req: Request, next: Next) -> Response {
    if !has_body(&req) {
        return next.run(req).await;
    }
    let read_to_end = Arc::new(AtomicBool::new(false));
    let flag = read_to_end.clone();
    let (parts, body) = req.into_parts();
    // The body's stream, then an empty one that marks the end when it is reached.
    let end = futures_util::stream::poll_fn(move |_| {
        flag.store(true, Ordering::Release);
        Poll::Ready(None)
    });
    let body = Body::from_stream(body.into_data_stream().chain(end));
    let mut res = next.run(Request::from_parts(parts, body)).await;
    if !read_to_end.load(Ordering::Acquire) {
        res.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    res
}
