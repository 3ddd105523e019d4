//! What an operator sees of a running process (docs/deploy.md, "Operations"):
//! - a log span per request carrying its request id (taken from `X-Request-Id` or made, by
//!   Loco's `request_id` middleware), its method, route template and path (never the query
//!   string, which may carry a company key), and the organization and user once the caller is
//!   known; every line logged while the request runs carries them, and a `request finished`
//!   line closes it with its status and time;
//! - Prometheus metrics, off unless `METRICS_LISTEN` names an address: then this process (a
//!   server, a worker or the scheduler) answers scrapes there, on a port of its own, never on
//!   the public one.

use std::{
    net::SocketAddr,
    sync::OnceLock,
    time::{Duration, Instant},
};

use axum::{
    body::Body,
    extract::{MatchedPath, Request},
    http::Method,
    middleware::Next,
    response::Response,
    Router as AXRouter,
};
use loco_rs::{
    app::AppContext,
    config::QueueConfig,
    controller::middleware::{request_id::LocoRequestId, MiddlewareLayer},
    Error, Result,
};
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::PrometheusBuilder;
use tower_http::trace::TraceLayer;
use tracing::{field::Empty, Span};

use crate::settings::MetricsSettings;

/// The process's log when the configuration asks for JSON on stdout (production): the same
/// lines as Loco's (`timestamp`, `level`, `fields`, `target`, the current `span` and the
/// `spans` list, filtered by Loco's filter), written by `json-subscriber`, which keeps each
/// span's fields as JSON values. `tracing-subscriber`'s JSON formatter, which Loco uses, keeps
/// them as text and parses that text again for every line written inside the span (twice:
/// `span` and `spans`) and on every field recorded later. Any other logger configuration (the
/// compact and pretty formats of development, a file appender) is left to Loco: `Ok(false)`.
///
/// # Errors
/// When the log's writer thread cannot be started. A process that already has a subscriber
/// keeps it.
pub fn init_logger<H: loco_rs::app::Hooks>(config: &loco_rs::config::Logger) -> Result<bool> {
    use tracing_subscriber::{layer::SubscriberExt, util::SubscriberInitExt};
    let file = config.file_appender.as_ref().is_some_and(|f| f.enable);
    if !config.enable || file || !matches!(config.format, loco_rs::logger::Format::Json) {
        return Ok(false);
    }
    let filter =
        loco_rs::logger::init_env_filter::<H>(config.override_filter.as_ref(), &config.level);
    // Lines go to stdout in batches from a thread of their own (`log_writer`).
    let (writer, thread) = crate::infra::log_writer::BatchLog::start(std::io::stdout())
        .map_err(|e| Error::string(&format!("log writer: {e}")))?;
    let registered = tracing_subscriber::registry()
        .with(json_subscriber::fmt::layer().with_writer(writer))
        .with(filter)
        .try_init();
    match LOG_WRITER.lock() {
        Ok(mut slot) if registered.is_ok() => *slot = Some(thread),
        _ => thread.stop(),
    }
    Ok(true)
}

/// The log's writer thread, stopped by `flush_log`.
static LOG_WRITER: std::sync::Mutex<Option<crate::infra::log_writer::BatchLogThread>> =
    std::sync::Mutex::new(None);

/// Writes the log lines still queued (`init_logger`); called by `main` before the process
/// exits, whether it ends well or with an error (a refused start's reason is its last line).
pub fn flush_log() {
    let thread = LOG_WRITER.lock().ok().and_then(|mut slot| slot.take());
    if let Some(thread) = thread {
        thread.stop();
    }
}

/// Replaces Loco's `logger` middleware (same place in the stack: inside `request_id`, so the
/// id is known when the span is made).
pub struct RequestLog;

impl MiddlewareLayer for RequestLog {
    fn name(&self) -> &'static str {
        "logger"
    }

    fn config(&self) -> serde_json::Result<serde_json::Value> {
        Ok(serde_json::json!({ "enable": true }))
    }

    fn apply(&self, app: AXRouter<AppContext>) -> Result<AXRouter<AppContext>> {
        Ok(app.layer(axum::middleware::from_fn(finish)).layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_request(())
                .on_response(())
                .on_failure(()),
        ))
    }
}

fn route_of(req: &Request<Body>) -> &str {
    req.extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
}

