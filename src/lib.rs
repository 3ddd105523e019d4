pub mod ai;
pub mod answer_cache;
pub mod app;
pub mod backup;
pub mod billing;
pub mod clock;
pub mod config_check;
pub mod controllers;
pub mod db_pool;
pub mod dtos;
pub mod errors;
pub mod graceful;
pub mod log_writer;
pub mod mailers;
pub mod models;
pub mod observability;
pub mod rate_limit;
pub mod security_headers;
pub mod settings;
pub mod sqlite_entities;
pub mod static_cache;
pub mod storage;
pub mod tasks;
pub mod unread_body;
pub mod views;
pub mod workers;

/// Chooses rustls's aws-lc-rs crypto provider for the process: both providers end up in the
/// dependency tree, and rustls refuses to guess. The first caller (the Stripe or the AI client)
/// installs it; the others find it installed.
pub fn install_tls_provider() {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
}
