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
pub mod static_cache;
pub mod storage;
pub mod unread_body;
