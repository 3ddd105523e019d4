use crate::errors::{ApiError, ApiResult};
use loco_rs::prelude::*;
use serde::Deserialize;

use super::{current::CurrentUser, list_response, Paging};
use crate::{
    errors::{field_error, Envelope},
    models::{
        activities::{self, ActivityQuery, ActivityType},
        state,
    },
    views::activity::ActivityResponse,
};

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct ActivityFilter {
    /// One activity type, e.g. `document_uploaded`.
    #[serde(rename = "type")]
    #[param(value_type = Option<super::ActivityTypeFilter>, inline)]
    pub activity_type: Option<String>,
    /// Only the changes made by this person: a member's `id` (`GET /api/team/members`), or
    /// the `actor.id` of an entry (people no longer in the team too).
    #[param(value_type = Option<String>, format = Uuid)]
    pub actor: Option<String>,
    /// Text in the description.
    pub q: Option<String>,
}

/// The organization's activity log, newest first.
#[utoipa::path(get, operation_id = "list_activity", path = "/api/activity-logs", tag = "activity", security(("bearer" = [])), params(ActivityFilter, Paging),
    responses((status = 200, body = [ActivityResponse]), (status = 401, body = Envelope), (status = 422, body = Envelope)))]
async fn list(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(filter): Query<ActivityFilter>,
    Query(paging): Query<Paging>,
) -> ApiResult {
    let activity_type = match super::filter_value(filter.activity_type.as_deref()) {
        None => None,
        Some(t) => Some(
            state::parse::<ActivityType>(t)
                .ok_or_else(|| ApiError::from(field_error("type", "Unknown activity type")))?,
        ),
    };
    // A person's id, or nothing: unlike the type, not `all` nor empty.
    let actor = match filter.actor.as_deref() {
        None => None,
        Some(a) => Some(
            uuid::Uuid::parse_str(a)
                .map_err(|_| ApiError::from(field_error("actor", "Unknown person")))?,
        ),
    };
    let query = ActivityQuery {
        activity_type,
        actor,
        q: filter.q,
        page: paging.page()?,
    };
    let (rows, total) = activities::Model::list(&ctx.db, current.org.id, &query).await?;
    let body: Vec<ActivityResponse> = rows.iter().map(ActivityResponse::from).collect();
    list_response(&body, total)
}

pub fn routes() -> Routes {
    Routes::new()
        .prefix("/api/activity-logs")
        .add("/", get(list))
}
