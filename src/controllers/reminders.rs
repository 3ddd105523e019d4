use crate::errors::ApiResult;
use loco_rs::prelude::*;

use super::{current::CurrentUser, list_response, Paging};
use crate::{
    errors::Envelope,
    models::{documents, reminders},
    views::reminders::ReminderResponse,
};

/// The organization's reminders, soonest first.
#[utoipa::path(get, path = "/api/reminders", tag = "reminders", security(("bearer" = [])), params(Paging),
    responses((status = 200, body = [ReminderResponse]), (status = 401, body = Envelope)))]
async fn list(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(paging): Query<Paging>,
) -> ApiResult {
    let (rows, total) = reminders::Model::list(&ctx.db, current.org.id, paging.page()?).await?;
    let today = documents::today();
    let body: Vec<ReminderResponse> = rows
        .iter()
        .map(|(r, d, v)| ReminderResponse::new(r, d, v, today))
        .collect();
    list_response(&body, total)
}

pub fn routes() -> Routes {
    Routes::new().prefix("/api/reminders").add("/", get(list))
}
