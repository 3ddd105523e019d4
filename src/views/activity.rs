use serde::Serialize;
use utoipa::ToSchema;

use crate::models::activities;

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
        }
    }
}
