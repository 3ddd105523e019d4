use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{
    activities::{self, ActivitySource},
    state,
};

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivityResponse {
    pub id: String,
    /// As stored (`activities::ActivityType`); a screen shows a type it does not know.
    pub activity_type: String,
    pub description: String,
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vendor_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
    /// The person who made the change (as named then); `null` for the vendor portal and the
    /// system.
    pub actor: Option<ActorResponse>,
    pub source: ActivitySource,
}

/// A person of the organization, by the id of `GET /api/team/members`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActorResponse {
    pub id: String,
    pub name: String,
}

impl From<&activities::Model> for ActivityResponse {
    fn from(a: &activities::Model) -> Self {
        Self {
            id: a.pid.to_string(),
            activity_type: a.activity_type.clone(),
            description: a.description.clone(),
            created_at: a.created_at.to_rfc3339(),
            vendor_id: a.vendor_key.clone(),
            document_id: a.document_pid.clone(),
            actor: a.actor_pid.map(|pid| ActorResponse {
                id: pid.to_string(),
                name: a.actor_name.clone().unwrap_or_default(),
            }),
            source: state::stored("activities.source", &a.source, ActivitySource::System),
        }
    }
}
