//! What a load balancer and an orchestrator ask: is the process alive (`/_ping`, `/_health`:
//! nothing but the process), and can it serve (`/_readiness`: the database, the queue and the
//! file storage each answer, the storage by taking a small file, named one by one; 503 when
//! any does not).

use std::{future::Future, time::Duration};

use axum::http::StatusCode;
use loco_rs::prelude::*;
use serde::Serialize;

use crate::infra::storage::StorageProbe;

/// A dependency slower than this is taken as down: a readiness probe must answer quickly.
const CHECK_TIMEOUT: Duration = Duration::from_secs(3);

#[derive(Serialize)]
struct Alive {
    ok: bool,
}

#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
enum Check {
    Ok,
    Unavailable,
    /// The embedded queue of a process started without workers, or none configured.
    NotConfigured,
}

#[derive(Serialize)]
struct Readiness {
    ok: bool,
    checks: Checks,
}

#[derive(Serialize)]
struct Checks {
    database: Check,
    queue: Check,
    storage: Check,
}

async fn alive() -> Response {
    Json(Alive { ok: true }).into_response()
}

async fn probe<E: std::fmt::Display>(
    name: &'static str,
    work: impl Future<Output = std::result::Result<(), E>>,
) -> Check {
    match tokio::time::timeout(CHECK_TIMEOUT, work).await {
        Ok(Ok(())) => Check::Ok,
        Ok(Err(error)) => {
            tracing::warn!(dependency = name, error = %error, "readiness check failed");
            Check::Unavailable
        }
        Err(_) => {
            tracing::warn!(dependency = name, "readiness check timed out");
            Check::Unavailable
        }
    }
}

async fn readiness(State(ctx): State<AppContext>) -> Response {
    let database = probe("database", ctx.db.ping());
    let queue = async {
        match &ctx.queue_provider {
            Some(queue) => probe("queue", queue.ping()).await,
            None => Check::NotConfigured,
        }
    };
    // A small file written and deleted where uploads go: a storage that answers but cannot
    // take a file (a full or read-only disk) is not ready. Reused for a few seconds.
    let storage = async {
        let probe = ctx.shared_store.get::<StorageProbe>().unwrap_or_default();
        if probe.writable(&ctx, CHECK_TIMEOUT).await {
            Check::Ok
        } else {
            Check::Unavailable
        }
    };
    let (database, queue, storage) = tokio::join!(database, queue, storage);
    let ok = [database, queue, storage]
        .iter()
        .all(|c| *c != Check::Unavailable);
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = Readiness {
        ok,
        checks: Checks {
            database,
            queue,
            storage,
        },
    };
    (status, Json(body)).into_response()
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/_ping", get(alive))
        .add("/_health", get(alive))
        .add("/_readiness", get(readiness))
}
