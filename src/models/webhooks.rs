//! Webhooks out (docs/product.md, "Integrations"): an organization's endpoints, the events
//! each wants, and every delivery from the moment its event happens until the endpoint took it
//! or the product gave up, 24 hours later.
//!
//! - [`endpoints`] (`models::webhook_endpoints`): where, which events, the signing secret.
//! - [`events`]: what can happen, and turning a change into one delivery row per endpoint that
//!   wants it, in the transaction of the change itself.
//! - [`deliveries`] (`models::webhook_deliveries`): the rows as a queue: which are due, taking
//!   one, what an attempt gave, when to try again.
//! - [`changes`] (`models::webhook_vendor_states`): the events no request makes (a date passes,
//!   a document starts expiring): each vendor's status, gaps and expiring and expired documents
//!   compared with the last look.
//! - [`targets`]: the SSRF guard: where a delivery may go.

pub mod events;
pub mod targets;

pub use self::events::EventType;
pub use super::{
    webhook_deliveries as deliveries, webhook_endpoints as endpoints,
    webhook_endpoints::{Entity, Model, NewEndpoint, MAX_ENDPOINTS},
    webhook_vendor_states as changes,
};