/// `error_span!` so the span, and the request id on every line inside it, exists at any log
/// level.
fn request_span(req: &Request<Body>) -> Span {
    let request_id = req
        .extensions()
        .get::<LocoRequestId>()
        .map_or("", LocoRequestId::get);
    tracing::error_span!(
        "request",
        request_id,
        method = %req.method(),
        route = route_of(req),
        path = req.uri().path(),
        org_id = Empty,
        user_id = Empty,
    )
}

/// Adds the signed-in caller to the current request's span (and so to every line after).
pub fn record_caller(org_id: i64, user_id: i64) {
    let span = Span::current();
    span.record("org_id", org_id);
    span.record("user_id", user_id);
}

/// The `method` label: HTTP's own methods by name, any other `other`. A method is the client's
/// to invent (`MABCDEF /x` is a valid request), and each label value is a series the process
/// keeps for good, in the counter and in each bucket of the histogram.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

/// Every label of the request metrics comes from a bounded set, never from what the client
/// wrote: the method (`method_label`), the route template (`route_of`: a matched route's
/// template, or `unmatched`) and the status code.
async fn finish(req: Request, next: Next) -> Response {
    let route = route_of(&req).to_string();
    let method = method_label(req.method());
    let started = Instant::now();
    let res = next.run(req).await;
    let elapsed = started.elapsed();
    let status = res.status().as_u16();
    tracing::info!(
        status,
        latency_ms = elapsed.as_secs_f64() * 1000.0,
        "request finished"
    );
    count_upload(method, &route, status);
    counter!("http_requests_total", "method" => method, "route" => route.clone(),
        "status" => status.to_string())
    .increment(1);
    histogram!("http_request_duration_seconds", "method" => method, "route" => route)
        .record(elapsed.as_secs_f64());
    res
}

/// A background job's end, counted by worker (`jobs_total{worker, outcome}`).
pub fn job_done<T, E>(worker: &'static str, result: &std::result::Result<T, E>) {
    let outcome = if result.is_ok() { "done" } else { "failed" };
    counter!("jobs_total", "worker" => worker, "outcome" => outcome).increment(1);
}

/// An email the mail server (or the queue) accepted or refused.
pub fn email_sent<T, E>(result: &std::result::Result<T, E>) {
    if result.is_ok() {
        counter!("emails_sent_total").increment(1);
    } else {
        counter!("emails_refused_total").increment(1);
    }
}

/// An answer the answer cache did not have kept: computed whole, or carried forward from the
/// version before (`answers_made_total{how}`: `computed`, `carried`).
pub fn answer_made(carried: bool) {
    let how = if carried { "carried" } else { "computed" };
    counter!("answers_made_total", "how" => how).increment(1);
}

/// A reminder marked sent.
pub fn reminder_sent() {
    counter!("reminders_sent_total").increment(1);
}

/// The routes that take a document file: their answers count as uploads stored (201) or
/// refused (anything else).
const UPLOAD_ROUTES: [&str; 2] = ["/api/vendors/{id}/documents", "/api/vendor-upload-document"];

fn count_upload(method: &str, route: &str, status: u16) {
    if method != "POST" || !UPLOAD_ROUTES.contains(&route) {
        return;
    }
    if status == 201 {
        counter!("uploads_stored_total", "route" => route.to_string()).increment(1);
    } else {
        counter!("uploads_refused_total", "route" => route.to_string(),
            "status" => status.to_string())
        .increment(1);
    }
}

/// Latency buckets (seconds) of `http_request_duration_seconds`.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];
/// How often the pool and queue gauges are read.
const GAUGE_EVERY: Duration = Duration::from_secs(5);

static INSTALLED: OnceLock<SocketAddr> = OnceLock::new();

