use crate::errors::ApiResult;
use loco_rs::prelude::*;

use super::{current::CurrentUser, list_response, Paging};
use crate::{errors::Envelope, models::reminders, views::reminders::ReminderResponse};

#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct ReminderOrder {
    /// The order: `reminderDate` (the default, soonest first), `vendor` (its name),
    /// `documentType`, `expirationDate` (none last), `status` (current, expiring soon,
    /// expired) or `sent` (not sent first); a leading `-` for descending. Ties by id.
    #[param(value_type = Option<super::ReminderSortParam>, inline)]
    pub sort: Option<String>,
}

/// The organization's reminders, soonest first unless `sort` says otherwise.
#[utoipa::path(get, operation_id = "list_reminders", path = "/api/reminders", tag = "reminders", security(("bearer" = [])), params(ReminderOrder, Paging),
    responses((status = 200, body = [ReminderResponse]), (status = 401, body = Envelope), (status = 422, body = Envelope)))]
async fn list(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(order): Query<ReminderOrder>,
    Query(paging): Query<Paging>,
) -> ApiResult {
    let sort = super::sort_param(
        order.sort.as_deref(),
        crate::models::search::Sort::default(),
        &reminders::ReminderSort::KEYS,
    )?;
    let (rows, total) =
        reminders::Model::list(&ctx.db, current.org.id, sort, paging.page()?, current.today)
            .await?;
    let today = current.today;
    let body: Vec<ReminderResponse> = rows
        .iter()
        .map(|(r, d, v)| ReminderResponse::new(r, d, v, today))
        .collect();
    list_response(&body, total)
}

pub fn routes() -> Routes {
    Routes::new().prefix("/api/reminders").add("/", get(list))
}
