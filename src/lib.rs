pub mod app;
pub mod controllers;
pub mod dtos;
pub mod errors;
pub mod infra;
pub mod mailers;
pub mod models;
pub mod services;
pub mod settings;
pub mod tasks;
pub mod views;
pub mod workers;

/// Chooses rustls's aws-lc-rs crypto provider for the process: both providers end up in the
/// dependency tree, and rustls refuses to guess. The first caller (the Stripe or the AI client)
/// installs it; the others find it installed.
pub fn install_tls_provider() {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
}