/// Starts this process's scrape endpoint when `metrics.listen` is set (once per process), and
/// the task that reads the database pool and the queue's depth into gauges.
///
/// # Errors
/// When the address does not parse.
pub fn start_metrics(settings: &MetricsSettings, ctx: &AppContext) -> Result<()> {
    let listen = settings.listen.trim();
    if listen.is_empty() || INSTALLED.get().is_some() {
        return Ok(());
    }
    let addr: SocketAddr = listen
        .parse()
        .map_err(|e| Error::string(&format!("METRICS_LISTEN `{listen}`: {e}")))?;
    // A process whose address is taken (a task the scheduler starts inherits the scheduler's
    // METRICS_LISTEN) runs without metrics rather than not at all.
    if let Err(e) = PrometheusBuilder::new()
        .with_http_listener(addr)
        .set_buckets(&BUCKETS)
        .and_then(PrometheusBuilder::install)
    {
        tracing::warn!(%addr, error = %e, "metrics not served: METRICS_LISTEN cannot be used");
        return Ok(());
    }
    let _ = INSTALLED.set(addr);
    tracing::info!(%addr, "metrics listening");
    let db = ctx.db.clone();
    let mut queue = QueueDepth::new(ctx.config.queue.clone());
    tokio::spawn(async move {
        let mut every = tokio::time::interval(GAUGE_EVERY);
        loop {
            every.tick().await;
            read_pool(&db);
            if let Some(depth) = queue.read().await {
                #[allow(clippy::cast_precision_loss)]
                gauge!("queue_jobs_waiting").set(depth as f64);
            }
        }
    });
    Ok(())
}

fn read_pool(db: &sea_orm::DatabaseConnection) {
    let (size, idle) = match db.get_database_backend() {
        sea_orm::DatabaseBackend::Postgres => {
            let pool = db.get_postgres_connection_pool();
            (pool.size(), pool.num_idle())
        }
        sea_orm::DatabaseBackend::Sqlite => {
            let pool = db.get_sqlite_connection_pool();
            (pool.size(), pool.num_idle())
        }
        _ => return,
    };
    gauge!("db_pool_connections").set(f64::from(size));
    let in_use = size.saturating_sub(u32::try_from(idle).unwrap_or(u32::MAX));
    gauge!("db_pool_connections_in_use").set(f64::from(in_use));
}

/// Jobs waiting in the queue: the Redis sorted sets of every queue, or the embedded queue's
/// queued rows. The Redis connection is opened once and kept (again after an error).
struct QueueDepth {
    config: Option<QueueConfig>,
    redis: Option<redis::aio::MultiplexedConnection>,
}

impl QueueDepth {
    const fn new(config: Option<QueueConfig>) -> Self {
        Self {
            config,
            redis: None,
        }
    }

    async fn read(&mut self) -> Option<u64> {
        match self.config.as_ref()? {
            QueueConfig::Redis(redis) => {
                // Loco's Redis queue keeps the waiting jobs of each queue in the sorted set
                // `queue:<name>`: `default`, `mailer` and any the configuration adds.
                let mut names = vec!["default".to_string(), "mailer".to_string()];
                names.extend(redis.queues.iter().flatten().cloned());
                if self.redis.is_none() {
                    let client = redis::Client::open(redis.uri.as_str()).ok()?;
                    self.redis = client.get_multiplexed_async_connection().await.ok();
                }
                let conn = self.redis.as_mut()?;
                let mut pipe = redis::pipe();
                for name in &names {
                    pipe.cmd("ZCARD").arg(format!("queue:{name}"));
                }
                match pipe.query_async::<Vec<u64>>(conn).await {
                    Ok(counts) => Some(counts.iter().sum()),
                    Err(e) => {
                        tracing::debug!(error = %e, "queue depth not read");
                        self.redis = None;
                        None
                    }
                }
            }
            other => queue_depth(other).await,
        }
    }
}

/// The embedded queue's queued rows.
async fn queue_depth(queue: &QueueConfig) -> Option<u64> {
    match queue {
        QueueConfig::Sqlite(sqlite) => {
            use sea_orm::sqlx::{sqlite::SqliteConnectOptions, ConnectOptions, Connection};
            let counted: std::result::Result<i64, sea_orm::sqlx::Error> = async {
                let options: SqliteConnectOptions = sqlite.uri.parse()?;
                let mut conn = options.connect().await?;
                let depth = sea_orm::sqlx::query_scalar(
                    "SELECT count(*) FROM sqlt_loco_queue WHERE status = 'queued'",
                )
                .fetch_one(&mut conn)
                .await;
                let _ = conn.close().await;
                depth
            }
            .await;
            match counted {
                Ok(depth) => u64::try_from(depth).ok(),
                Err(e) => {
                    tracing::debug!(error = %e, "queue depth not read");
                    None
                }
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use axum::http::Method;

    use super::method_label;

    #[test]
    fn a_method_label_is_http_s_own_name_or_other() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        assert_eq!(
            method_label(&Method::from_bytes(b"MABCDEF").unwrap()),
            "other"
        );
        assert_eq!(method_label(&Method::from_bytes(b"get").unwrap()), "other");
    }
}
