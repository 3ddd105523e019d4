//! What can happen, and a change turned into deliveries: one row per endpoint that wants the
//! event, all with the event's one id and one body, written in the transaction of the change
//! (so an event exists exactly when its change does).

use chrono::{DateTime, Utc};
use loco_rs::prelude::*;
use sea_orm::ActiveEnum;
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use super::super::{
    _entities::{webhook_deliveries, webhook_endpoints},
    webhook_deliveries::Status,
};

/// The events of the contract (docs/product.md, "Integrations"), and `ping`, the test event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[schema(as = WebhookEvent)]
pub enum EventType {
    #[serde(rename = "vendor.created")]
    VendorCreated,
    #[serde(rename = "vendor.updated")]
    VendorUpdated,
    #[serde(rename = "vendor.deleted")]
    VendorDeleted,
    #[serde(rename = "document.uploaded")]
    DocumentUploaded,
    #[serde(rename = "document.expiring")]
    DocumentExpiring,
    #[serde(rename = "document.expired")]
    DocumentExpired,
    #[serde(rename = "vendor.status_changed")]
    VendorStatusChanged,
    #[serde(rename = "vendor.gaps_changed")]
    VendorGapsChanged,
    /// "Send test event": goes to the one endpoint it is sent to, whatever it wants.
    #[serde(rename = "ping")]
    Ping,
}

impl EventType {
    /// The events an endpoint may choose, in the order the screens list them.
    pub const ALL: [Self; 8] = [
        Self::VendorCreated,
        Self::VendorUpdated,
        Self::VendorDeleted,
        Self::DocumentUploaded,
        Self::DocumentExpiring,
        Self::DocumentExpired,
        Self::VendorStatusChanged,
        Self::VendorGapsChanged,
    ];

    /// The event's name, as sent in `type`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::VendorCreated => "vendor.created",
            Self::VendorUpdated => "vendor.updated",
            Self::VendorDeleted => "vendor.deleted",
            Self::DocumentUploaded => "document.uploaded",
            Self::DocumentExpiring => "document.expiring",
            Self::DocumentExpired => "document.expired",
            Self::VendorStatusChanged => "vendor.status_changed",
            Self::VendorGapsChanged => "vendor.gaps_changed",
            Self::Ping => "ping",
        }
    }

    /// The event named `name`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .chain([Self::Ping])
            .find(|e| e.as_str() == name)
    }
}

/// The body every delivery of an event carries: `{id, type, createdAt, data}`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    created_at: String,
    data: &'a Value,
}

/// A new event id: `evt_` and a time-ordered UUID.
#[must_use]
pub fn new_event_id() -> String {
    format!("evt_{}", Uuid::now_v7().simple())
}

/// The JSON body of event `id` of type `event` with `data`, made at `at`.
#[must_use]
pub fn body(id: &str, event: EventType, at: DateTime<Utc>, data: &Value) -> String {
    serde_json::to_string(&Body {
        id,
        kind: event.as_str(),
        created_at: at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        data,
    })
    .unwrap_or_default()
}

/// Records event `event` of organization `org_id` with `data` for every endpoint of the
/// organization that wants it (none: nothing is written); returns how many deliveries.
///
/// # Errors
/// Database errors.
pub async fn emit<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    event: EventType,
    data: &Value,
    at: DateTime<Utc>,
) -> Result<usize> {
    let endpoints: Vec<webhook_endpoints::Model> = webhook_endpoints::Entity::find()
        .filter(webhook_endpoints::Column::OrganizationId.eq(org_id))
        .all(db)
        .await?
        .into_iter()
        .filter(|e| e.wants(event))
        .collect();
    if endpoints.is_empty() {
        return Ok(0);
    }
    let id = new_event_id();
    let payload = body(&id, event, at, data);
    let rows = endpoints
        .iter()
        .map(|endpoint| pending(endpoint, &id, event, &payload, at));
    webhook_deliveries::Entity::insert_many(rows)
        .exec(db)
        .await?;
    Ok(endpoints.len())
}

/// A delivery of `payload` to `endpoint`, due at `at`.
#[must_use]
pub fn pending(
    endpoint: &webhook_endpoints::Model,
    event_id: &str,
    event: EventType,
    payload: &str,
    at: DateTime<Utc>,
) -> webhook_deliveries::ActiveModel {
    webhook_deliveries::ActiveModel {
        created_at: ActiveValue::Set(at.into()),
        updated_at: ActiveValue::Set(at.into()),
        pid: ActiveValue::Set(Uuid::now_v7()),
        event_id: ActiveValue::Set(event_id.to_string()),
        event_type: ActiveValue::Set(event.as_str().to_string()),
        payload: ActiveValue::Set(payload.to_string()),
        status: ActiveValue::Set(Status::Pending.to_value()),
        attempts: ActiveValue::Set(0),
        next_attempt_at: ActiveValue::Set(at.into()),
        organization_id: ActiveValue::Set(endpoint.organization_id),
        webhook_endpoint_id: ActiveValue::Set(endpoint.id),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_reads_back_from_its_name() {
        for event in EventType::ALL.into_iter().chain([EventType::Ping]) {
            assert_eq!(EventType::parse(event.as_str()), Some(event));
            assert_eq!(
                serde_json::to_value(event).unwrap(),
                Value::String(event.as_str().to_string())
            );
        }
        assert_eq!(EventType::parse("vendor.Created"), None);
    }

    #[test]
    fn the_body_is_the_contracts_envelope() {
        let at = DateTime::parse_from_rfc3339("2026-11-27T10:00:00Z")
            .unwrap()
            .to_utc();
        let body = body(
            "evt_1",
            EventType::VendorCreated,
            at,
            &serde_json::json!({"vendorId": "ABCD1234"}),
        );
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            serde_json::json!({"id": "evt_1", "type": "vendor.created",
                "createdAt": "2026-11-27T10:00:00Z", "data": {"vendorId": "ABCD1234"}})
        );
    }
}
