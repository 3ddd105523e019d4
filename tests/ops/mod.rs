//! What an operator relies on: production start checks, logs, metrics, shutdown, readiness.

mod backup;
mod metrics;
mod production;
mod readiness;
mod shutdown;
mod sqlite_pool;
mod storage_faults;
mod upload_cutoffs;
