//! An organization's webhook endpoints (docs/product.md, "Integrations"): where events are
//! sent, which events, and the secret each delivery is signed with. The rest of the webhooks is
//! in `models::webhooks`.

use loco_rs::prelude::*;
use rand::{distr::Alphanumeric, Rng};
use uuid::Uuid;

pub use super::_entities::webhook_endpoints::{ActiveModel, Column, Entity, Model};
use super::{
    refusal::Refusal,
    webhooks::{targets, EventType},
};

impl ActiveModelBehavior for ActiveModel {}

/// Endpoints an organization may have.
pub const MAX_ENDPOINTS: u64 = 10;
/// A URL's longest spelling.
const URL_MAX: usize = 2000;
/// What every signing secret starts with.
const SECRET_PREFIX: &str = "whsec_";

/// A new endpoint: where and for which events.
#[derive(Debug, Clone)]
pub struct NewEndpoint<'a> {
    pub url: &'a str,
    pub events: &'a [String],
    /// Whether private, loopback and link-local targets are allowed (`settings.webhooks`).
    pub allow_private: bool,
}

impl Model {
    /// The events this endpoint wants.
    #[must_use]
    pub fn event_types(&self) -> Vec<EventType> {
        self.events
            .split(',')
            .filter_map(|name| EventType::parse(name.trim()))
            .collect()
    }

    /// Whether this endpoint wants `event` (the test event goes to any endpoint).
    #[must_use]
    pub fn wants(&self, event: EventType) -> bool {
        event == EventType::Ping || self.event_types().contains(&event)
    }

    /// Adds an endpoint to organization `org_id`, after checking its URL (a public address,
    /// unless private ones are allowed) and its events.
    ///
    /// # Errors
    /// 422 naming `url` (also past [`MAX_ENDPOINTS`]) or `events`; database errors.
    pub async fn create(
        db: &DatabaseConnection,
        org_id: i64,
        new: NewEndpoint<'_>,
    ) -> Result<Self> {
        let url = new.url.trim();
        if url.chars().count() > URL_MAX {
            return Err(Refusal::field("url", "The URL is at most 2,000 characters.").into());
        }
        let events = parse_events(new.events)?;
        targets::check(url, new.allow_private)
            .await
            .map_err(|why| Error::from(Refusal::field("url", &why)))?;
        let count = Entity::find()
            .filter(Column::OrganizationId.eq(org_id))
            .count(db)
            .await?;
        if count >= MAX_ENDPOINTS {
            return Err(Refusal::field(
                "url",
                &format!(
                    "An organization can have {MAX_ENDPOINTS} webhook endpoints. Delete one to \
                     add another."
                ),
            )
            .into());
        }
        let secret: String = rand::rng()
            .sample_iter(&Alphanumeric)
            .take(32)
            .map(char::from)
            .collect();
        Ok(ActiveModel {
            pid: ActiveValue::Set(Uuid::now_v7()),
            url: ActiveValue::Set(url.to_string()),
            events: ActiveValue::Set(
                events
                    .iter()
                    .map(|e| e.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            secret: ActiveValue::Set(format!("{SECRET_PREFIX}{secret}")),
            organization_id: ActiveValue::Set(org_id),
            ..Default::default()
        }
        .insert(db)
        .await?)
    }

    /// The organization's endpoints, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(db: &DatabaseConnection, org_id: i64) -> Result<Vec<Self>> {
        Ok(Entity::find()
            .filter(Column::OrganizationId.eq(org_id))
            .order_by_asc(Column::Id)
            .all(db)
            .await?)
    }

    /// Endpoint `pid` of the organization.
    ///
    /// # Errors
    /// `NotFound` (404) for no such endpoint in the organization; database errors.
    pub async fn find_in_org(db: &DatabaseConnection, org_id: i64, pid: &str) -> Result<Self> {
        let pid = Uuid::parse_str(pid).map_err(|_| Error::NotFound)?;
        Entity::find()
            .filter(Column::OrganizationId.eq(org_id))
            .filter(Column::Pid.eq(pid))
            .one(db)
            .await?
            .ok_or(Error::NotFound)
    }

    /// Deletes the endpoint and its deliveries: nothing more is sent to it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn remove(self, db: &DatabaseConnection) -> Result<()> {
        Entity::delete_by_id(self.id).exec(db).await?;
        Ok(())
    }
}

/// The events named, each once, in the order of [`EventType::ALL`].
fn parse_events(names: &[String]) -> Result<Vec<EventType>> {
    if names.is_empty() {
        return Err(Refusal::field("events", "Choose at least one event.").into());
    }
    let mut chosen = Vec::new();
    for name in names {
        let Some(event) = EventType::parse(name.trim()).filter(|e| *e != EventType::Ping) else {
            return Err(Refusal::field(
                "events",
                &format!("There is no event named \"{}\".", name.trim()),
            )
            .into());
        };
        chosen.push(event);
    }
    Ok(EventType::ALL
        .into_iter()
        .filter(|e| chosen.contains(e))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_once_each_in_order_and_unknown_ones_refused() {
        let names = |list: &[&str]| list.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(
            parse_events(&names(&[
                "document.expired",
                "vendor.created",
                "vendor.created"
            ]))
            .unwrap(),
            vec![EventType::VendorCreated, EventType::DocumentExpired]
        );
        assert!(parse_events(&[]).is_err());
        assert!(parse_events(&names(&["vendor.exploded"])).is_err());
        assert!(parse_events(&names(&["ping"])).is_err());
    }
}
