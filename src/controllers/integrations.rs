//! Integrations (docs/product.md, "Integrations"): API keys, webhook endpoints with their
//! delivery logs and test events, and the calendar feed. Everything but the feed's file is for
//! the organization's admins and owner ([`OrgAdmin`]); an API key, acting at most as a member,
//! never manages these.

use axum::http::{header, HeaderValue, StatusCode};
use loco_rs::prelude::*;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{current::OrgAdmin, json::ApiJson};
use crate::{
    errors::{ApiResult, Envelope},
    infra::clock::Clock,
    models::{
        api_keys::{self, Scope},
        calendar_feeds::{self, expirations},
        organizations,
        refusal::Refusal,
        webhooks::{self, deliveries, events, EventType, NewEndpoint},
    },
    settings::Settings,
    views::integrations::{ApiKey, CalendarFeed, NewApiKey, NewWebhook, Webhook, WebhookDelivery},
    workers::webhook_delivery::{WebhookDeliveryArgs, WebhookDeliveryWorker},
};

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ApiKeyParams {
    /// 1 to 100 characters once trimmed: what the key is for.
    #[schema(required = true, min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    /// `read` (a viewer) or `write` (at most a member).
    #[schema(required = true, pattern = "^(read|write)$")]
    pub scope: String,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct WebhookParams {
    /// An `https://` (or `http://`) URL on a public address.
    #[schema(required = true, min_length = 1, max_length = 2000)]
    pub url: String,
    /// The events to send: at least one.
    #[schema(required = true, min_items = 1)]
    pub events: Vec<String>,
}

/// The organization's API keys, newest first (no secrets).
#[utoipa::path(get, path = "/api/api-keys", tag = "integrations", security(("bearer" = [])),
    responses((status = 200, body = [ApiKey]), (status = 401, body = Envelope),
        (status = 403, body = Envelope)))]
async fn list_keys(OrgAdmin(current): OrgAdmin, State(ctx): State<AppContext>) -> ApiResult {
    let keys = api_keys::Model::list(&ctx.db, current.org.id).await?;
    super::ok_json(
        keys.into_iter()
            .map(|(key, maker)| ApiKey::new(&key, maker))
            .collect::<Vec<_>>(),
    )
}

/// Makes an API key; the key is in this answer only (it is kept as a digest).
#[utoipa::path(post, path = "/api/api-keys", tag = "integrations", security(("bearer" = [])),
    request_body = ApiKeyParams,
    responses((status = 201, body = NewApiKey), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 422, body = Envelope)))]
async fn create_key(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<ApiKeyParams>,
) -> ApiResult {
    let Some(scope) = crate::models::state::parse::<Scope>(&params.scope) else {
        return Err(Error::from(Refusal::field("scope", "Scope must be read or write.")).into());
    };
    let (key, secret) =
        api_keys::Model::create(&ctx.db, &current.user, &params.name, scope).await?;
    let body = NewApiKey {
        api_key: ApiKey::new(&key, Some(current.user.name.clone())),
        key: secret,
    };
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

/// Revokes an API key: calls with it are refused (401) at once.
#[utoipa::path(delete, path = "/api/api-keys/{id}", tag = "integrations", security(("bearer" = [])),
    params(("id" = String, Path, description = "The key's id")),
    responses((status = 204, description = "Revoked"), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn revoke_key(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    api_keys::Model::revoke(&ctx.db, current.org.id, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The organization's webhook endpoints, oldest first, each with its latest delivery.
#[utoipa::path(get, path = "/api/webhooks", tag = "integrations", security(("bearer" = [])),
    responses((status = 200, body = [Webhook]), (status = 401, body = Envelope),
        (status = 403, body = Envelope)))]
async fn list_webhooks(OrgAdmin(current): OrgAdmin, State(ctx): State<AppContext>) -> ApiResult {
    let endpoints = webhooks::Model::list(&ctx.db, current.org.id).await?;
    let ids: Vec<i64> = endpoints.iter().map(|e| e.id).collect();
    let latest = deliveries::latest_of(&ctx.db, &ids).await?;
    super::ok_json(
        endpoints
            .iter()
            .map(|e| Webhook::new(e, latest.get(&e.id)))
            .collect::<Vec<_>>(),
    )
}

/// Adds a webhook endpoint; its signing secret is in this answer only. A URL on a private,
/// loopback or link-local address is refused (422) unless the server allows them.
#[utoipa::path(post, path = "/api/webhooks", tag = "integrations", security(("bearer" = [])),
    request_body = WebhookParams,
    responses((status = 201, body = NewWebhook), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 422, body = Envelope)))]
