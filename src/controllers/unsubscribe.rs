//! The weekly summary's unsubscribe link (`models::unsubscribe`), which works without signing
//! in. `GET` shows a page with a button and changes nothing, so that a link scanner or a mail
//! client opening the link does not unsubscribe anyone; `POST` (that button, or a mail
//! provider's one-click request, RFC 8058, whose `List-Unsubscribe=One-Click` body needs no
//! reading) turns the summary off. A link that is not valid (an altered pid or signature, a
//! user who is gone) is answered 404 and changes nothing.

use axum::http::{header, HeaderValue, StatusCode};
use loco_rs::prelude::*;
use serde_json::json;

use crate::{
    models::{_entities::users, unsubscribe},
    settings::Settings,
    views::pages::PAGES,
};

/// The page asking to confirm.
async fn confirm(State(ctx): State<AppContext>, Path(token): Path<String>) -> Result<Response> {
    let user = unsubscribe::user_of(&ctx, &token).await?;
    page(&ctx, user.as_ref(), "confirm")
}

/// Turns the weekly summary off.
async fn unsubscribe(State(ctx): State<AppContext>, Path(token): Path<String>) -> Result<Response> {
    let user = unsubscribe::user_of(&ctx, &token).await?;
    if let Some(user) = &user {
        unsubscribe::stop_weekly_summary(&ctx.db, user).await?;
        tracing::info!(user = %user.pid, "weekly summary turned off by its unsubscribe link");
    }
    page(&ctx, user.as_ref(), "done")
}

fn page(ctx: &AppContext, user: Option<&users::Model>, state: &str) -> Result<Response> {
    let settings = Settings::from_context(ctx)?;
    let (status, state, heading) = match (user, state) {
        (None, _) => (StatusCode::NOT_FOUND, "invalid", "This link is not valid"),
        (Some(_), "done") => (StatusCode::OK, "done", "You are unsubscribed"),
        (Some(_), _) => (
            StatusCode::OK,
            "confirm",
            "Unsubscribe from the weekly summary?",
        ),
    };
    let data = json!({
        "state": state,
        "heading": heading,
        "email": user.map(|u| u.email.as_str()),
        "reportsUrl": format!("{}/reports", settings.app_url.trim_end_matches('/')),
    });
    let mut res = format::view(&*PAGES, "email/unsubscribe.html", &data)?;
    *res.status_mut() = status;
    // Personal (it names the address), and never kept by a cache between the two steps.
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

pub fn routes() -> Routes {
    Routes::new().add("/unsubscribe/{token}", get(confirm).post(unsubscribe))
}
