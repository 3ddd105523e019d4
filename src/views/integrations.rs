//! API keys, webhook endpoints and their deliveries, and the calendar feed as the API shows
//! them (docs/product.md, "Integrations"). No secret is shown after it was made.

use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{
    api_keys::{self, Scope},
    webhooks::{
        self,
        deliveries::{self, Status},
        EventType,
    },
};

/// An API key, without its secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKey {
    pub id: String,
    pub name: String,
    pub scope: Scope,
    /// The key's first eight characters, to tell keys apart.
    pub prefix: String,
    pub created_at: String,
    /// The name of the person who made it, through whom it acts.
    pub created_by: Option<String>,
    /// When it was last used, to within a minute; null if never.
    pub last_used_at: Option<String>,
}

impl ApiKey {
    #[must_use]
    pub fn new(key: &api_keys::Model, created_by: Option<String>) -> Self {
        Self {
            id: key.pid.to_string(),
            name: key.name.clone(),
            scope: key.scope(),
            prefix: key.prefix.clone(),
            created_at: key.created_at.to_rfc3339(),
            created_by,
            last_used_at: key.last_used_at.map(|at| at.to_rfc3339()),
        }
    }
}

/// A key just made: the key itself is shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewApiKey {
    #[serde(flatten)]
    pub api_key: ApiKey,
    /// The key: `vwk_` and 40 characters. Send it as `Authorization: Bearer <key>`.
    #[schema(example = "vwk_0123456789abcdefghijABCDEFGHIJ0123456789")]
    pub key: String,
}

/// The latest delivery of an endpoint, in short.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastDelivery {
    pub status: Status,
    /// When it was last tried, or made if not yet tried.
    pub at: String,
}

/// A webhook endpoint, without its secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub id: String,
    pub url: String,
    pub events: Vec<EventType>,
    pub created_at: String,
    pub last_delivery: Option<LastDelivery>,
}

impl Webhook {
    #[must_use]
    pub fn new(endpoint: &webhooks::Model, latest: Option<&deliveries::Model>) -> Self {
        Self {
            id: endpoint.pid.to_string(),
            url: endpoint.url.clone(),
            events: endpoint.event_types(),
            created_at: endpoint.created_at.to_rfc3339(),
            last_delivery: latest.map(|d| LastDelivery {
                status: d.status(),
                at: d.last_attempt_at.unwrap_or(d.created_at).to_rfc3339(),
            }),
        }
    }
}

/// An endpoint just added: its signing secret is shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewWebhook {
    #[serde(flatten)]
    pub webhook: Webhook,
    /// The secret the deliveries are signed with (`whsec_` and 32 characters).
    pub secret: String,
}

/// One event's delivery to one endpoint, with its latest attempt.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDelivery {
    pub id: String,
    /// The event's id, the same on every try (`evt_...`).
    pub event_id: String,
    /// The event's type, or `ping` for a test event.
    #[serde(rename = "type")]
    pub kind: EventType,
    pub status: Status,
    pub attempts: i32,
    /// The endpoint's status code at the latest attempt.
    pub response_status: Option<i32>,
    /// The start of its answer (500 characters at most).
    pub response_snippet: Option<String>,
    /// Why the latest attempt failed.
    pub error: Option<String>,
    pub created_at: String,
    pub last_attempt_at: Option<String>,
    /// When it is tried next, while pending.
    pub next_attempt_at: Option<String>,
}

impl WebhookDelivery {
    #[must_use]
    pub fn new(row: &deliveries::Model) -> Self {
        let status = row.status();
        Self {
            id: row.pid.to_string(),
            event_id: row.event_id.clone(),
            kind: EventType::parse(&row.event_type).unwrap_or(EventType::Ping),
            status,
            attempts: row.attempts,
            response_status: row.response_status,
            response_snippet: row.response_snippet.clone(),
            error: row.error.clone(),
            created_at: row.created_at.to_rfc3339(),
            last_attempt_at: row.last_attempt_at.map(|at| at.to_rfc3339()),
            next_attempt_at: (status == Status::Pending).then(|| row.next_attempt_at.to_rfc3339()),
        }
    }
}

/// The organization's secret calendar link.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CalendarFeed {
    /// The iCalendar (RFC 5545) file's URL, to subscribe to from a calendar app.
    pub url: String,
}