async fn create_webhook(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<WebhookParams>,
) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let endpoint = webhooks::Model::create(
        &ctx.db,
        current.org.id,
        NewEndpoint {
            url: &params.url,
            events: &params.events,
            allow_private: settings.webhooks.allow_private_targets,
        },
    )
    .await?;
    let body = NewWebhook {
        webhook: Webhook::new(&endpoint, None),
        secret: endpoint.secret.clone(),
    };
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

/// One webhook endpoint.
#[utoipa::path(get, path = "/api/webhooks/{id}", tag = "integrations", security(("bearer" = [])),
    params(("id" = String, Path, description = "The endpoint's id")),
    responses((status = 200, body = Webhook), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn show_webhook(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let endpoint = webhooks::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let latest = deliveries::latest_of(&ctx.db, &[endpoint.id]).await?;
    super::ok_json(Webhook::new(&endpoint, latest.get(&endpoint.id)))
}

/// Deletes a webhook endpoint and its deliveries: nothing more is sent to it.
#[utoipa::path(delete, path = "/api/webhooks/{id}", tag = "integrations", security(("bearer" = [])),
    params(("id" = String, Path, description = "The endpoint's id")),
    responses((status = 204, description = "Deleted"), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn delete_webhook(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    webhooks::Model::find_in_org(&ctx.db, current.org.id, &id)
        .await?
        .remove(&ctx.db)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The endpoint's latest 50 deliveries, newest first.
#[utoipa::path(get, path = "/api/webhooks/{id}/deliveries", tag = "integrations",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The endpoint's id")),
    responses((status = 200, body = [WebhookDelivery]), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn list_deliveries(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let endpoint = webhooks::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let rows = deliveries::log(&ctx.db, endpoint.id).await?;
    super::ok_json(rows.iter().map(WebhookDelivery::new).collect::<Vec<_>>())
}

/// Sends the endpoint a test event (`ping`), signed like every event, through a worker.
#[utoipa::path(post, path = "/api/webhooks/{id}/test", tag = "integrations",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "The endpoint's id")),
    responses((status = 202, body = WebhookDelivery), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn send_test(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let endpoint = webhooks::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let settings = Settings::from_context(&ctx)?;
    let now = Clock::from_context(&ctx).now();
    let event_id = events::new_event_id();
    let data = serde_json::json!({
        "message": "A test event from Vendorwatch.",
        "sentBy": current.user.name,
    });
    let payload = events::body(&event_id, EventType::Ping, now, &data);
    let row = events::pending(&endpoint, &event_id, EventType::Ping, &payload, now)
        .insert(&ctx.db)
        .await?;
    // Held for the worker it is handed to now, so the task does not hand it out too.
    let hold = settings.webhooks.hold();
    deliveries::hold_row(&ctx.db, row.id, now, hold).await?;
    WebhookDeliveryWorker::perform_later(&ctx, WebhookDeliveryArgs { id: row.id }).await?;
    let row = deliveries::Entity::find_by_id(row.id)
        .one(&ctx.db)
        .await?
        .unwrap_or(row);
    Ok((StatusCode::ACCEPTED, axum::Json(WebhookDelivery::new(&row))).into_response())
}

/// The feed's URL: `{app_url}/api/calendar/{token}.ics`.
fn feed_url(ctx: &AppContext, feed: &calendar_feeds::Model) -> Result<String> {
    let settings = Settings::from_context(ctx)?;
    let secret = &ctx.config.get_jwt_config()?.secret;
    Ok(format!(
        "{}/api/calendar/{}.ics",
        settings.app_url.trim_end_matches('/'),
        feed.token(secret)
    ))
}

/// The organization's secret calendar link.
#[utoipa::path(get, path = "/api/calendar-feed", tag = "integrations", security(("bearer" = [])),
    responses((status = 200, body = CalendarFeed), (status = 401, body = Envelope),
        (status = 403, body = Envelope)))]
async fn show_feed(OrgAdmin(current): OrgAdmin, State(ctx): State<AppContext>) -> ApiResult {
    let feed = calendar_feeds::Model::of_organization(&ctx.db, current.org.id).await?;
    super::ok_json(CalendarFeed {
        url: feed_url(&ctx, &feed)?,
    })
}

/// Gives the calendar feed a new link; the old one stops working at once.
#[utoipa::path(post, path = "/api/calendar-feed/rotate", tag = "integrations",
    security(("bearer" = [])),
    responses((status = 200, body = CalendarFeed), (status = 401, body = Envelope),
        (status = 403, body = Envelope)))]
async fn rotate_feed(OrgAdmin(current): OrgAdmin, State(ctx): State<AppContext>) -> ApiResult {
    let feed = calendar_feeds::Model::rotate(&ctx.db, current.org.id).await?;
    super::ok_json(CalendarFeed {
        url: feed_url(&ctx, &feed)?,
    })
}

/// The calendar file of a feed link (`<token>.ics`), for calendar apps: no sign-in, the link
/// is the secret. An unknown or replaced link is a 404.
#[utoipa::path(get, path = "/api/calendar/{file}", tag = "integrations",
    params(("file" = String, Path, description = "The feed's token and `.ics`")),
    responses((status = 200, content_type = "text/calendar", body = String,
        description = "An iCalendar (RFC 5545) file"), (status = 404, body = Envelope)))]
