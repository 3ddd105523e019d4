//! What the product stands on rather than what it does: the database pool and the kept
//! answers, the clock, storage, rate limits, logs and metrics, security headers, static files,
//! graceful stop, backups and the checks of the configuration at start.

pub mod answer_cache;
pub mod backup;
pub mod clock;
pub mod config_check;
pub mod db_pool;
pub mod graceful;
pub mod log_writer;
pub mod observability;
pub mod rate_limit;
pub mod security_headers;
pub mod sqlite_entities;
pub mod sqlite_memory;
pub mod static_cache;
pub mod storage;
pub mod unread_body;

/// jemalloc's settings for the server's binary (`src/bin/main.rs`) and the benchmarks that
/// measure its memory. A background thread gives memory freed a few seconds ago back to the
/// system even while the process is idle: without it, jemalloc returned pages only when later
/// requests allocated, so what a large report took stayed resident (docs/benchmarks/lists.md,
/// "Memory").
pub const JEMALLOC_CONF: &[u8] =
    b"background_thread:true,dirty_decay_ms:5000,muzzy_decay_ms:5000\0";
