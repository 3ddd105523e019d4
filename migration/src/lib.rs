#![allow(elided_lifetimes_in_paths)]
// Loco's migrations import `loco_rs::schema::*` (as `cargo loco generate migration` writes
// them); the one clippy allow outside Cargo.toml's list, for generated code like `_entities`.
#![allow(clippy::wildcard_imports)]
pub use sea_orm_migration::prelude::*;
mod m20260101_000001_organizations;
mod m20260101_000002_users;
mod m20260101_000003_vendors;
mod m20260101_000004_documents;
mod m20260101_000005_reminders;
mod m20260101_000006_activities;
mod m20260201_000001_reminder_deliveries;
mod m20260201_000002_sweep_indexes;
mod m20260301_000001_reminder_claims;
mod m20261123_000001_billing;
mod m20261123_000002_professional;
mod m20261123_000003_blog;
mod m20261123_000004_keywords;
mod m20261123_000005_generation;
mod m20261124_000001_users_pid;
mod m20261124_000002_documents_newest;
mod m20261124_000003_organizations_data_version;
mod m20261125_000001_outgoing_emails;
mod m20261126_000001_checkout_sessions;
mod m20261126_000003_sessions;
mod m20261126_000008_vendors_name_order;
mod m20261126_000010_blog_post_readers;
mod m20261126_000020_organizations_time_zone;
mod m20261126_000120_outgoing_emails_headers;
mod m20261127_000001_teams;
mod m20261128_000001_requirements;
mod m20261128_000002_gap_requests;
mod m20261129_000001_extractions;
mod m20261130_000001_integrations;
mod m20261201_000001_dashboard_indexes;
mod m20261202_000001_webhook_endpoints_org;
mod m20261203_000001_organizations_changed_vendor;
mod m20261204_000001_vendor_figures;
mod m20261205_000001_renewal_requests_org;

/// The slots `vendor_figures` counts a vendor's missing required documents over.
pub use m20261204_000001_vendor_figures::SLOTS as VENDOR_FIGURE_SLOTS;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20260101_000001_organizations::Migration),
            Box::new(m20260101_000002_users::Migration),
            Box::new(m20260101_000003_vendors::Migration),
            Box::new(m20260101_000004_documents::Migration),
            Box::new(m20260101_000005_reminders::Migration),
            Box::new(m20260101_000006_activities::Migration),
            Box::new(m20260201_000001_reminder_deliveries::Migration),
            Box::new(m20260201_000002_sweep_indexes::Migration),
            Box::new(m20260301_000001_reminder_claims::Migration),
            Box::new(m20261123_000001_billing::Migration),
            Box::new(m20261123_000002_professional::Migration),
            Box::new(m20261123_000003_blog::Migration),
            Box::new(m20261123_000004_keywords::Migration),
            Box::new(m20261123_000005_generation::Migration),
            Box::new(m20261124_000001_users_pid::Migration),
            Box::new(m20261124_000002_documents_newest::Migration),
            Box::new(m20261124_000003_organizations_data_version::Migration),
            Box::new(m20261125_000001_outgoing_emails::Migration),
            Box::new(m20261126_000001_checkout_sessions::Migration),
            Box::new(m20261126_000003_sessions::Migration),
            Box::new(m20261126_000008_vendors_name_order::Migration),
            Box::new(m20261126_000010_blog_post_readers::Migration),
            Box::new(m20261126_000020_organizations_time_zone::Migration),
            Box::new(m20261126_000120_outgoing_emails_headers::Migration),
            Box::new(m20261127_000001_teams::Migration),
            Box::new(m20261128_000001_requirements::Migration),
            Box::new(m20261128_000002_gap_requests::Migration),
            Box::new(m20261129_000001_extractions::Migration),
            Box::new(m20261130_000001_integrations::Migration),
            Box::new(m20261201_000001_dashboard_indexes::Migration),
            Box::new(m20261202_000001_webhook_endpoints_org::Migration),
            Box::new(m20261203_000001_organizations_changed_vendor::Migration),
            Box::new(m20261204_000001_vendor_figures::Migration),
            Box::new(m20261205_000001_renewal_requests_org::Migration),
            // inject-above (do not remove this comment)
        ]
    }
}
