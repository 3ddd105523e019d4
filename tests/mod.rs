//! One integration-test binary: request tests, task tests and queue tests against the real
//! app, each on its own fresh database (`SQLite` by default; `PostgreSQL` when `DATABASE_URL`
//! points at one).

mod fixtures;
mod models;
mod reminders;
mod requests;
mod support;
mod tasks;
mod workers;
