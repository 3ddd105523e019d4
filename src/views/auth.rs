use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{members::OrgRole, organizations, users};

/// The signed-in user as the app sees them (`User` in the `OpenAPI` document).
#[derive(Debug, Serialize, ToSchema)]
pub struct UserResponse {
    pub id: String,
    pub name: String,
    pub email: String,
    pub company: Option<String>,
    /// `admin` for the platform operator.
    pub role: users::PlatformRole,
    /// The plan of the user's organization.
    pub plan: organizations::Plan,
    /// The person's role in their organization: what the screens offer them.
    #[serde(rename = "orgRole")]
    pub org_role: OrgRole,
    /// Whether the person gets the reminder emails of the organization's documents.
    #[serde(rename = "reminderEmails")]
    pub reminder_emails: bool,
    /// Whether the user gets the weekly summary email (Professional organizations).
    #[serde(rename = "weeklySummary")]
    pub weekly_summary: bool,
    /// The IANA time zone of the user's organization (`America/Los_Angeles`): its "today" and
    /// the morning its emails go out.
    #[serde(rename = "timeZone")]
    #[schema(example = "America/Los_Angeles")]
    pub time_zone: String,
}

impl UserResponse {
    #[must_use]
    pub fn new(user: &users::Model, org: &organizations::Model) -> Self {
        Self {
            id: user.pid.to_string(),
            name: user.name.clone(),
            email: user.email.clone(),
            company: user.company.clone(),
            role: user.role(),
            plan: org.plan(),
            org_role: user.org_role(),
            reminder_emails: user.reminder_emails,
            weekly_summary: user.weekly_summary,
            time_zone: org.time_zone.clone(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LoginResponse {
    pub token: String,
    pub user: UserResponse,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MessageResponse {
    pub message: String,
}
