//! Sending one webhook delivery (docs/product.md, "Integrations"): a `POST` of the event's JSON
//! body, signed with the endpoint's secret in `Vendorwatch-Signature`
//! (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`), to the addresses the SSRF guard
//! checked just before, without following redirects, waiting at most the configured timeout
//! (10 seconds). What it gave is recorded on the delivery row.

use std::time::Duration;

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use loco_rs::prelude::*;
use sha2::Sha256;

use crate::{
    infra::clock::Clock,
    models::{
        _entities::webhook_endpoints,
        webhooks::{
            deliveries::{self, Outcome, Status, SNIPPET_CHARS},
            targets,
        },
    },
    settings::Settings,
};

/// The header the signature travels in.
pub const SIGNATURE_HEADER: &str = "Vendorwatch-Signature";

/// The signature header's value for `body` sent at `t` (unix seconds) under `secret`.
///
/// # Panics
/// Never: HMAC takes a key of any length.
#[must_use]
pub fn signature(secret: &str, t: i64, body: &str) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

/// How one attempt is made.
#[derive(Debug, Clone, Copy)]
pub struct Attempt {
    pub timeout: Duration,
    pub allow_private: bool,
    pub now: DateTime<Utc>,
}

/// Posts `body` to `url` signed with `secret`; what the endpoint answered, or why it did not.
pub async fn send(url: &str, secret: &str, event_id: &str, body: &str, how: Attempt) -> Outcome {
    let failed = |error: String| Outcome {
        status: None,
        snippet: None,
        error: Some(error),
    };
    let target = match targets::check(url, how.allow_private).await {
        Ok(target) => target,
        Err(why) => return failed(why),
    };
    let client = match reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(how.timeout)
        .resolve_to_addrs(&target.host, &target.addrs)
        .user_agent("Vendorwatch-Webhooks/1.0")
        .build()
    {
        Ok(client) => client,
        Err(e) => return failed(format!("Could not send: {e}")),
    };
    let answer = client
        .post(target.url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header(
            SIGNATURE_HEADER,
            signature(secret, how.now.timestamp(), body),
        )
        .header("Vendorwatch-Event-Id", event_id)
        .body(body.to_string())
        .send()
        .await;
    match answer {
        Ok(response) => {
            let status = response.status();
            let head = tokio::time::timeout(how.timeout, answer_head(response))
                .await
                .unwrap_or_default();
            let snippet: String = String::from_utf8_lossy(&head)
                .chars()
                .take(SNIPPET_CHARS)
                .collect();
            let error = if status.is_success() {
                None
            } else if status.is_redirection() {
                Some(format!(
                    "Answered {}: redirects are not followed.",
                    status.as_u16()
                ))
            } else {
                Some(format!("Answered {}.", status.as_u16()))
            };
            Outcome {
                status: Some(status.as_u16()),
                snippet: (!snippet.is_empty()).then_some(snippet),
                error,
            }
        }
        Err(e) if e.is_timeout() => failed(format!(
            "No answer within {} seconds.",
            how.timeout.as_secs()
        )),
        Err(e) if e.is_connect() => failed("Could not connect to the endpoint.".to_string()),
        Err(e) => failed(format!("Could not send: {e}")),
    }
}

/// The first bytes of an answer's body, enough for the snippet: the rest is never read, so an
/// endpoint answering gigabytes costs a few kilobytes.
async fn answer_head(mut response: reqwest::Response) -> Vec<u8> {
    const HEAD_BYTES: usize = SNIPPET_CHARS * 4;
    let mut head = Vec::new();
    while head.len() < HEAD_BYTES {
        match response.chunk().await {
            Ok(Some(chunk)) => head.extend_from_slice(&chunk),
            Ok(None) | Err(_) => break,
        }
    }
    head.truncate(HEAD_BYTES);
    head
}

/// Makes an attempt on delivery `id` and records what it gave. A delivery already delivered or
/// given up on, or gone with its endpoint, is left alone.
///
/// # Errors
/// Database errors.
pub async fn deliver(ctx: &AppContext, id: i64) -> Result<()> {
    let Some((row, Some(endpoint))) = deliveries::Entity::find_by_id(id)
        .find_also_related(webhook_endpoints::Entity)
        .one(&ctx.db)
        .await?
    else {
        return Ok(());
    };
    if row.status() != Status::Pending {
        return Ok(());
    }
    let settings = Settings::from_context(ctx)?;
    let how = Attempt {
        timeout: Duration::from_secs(settings.webhooks.timeout_seconds.max(1)),
        allow_private: settings.webhooks.allow_private_targets,
        now: Clock::from_context(ctx).now(),
    };
    let outcome = send(
        &endpoint.url,
        &endpoint.secret,
        &row.event_id,
        &row.payload,
        how,
    )
    .await;
    let now = Clock::from_context(ctx).now().max(how.now);
    deliveries::record(&ctx.db, &row, &outcome, now).await
}