async fn feed_file(State(ctx): State<AppContext>, Path(file): Path<String>) -> ApiResult {
    let Some(token) = file.strip_suffix(".ics") else {
        return Err(Error::from(Refusal::NotFound).into());
    };
    let secret = &ctx.config.get_jwt_config()?.secret;
    let feed = calendar_feeds::Model::find_by_token(&ctx.db, secret, token)
        .await?
        .ok_or(Refusal::NotFound)
        .map_err(Error::from)?;
    let org = organizations::Entity::find_by_id(feed.organization_id)
        .one(&ctx.db)
        .await?
        .ok_or(Refusal::NotFound)
        .map_err(Error::from)?;
    let settings = Settings::from_context(&ctx)?;
    let rows = expirations(&ctx.db, org.id).await?;
    let body = calendar_feeds::ics(
        &org.name,
        &settings.app_url,
        Clock::from_context(&ctx).now().naive_utc(),
        &rows,
    );
    let mut res = body.into_response();
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/calendar; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/api-keys", get(list_keys))
        .add("/api/api-keys", post(create_key))
        .add("/api/api-keys/{id}", delete(revoke_key))
        .add("/api/webhooks", get(list_webhooks))
        .add("/api/webhooks", post(create_webhook))
        .add("/api/webhooks/{id}", get(show_webhook))
        .add("/api/webhooks/{id}", delete(delete_webhook))
        .add("/api/webhooks/{id}/deliveries", get(list_deliveries))
        .add("/api/webhooks/{id}/test", post(send_test))
        .add("/api/calendar-feed", get(show_feed))
        .add("/api/calendar-feed/rotate", post(rotate_feed))
        .add("/api/calendar/{file}", get(feed_file))
}
