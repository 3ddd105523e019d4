//! One integration-test binary: request tests, task tests and queue tests against the real
//! app, each on its own fresh database (`SQLite` by default; `PostgreSQL` when `DATABASE_URL`
//! points at one).

// The Stripe-shaped objects of `support::stripe` are large `json!` literals.
#![recursion_limit = "256"]

mod fixtures;
mod models;
mod ops;
mod reminders;
mod requests;
mod support;
mod tasks;
mod workers;
