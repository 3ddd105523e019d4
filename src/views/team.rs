//! The team's people and invitations as the API shows them (docs/product.md, "Teams").

use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{invitations, members::OrgRole, organizations, users};

/// A person of the organization (`member`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberResponse {
    pub id: String,
    pub name: String,
    pub email: String,
    pub org_role: OrgRole,
    /// When they joined: registered (the owner) or accepted their invitation.
    pub joined_at: String,
    /// When they last used the app, to within a few minutes; null before their first visit.
    pub last_active_at: Option<String>,
}

impl MemberResponse {
    #[must_use]
    pub fn new(user: &users::Model) -> Self {
        Self {
            id: user.pid.to_string(),
            name: user.name.clone(),
            email: user.email.clone(),
            org_role: user.org_role(),
            joined_at: user.created_at.to_rfc3339(),
            last_active_at: user.last_active_at.map(|at| at.to_rfc3339()),
        }
    }
}

/// A pending invitation.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationResponse {
    pub id: String,
    pub email: String,
    pub org_role: OrgRole,
    /// The name of the person who sent it.
    pub invited_by: String,
    pub created_at: String,
    /// When its link stops working.
    pub expires_at: String,
}

impl InvitationResponse {
    #[must_use]
    pub fn new(invitation: &invitations::Model) -> Self {
        Self {
            id: invitation.pid.to_string(),
            email: invitation.email.clone(),
            org_role: invitation.org_role(),
            invited_by: invitation.invited_by_name.clone(),
            created_at: invitation.created_at.to_rfc3339(),
            expires_at: invitation.expires_at.to_rfc3339(),
        }
    }
}

/// What the accept-invitation page shows before the account is made.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationPreview {
    pub organization_name: String,
    pub invited_by: String,
    pub email: String,
    pub org_role: OrgRole,
}

impl InvitationPreview {
    #[must_use]
    pub fn new(invitation: &invitations::Model, org: &organizations::Model) -> Self {
        Self {
            organization_name: org.name.clone(),
            invited_by: invitation.invited_by_name.clone(),
            email: invitation.email.clone(),
            org_role: invitation.org_role(),
        }
    }
}
