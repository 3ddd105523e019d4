//! Integrations (docs/product.md, "Integrations"): API keys acting within their scope for their
//! organization only; the calendar feed read back by a real iCalendar parser; signed webhooks
//! received by a real HTTP server of the test's own, checked with an independent HMAC, retried,
//! timed out, and delivered after a worker died mid-delivery.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration as StdDuration,
};

use axum::{extract::State, http::HeaderMap, routing::post, Router};
use chrono::{Duration, Utc};
use hmac_for_tests::{Hmac, KeyInit, Mac};
use loco_rs::{boot::run_task, prelude::AppContext, TestServer};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};
use sha2_for_tests::Sha256;
use tokio::sync::Notify;
use vendorwatch::{
    app::App,
    infra::clock::Clock,
    models::{
        _entities::{activities, api_keys, vendors, webhook_deliveries, webhook_endpoints},
        webhooks::deliveries,
    },
    services::webhooks::deliver,
};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, in_days, make_admin, make_professional, other_org,
    register, task_vars, upload, vendor_body, with_app, with_app_config, Account, UploadSpec,
};

/// What the receiver does with the next request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Ok,
    Fail,
    /// Holds the request until `release` is notified.
    Hang,
    /// 200, with a body that never ends.
    Endless,
}

/// One request the receiver got.
#[derive(Clone, Debug)]
struct Received {
    signature: String,
    body: String,
}

#[derive(Clone)]
struct Receiver {
    answers: Arc<Mutex<Vec<Answer>>>,
    got: Arc<Mutex<Vec<Received>>>,
    arrived: Arc<Notify>,
    release: Arc<Notify>,
    url: String,
}

impl Receiver {
    /// A receiver on a port of its own, answering `answers` in turn, then 200.
    async fn start(answers: &[Answer]) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        let receiver = Self {
            answers: Arc::new(Mutex::new(answers.iter().rev().copied().collect())),
            got: Arc::default(),
            arrived: Arc::default(),
            release: Arc::default(),
            url: format!("http://{addr}/hook"),
        };
        let app = Router::new()
            .route("/hook", post(receive))
            .with_state(receiver.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        receiver
    }

    fn got(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits for a request to arrive; fails the test after 30 seconds without one (a
    /// delivery that is never made must fail the suite, not hang it).
    async fn wait_for_arrival(&self) {
        tokio::time::timeout(StdDuration::from_secs(30), self.arrived.notified())
            .await
            .expect("a delivery reached the endpoint within 30 seconds");
    }
}

async fn receive(
    State(receiver): State<Receiver>,
    headers: HeaderMap,
    body: String,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    receiver.got.lock().unwrap().push(Received {
        signature: headers
            .get("vendorwatch-signature")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default(),
        body,
    });
    receiver.arrived.notify_one();
    let answer = receiver.answers.lock().unwrap().pop().unwrap_or(Answer::Ok);
    match answer {
        Answer::Ok => (axum::http::StatusCode::OK, "thanks").into_response(),
        Answer::Fail => (
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "down for now",
        )
            .into_response(),
        Answer::Hang => {
            receiver.release.notified().await;
            (axum::http::StatusCode::OK, "late").into_response()
        }
        Answer::Endless => axum::body::Body::from_stream(futures_util::stream::repeat_with(|| {
            Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"0123456789abcdef"))
        }))
        .into_response(),
    }
}

/// Checks `signature` (`t=..,v1=..`) over `body` with `secret`, as a receiver would, with an
/// HMAC implementation other than the app's.
fn signature_is_valid(signature: &str, body: &str, secret: &str) -> bool {
    let mut t = None;
    let mut v1 = None;
    for part in signature.split(',') {
        match part.split_once('=') {
            Some(("t", value)) => t = Some(value.to_string()),
            Some(("v1", value)) => v1 = Some(value.to_string()),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    let Ok(given) = hex::decode(v1) else {
        return false;
    };
    mac.verify_slice(&given).is_ok()
}

fn as_key(key: &str) -> Account {
    Account {
        token: key.to_string(),
        user: Value::Null,
        email: String::new(),
    }
}

async fn make_key(server: &TestServer, admin: &Account, name: &str, scope: &str) -> Value {
    let (h, v) = bearer(&admin.token);
    let res = server
        .post("/api/api-keys")
        .add_header(h, v)
        .json(&json!({"name": name, "scope": scope}))
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json()
}

async fn make_webhook(server: &TestServer, admin: &Account, url: &str, events: &[&str]) -> Value {
    let (h, v) = bearer(&admin.token);
    let res = server
        .post("/api/webhooks")
        .add_header(h, v)
        .json(&json!({"url": url, "events": events}))
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json()
}

async fn run_webhooks(ctx: &AppContext, changes: bool) {
    let vars = if changes {
        task_vars(&[("changes", "true")])
    } else {
        task_vars(&[])
    };
    run_task::<App>(ctx, Some(&"webhooks".to_string()), &vars)
        .await
        .unwrap();
}

async fn delivery_rows(ctx: &AppContext) -> Vec<webhook_deliveries::Model> {
    webhook_deliveries::Entity::find()
        .all(&ctx.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn an_api_key_is_shown_once_and_acts_for_its_organization_within_its_scope() {
    with_app(|server, ctx| async move {
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let vendor = create_vendor(&server, &admin, "Acme Plumbing").await;
        let made = make_key(&server, &admin, "Accounting sync", "write").await;
        let key = made["key"].as_str().unwrap().to_string();
        assert!(key.starts_with("vwk_") && key.len() == 44, "{key}");
        assert_eq!(made["prefix"], &key[..8]);
        assert_eq!(made["scope"], "write");
        // Kept as a digest only; the list never shows the key.
        let stored = api_keys::Entity::find()
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        assert_ne!(stored.digest, key);
        assert!(!stored.digest.contains(&key[4..]));
        let listed = get(&server, &admin, "/api/api-keys").await;
        assert!(!listed.text().contains(&key), "{}", listed.text());
        assert_eq!(listed.json::<Value>()[0]["lastUsedAt"], Value::Null);

        // The key reads and writes as its maker would, at most as a member.
        let api = as_key(&key);
        let list = get(&server, &api, "/api/vendors").await;
        assert_eq!(list.status_code(), 200);
        assert_eq!(list.json::<Value>()[0]["id"], vendor["id"]);
        let (h, v) = bearer(&key);
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&vendor_body("Made By Api"))
            .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let entry = activities::Entity::find()
            .filter(activities::Column::ActivityType.eq("vendor_created"))
            .filter(activities::Column::Source.eq("api"))
            .one(&ctx.db)
            .await
            .unwrap()
            .expect("the key's change is logged with source api");
        assert_eq!(
            entry.actor_name.as_deref(),
            Some("Ann Admin (API key \"Accounting sync\")")
        );
        let listed: Value = get(&server, &admin, "/api/api-keys").await.json();
        assert!(listed[0]["lastUsedAt"].is_string(), "{listed}");

        // Not an admin: keys do not manage keys, nor reach the platform's tools.
        let (h, v) = bearer(&key);
        let res = server
            .post("/api/api-keys")
            .add_header(h, v)
            .json(&json!({"name": "Escalated", "scope": "write"}))
            .await;
        assert_envelope(&res, 403, "forbidden_role");
        make_admin(&ctx, &admin).await;
        assert_eq!(
            get(&server, &admin, "/api/admin/blog-posts")
                .await
                .status_code(),
            200
        );
        let refused = get(&server, &api, "/api/admin/blog-posts").await;
        assert_envelope(&refused, 403, "forbidden");
        assert_eq!(api_keys::Entity::find().count(&ctx.db).await.unwrap(), 1);

        // Another organization's vendor is not found through the key.
        let mallory = other_org(&server).await;
        let theirs = create_vendor(&server, &mallory, "Their Vendor").await;
        let path = format!("/api/vendors/{}", theirs["id"].as_str().unwrap());
        assert_envelope(&get(&server, &api, &path).await, 404, "not_found");
        let (h, v) = bearer(&key);
        let res = server.delete(&path).add_header(h, v).await;
        assert_envelope(&res, 404, "not_found");
        assert_eq!(get(&server, &mallory, &path).await.status_code(), 200);
    })
    .await;
}

#[tokio::test]
async fn a_read_key_writes_nothing_and_a_revoked_key_is_refused_at_once() {
    with_app(|server, ctx| async move {
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let read = make_key(&server, &admin, "Dashboard", "read").await;
        let key = read["key"].as_str().unwrap().to_string();
        let (h, v) = bearer(&key);
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&vendor_body("Not Made"))
            .await;
        assert_envelope(&res, 403, "forbidden_role");
        assert_eq!(vendors::Entity::find().count(&ctx.db).await.unwrap(), 0);
        assert_eq!(
            get(&server, &as_key(&key), "/api/vendors")
                .await
                .status_code(),
            200
        );

        // Another organization cannot revoke it: 404, and the key still works.
        let mallory = other_org(&server).await;
        let path = format!("/api/api-keys/{}", read["id"].as_str().unwrap());
        let (h, v) = bearer(&mallory.token);
        assert_envelope(
            &server.delete(&path).add_header(h, v).await,
            404,
            "not_found",
        );
        assert_eq!(
            get(&server, &as_key(&key), "/api/vendors")
                .await
                .status_code(),
            200
        );

        let (h, v) = bearer(&admin.token);
        assert_eq!(
            server.delete(&path).add_header(h, v).await.status_code(),
            204
        );
        assert_envelope(
            &get(&server, &as_key(&key), "/api/vendors").await,
            401,
            "unauthorized",
        );
        // A made-up key is refused the same way; without any token, too.
        assert_envelope(
            &get(
                &server,
                &as_key("vwk_0000000000000000000000000000000000000000"),
                "/api/vendors",
            )
            .await,
            401,
            "unauthorized",
        );
        assert_envelope(&server.get("/api/api-keys").await, 401, "unauthorized");
    })
    .await;
}

#[tokio::test]
async fn bad_key_requests_are_refused_and_change_nothing() {
    with_app(|server, ctx| async move {
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        for (body, field) in [
            (json!({"name": "  ", "scope": "read"}), "name"),
            (json!({"name": "x".repeat(101), "scope": "read"}), "name"),
            (json!({"name": "Sync", "scope": "admin"}), "scope"),
            (json!({"name": "Sync"}), "scope"),
        ] {
            let (h, v) = bearer(&admin.token);
            let res = server
                .post("/api/api-keys")
                .add_header(h, v)
                .json(&body)
                .await;
            let envelope = assert_envelope(&res, 422, "validation_failed");
            assert!(envelope["errors"][field].is_array(), "{envelope}");
        }
        let (h, v) = bearer(&admin.token);
        let res = server
            .post("/api/api-keys")
            .add_header(h, v)
            .json(&json!({"name": "Sync", "scope": "read", "role": "owner"}))
            .await;
        assert_eq!(res.status_code(), 400, "{}", res.text());
        let (h, v) = bearer(&admin.token);
        let res = server
            .delete("/api/api-keys/not-an-id")
            .add_header(h, v)
            .await;
        assert_envelope(&res, 404, "not_found");
        assert_eq!(api_keys::Entity::find().count(&ctx.db).await.unwrap(), 0);
    })
    .await;
}

#[tokio::test]
async fn each_key_has_its_own_rate_budget() {
    with_app(|server, _ctx| async move {
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let first = make_key(&server, &admin, "First", "read").await;
        let second = make_key(&server, &admin, "Second", "read").await;
        let first = as_key(first["key"].as_str().unwrap());
        // The test configuration allows 10 calls a minute per key.
        for _ in 0..10 {
            assert_eq!(
                get(&server, &first, "/api/vendors").await.status_code(),
                200
            );
        }
        let limited = get(&server, &first, "/api/vendors").await;
        assert_envelope(&limited, 429, "rate_limited");
        assert!(limited.maybe_header("retry-after").is_some());
        let second = as_key(second["key"].as_str().unwrap());
        assert_eq!(
            get(&server, &second, "/api/vendors").await.status_code(),
            200
        );
        // People signed in are not counted against the keys' budgets.
        assert_eq!(
            get(&server, &admin, "/api/vendors").await.status_code(),
            200
        );
    })
    .await;
}

#[tokio::test]
async fn the_calendar_feed_is_valid_icalendar_and_rotating_ends_the_old_link() {
    with_app(|server, _ctx| async move {
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let vendor = create_vendor(&server, &admin, "Acme Plumbing").await;
        let id = vendor["id"].as_str().unwrap();
        let mut spec = UploadSpec::pdf("w9");
        spec.expiration_date = Some(in_days(40));
        assert_eq!(upload(&server, &admin, id, &spec).await.status_code(), 201);
        let url = get(&server, &admin, "/api/calendar-feed")
            .await
            .json::<Value>()["url"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            std::path::Path::new(&url)
                .extension()
                .is_some_and(|e| e == "ics"),
            "{url}"
        );
        let path = url::Url::parse(&url).unwrap().path().to_string();
        let res = server.get(&path).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert!(res
            .header("content-type")
            .to_str()
            .unwrap()
            .starts_with("text/calendar"));
        let text = res.text();
        // RFC 5545 framing: CRLF line ends, no line over 75 octets.
        assert!(text.starts_with("BEGIN:VCALENDAR\r\n"), "{text}");
        assert!(text.split("\r\n").all(|line| line.len() <= 75), "{text}");
        let unfolded = icalendar::parser::unfold(&text);
        let calendar = icalendar::parser::read_calendar(&unfolded).expect("a valid calendar");
        let events: Vec<_> = calendar
            .components
            .iter()
            .filter(|c| c.name == "VEVENT")
            .collect();
        assert_eq!(events.len(), 1, "{text}");
        let prop = |name: &str| {
            events[0]
                .properties
                .iter()
                .find(|p| p.name == name)
                .unwrap_or_else(|| panic!("{name} in {text}"))
        };
        let due = chrono::NaiveDate::parse_from_str(&in_days(40), "%Y-%m-%d").unwrap();
        assert_eq!(
            prop("DTSTART").val.as_str(),
            due.format("%Y%m%d").to_string()
        );
        assert_eq!(
            prop("DTEND").val.as_str(),
            (due + Duration::days(1)).format("%Y%m%d").to_string()
        );
        assert!(prop("DTSTART").params.iter().any(|p| p.key == "VALUE"
            && p.val.as_ref().map(icalendar::parser::ParseString::as_str) == Some("DATE")));
        assert_eq!(
            prop("SUMMARY").val.as_str(),
            "W9 Form expires: Acme Plumbing"
        );
        assert!(prop("UID").val.as_str().ends_with("@vendorwatch"));

        // A tampered link is not found; rotating ends the old one at once.
        let tampered = path
            .replace(".ics", "")
            .replace(&path[path.len() - 8..path.len() - 4], "0000");
        assert_envelope(
            &server.get(&format!("{tampered}.ics")).await,
            404,
            "not_found",
        );
        let (h, v) = bearer(&admin.token);
        let rotated: Value = server
            .post("/api/calendar-feed/rotate")
            .add_header(h, v)
            .await
            .json();
        let new_path = url::Url::parse(rotated["url"].as_str().unwrap())
            .unwrap()
            .path()
            .to_string();
        assert_ne!(new_path, path);
        assert_envelope(&server.get(&path).await, 404, "not_found");
        assert_eq!(server.get(&new_path).await.status_code(), 200);
        // Another organization's feed is its own.
        let mallory = other_org(&server).await;
        let theirs: Value = get(&server, &mallory, "/api/calendar-feed").await.json();
        let their_path = url::Url::parse(theirs["url"].as_str().unwrap())
            .unwrap()
            .path()
            .to_string();
        assert!(!server
            .get(&their_path)
            .await
            .text()
            .contains("Acme Plumbing"));
    })
    .await;
}

#[tokio::test]
async fn events_are_signed_and_delivered_by_a_worker_with_one_id_for_every_try() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[Answer::Fail]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let hook = make_webhook(&server, &admin, &receiver.url, &["vendor.created"]).await;
        let secret = hook["secret"].as_str().unwrap().to_string();
        assert!(secret.starts_with("whsec_"));
        let vendor = create_vendor(&server, &admin, "Acme Plumbing").await;
        // The request made the event; nothing was sent during it.
        assert!(receiver.got().is_empty());
        let rows = delivery_rows(&ctx).await;
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].status, "pending");

        // The first try fails (500): kept, due again within a minute.
        run_webhooks(&ctx, false).await;
        let got = receiver.got();
        assert_eq!(got.len(), 1);
        assert!(signature_is_valid(&got[0].signature, &got[0].body, &secret));
        assert!(!signature_is_valid(
            &got[0].signature,
            &got[0].body,
            "whsec_wrong"
        ));
        let body: Value = serde_json::from_str(&got[0].body).unwrap();
        assert_eq!(body["type"], "vendor.created");
        assert_eq!(body["data"]["vendorId"], vendor["id"]);
        let row = &delivery_rows(&ctx).await[0];
        assert_eq!((row.status.as_str(), row.attempts), ("pending", 1));
        assert_eq!(row.response_status, Some(500));
        assert_eq!(row.response_snippet.as_deref(), Some("down for now"));
        let wait = row.next_attempt_at.to_utc() - row.last_attempt_at.unwrap().to_utc();
        assert!(
            wait > Duration::zero() && wait < Duration::minutes(1),
            "{wait}"
        );

        // Not due yet: nothing sent. Once due, the same event again, and it is delivered.
        run_webhooks(&ctx, false).await;
        assert_eq!(receiver.got().len(), 1);
        ctx.shared_store.insert(Clock::fixed(
            row.next_attempt_at.to_utc() + Duration::seconds(1),
        ));
        run_webhooks(&ctx, false).await;
        let got = receiver.got();
        assert_eq!(got.len(), 2);
        let again: Value = serde_json::from_str(&got[1].body).unwrap();
        assert_eq!(again["id"], body["id"]);
        assert!(signature_is_valid(&got[1].signature, &got[1].body, &secret));
        let log: Value = get(
            &server,
            &admin,
            &format!("/api/webhooks/{}/deliveries", hook["id"].as_str().unwrap()),
        )
        .await
        .json();
        assert_eq!(log[0]["status"], "delivered");
        assert_eq!(log[0]["attempts"], 2);
        assert_eq!(log[0]["eventId"], body["id"]);
        run_webhooks(&ctx, false).await;
        assert_eq!(
            receiver.got().len(),
            2,
            "a delivered event is not sent again"
        );
    })
    .await;
}

#[tokio::test]
async fn a_hanging_endpoint_times_out_and_slows_no_request() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[Answer::Hang]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        make_webhook(&server, &admin, &receiver.url, &["vendor.created"]).await;
        create_vendor(&server, &admin, "Acme Plumbing").await;
        let worker = {
            let ctx = ctx.clone();
            tokio::spawn(async move { run_webhooks(&ctx, false).await })
        };
        receiver.wait_for_arrival().await;
        // While the endpoint holds the delivery, the app answers as ever.
        assert_eq!(
            get(&server, &admin, "/api/vendors").await.status_code(),
            200
        );
        create_vendor(&server, &admin, "Second Vendor").await;
        assert!(!worker.is_finished(), "the delivery is still waiting");
        // The test configuration waits 2 seconds for an answer.
        tokio::time::timeout(StdDuration::from_secs(30), worker)
            .await
            .expect("the attempt gives up at its timeout")
            .unwrap();
        receiver.release.notify_waiters();
        let first = delivery_rows(&ctx)
            .await
            .into_iter()
            .find(|r| r.attempts == 1)
            .expect("one attempt made");
        assert_eq!(first.status, "pending");
        assert_eq!(first.error.as_deref(), Some("No answer within 2 seconds."));
        assert!(first.next_attempt_at.to_utc() > first.last_attempt_at.unwrap().to_utc());
    })
    .await;
}

#[tokio::test]
async fn a_worker_killed_mid_delivery_loses_no_event() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[Answer::Hang]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        make_webhook(&server, &admin, &receiver.url, &["vendor.created"]).await;
        create_vendor(&server, &admin, "Acme Plumbing").await;
        let row = delivery_rows(&ctx).await.remove(0);
        let now = Utc::now();
        assert!(
            deliveries::hold_row(&ctx.db, row.id, now, Duration::seconds(62))
                .await
                .unwrap()
        );
        let worker = {
            let ctx = ctx.clone();
            tokio::spawn(async move { deliver(&ctx, row.id).await })
        };
        receiver.wait_for_arrival().await;
        // The worker dies with the request in flight: nothing recorded, the row still held.
        worker.abort();
        assert!(worker.await.unwrap_err().is_cancelled());
        receiver.release.notify_waiters();
        let held = &delivery_rows(&ctx).await[0];
        assert_eq!((held.status.as_str(), held.attempts), ("pending", 0));
        run_webhooks(&ctx, false).await;
        assert_eq!(
            receiver.got().len(),
            1,
            "a held row is not handed out twice"
        );
        // Once the hold has passed, the task hands it out again: delivered, same event.
        ctx.shared_store.insert(Clock::fixed(
            held.claimed_until.unwrap().to_utc() + Duration::seconds(1),
        ));
        run_webhooks(&ctx, false).await;
        let got = receiver.got();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].body, got[1].body);
        assert_eq!(delivery_rows(&ctx).await[0].status, "delivered");
    })
    .await;
}

#[tokio::test]
async fn a_delivery_is_given_up_after_24_hours_of_failures() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[Answer::Fail; 20]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        make_webhook(&server, &admin, &receiver.url, &["vendor.created"]).await;
        create_vendor(&server, &admin, "Acme Plumbing").await;
        let start = delivery_rows(&ctx).await[0].created_at.to_utc();
        let mut tries = 0;
        loop {
            let row = delivery_rows(&ctx).await.remove(0);
            if row.status != "pending" {
                assert_eq!(row.status, "failed");
                break;
            }
            ctx.shared_store
                .insert(Clock::fixed(row.next_attempt_at.to_utc()));
            run_webhooks(&ctx, false).await;
            tries += 1;
            assert!(tries < 20, "given up at last");
        }
        let row = delivery_rows(&ctx).await.remove(0);
        let last = row.last_attempt_at.unwrap().to_utc();
        assert_eq!(
            last - start,
            Duration::hours(24),
            "the last try at 24 hours"
        );
        assert_eq!(usize::try_from(row.attempts).unwrap(), receiver.got().len());
        assert!(row.attempts >= 9, "{} tries", row.attempts);
    })
    .await;
}

#[tokio::test]
async fn the_test_event_and_the_delivery_log() {
    with_app(|server, _ctx| async move {
        let receiver = Receiver::start(&[]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let hook = make_webhook(&server, &admin, &receiver.url, &["document.expired"]).await;
        let id = hook["id"].as_str().unwrap();
        let (h, v) = bearer(&admin.token);
        let res = server
            .post(&format!("/api/webhooks/{id}/test"))
            .add_header(h, v)
            .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        let got = receiver.got();
        assert_eq!(got.len(), 1);
        let body: Value = serde_json::from_str(&got[0].body).unwrap();
        assert_eq!(body["type"], "ping");
        assert!(signature_is_valid(
            &got[0].signature,
            &got[0].body,
            hook["secret"].as_str().unwrap()
        ));
        // A second endpoint, without deliveries: each lists its own latest one.
        make_webhook(&server, &admin, &receiver.url, &["vendor.created"]).await;
        let listed: Value = get(&server, &admin, "/api/webhooks").await.json();
        assert_eq!(listed[0]["lastDelivery"]["status"], "delivered");
        assert_eq!(listed[1]["lastDelivery"], Value::Null);
        assert!(listed[0].get("secret").is_none(), "{listed}");
        assert_eq!(listed[0]["events"], json!(["document.expired"]));
        let shown = get(&server, &admin, &format!("/api/webhooks/{id}")).await;
        assert_eq!(shown.json::<Value>()["url"], receiver.url);
    })
    .await;
}

#[tokio::test]
async fn another_organizations_webhook_is_not_found_and_unchanged() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let hook = make_webhook(&server, &admin, &receiver.url, &["vendor.created"]).await;
        let id = hook["id"].as_str().unwrap();
        let mallory = other_org(&server).await;
        for path in [
            format!("/api/webhooks/{id}"),
            format!("/api/webhooks/{id}/deliveries"),
        ] {
            assert_envelope(&get(&server, &mallory, &path).await, 404, "not_found");
        }
        let (h, v) = bearer(&mallory.token);
        let res = server
            .post(&format!("/api/webhooks/{id}/test"))
            .add_header(h, v)
            .await;
        assert_envelope(&res, 404, "not_found");
        let (h, v) = bearer(&mallory.token);
        let res = server
            .delete(&format!("/api/webhooks/{id}"))
            .add_header(h, v)
            .await;
        assert_envelope(&res, 404, "not_found");
        assert_eq!(
            webhook_endpoints::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            1
        );
        assert!(receiver.got().is_empty());
        // Their vendors make no event for this organization's endpoint.
        create_vendor(&server, &mallory, "Their Vendor").await;
        assert!(delivery_rows(&ctx).await.is_empty());
        let (h, v) = bearer(&admin.token);
        let res = server
            .delete(&format!("/api/webhooks/{id}"))
            .add_header(h, v)
            .await;
        assert_eq!(res.status_code(), 204);
        assert_eq!(
            webhook_endpoints::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            0
        );
    })
    .await;
}

#[tokio::test]
async fn private_targets_are_refused_unless_allowed_and_bad_input_changes_nothing() {
    with_app_config(
        |config| {
            let settings = config.settings.as_mut().unwrap();
            settings["webhooks"]["allow_private_targets"] = json!(false);
        },
        |server, ctx| async move {
            let admin = register(&server, "Ann Admin", Some("Acme")).await;
            for (body, field) in [
                (
                    json!({"url": "http://127.0.0.1:9/hook", "events": ["vendor.created"]}),
                    "url",
                ),
                (
                    json!({"url": "http://localhost/hook", "events": ["vendor.created"]}),
                    "url",
                ),
                (
                    json!({"url": "http://169.254.169.254/latest", "events": ["vendor.created"]}),
                    "url",
                ),
                (
                    json!({"url": "http://[::1]/hook", "events": ["vendor.created"]}),
                    "url",
                ),
                (
                    json!({"url": "http://10.0.0.5/hook", "events": ["vendor.created"]}),
                    "url",
                ),
                (
                    json!({"url": "ftp://example.com/hook", "events": ["vendor.created"]}),
                    "url",
                ),
                (
                    json!({"url": "https://93.184.216.34/hook", "events": []}),
                    "events",
                ),
                (
                    json!({"url": "https://93.184.216.34/hook", "events": ["vendor.exploded"]}),
                    "events",
                ),
            ] {
                let (h, v) = bearer(&admin.token);
                let res = server
                    .post("/api/webhooks")
                    .add_header(h, v)
                    .json(&body)
                    .await;
                let envelope = assert_envelope(&res, 422, "validation_failed");
                assert!(envelope["errors"][field].is_array(), "{body}: {envelope}");
            }
            assert_eq!(
                webhook_endpoints::Entity::find()
                    .count(&ctx.db)
                    .await
                    .unwrap(),
                0
            );
            // A public address is taken.
            let hook = make_webhook(
                &server,
                &admin,
                "https://93.184.216.34/hook",
                &["vendor.created"],
            )
            .await;
            assert_eq!(hook["url"], "https://93.184.216.34/hook");
        },
    )
    .await;
}

#[tokio::test]
async fn statuses_gaps_and_expiries_become_events_once_when_they_change() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        let vendor = create_vendor(&server, &admin, "Acme Plumbing").await;
        let id = vendor["id"].as_str().unwrap();
        let mut spec = UploadSpec::pdf("w9");
        spec.expiration_date = Some(in_days(40));
        assert_eq!(upload(&server, &admin, id, &spec).await.status_code(), 201);
        make_webhook(
            &server,
            &admin,
            &receiver.url,
            &[
                "vendor.status_changed",
                "document.expiring",
                "document.expired",
            ],
        )
        .await;
        // The first look only remembers: the past is not sent.
        run_webhooks(&ctx, true).await;
        assert!(receiver.got().is_empty());
        // 20 days on, the W-9 is expiring; 41 days on, expired.
        ctx.shared_store
            .insert(Clock::fixed(Utc::now() + Duration::days(20)));
        run_webhooks(&ctx, true).await;
        ctx.shared_store
            .insert(Clock::fixed(Utc::now() + Duration::days(41)));
        run_webhooks(&ctx, true).await;
        run_webhooks(&ctx, true).await;
        let types: Vec<String> = receiver
            .got()
            .iter()
            .map(|r| {
                serde_json::from_str::<Value>(&r.body).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(
            types.iter().filter(|t| *t == "document.expiring").count(),
            1,
            "{types:?}"
        );
        assert_eq!(
            types.iter().filter(|t| *t == "document.expired").count(),
            1,
            "{types:?}"
        );
        assert!(
            types.iter().any(|t| t == "vendor.status_changed"),
            "{types:?}"
        );
        let changed: Value = receiver
            .got()
            .iter()
            .map(|r| serde_json::from_str::<Value>(&r.body).unwrap())
            .find(|b| b["type"] == "vendor.status_changed" && b["data"]["status"] == "expired")
            .expect("the vendor turned expired");
        assert_eq!(changed["data"]["vendorId"], vendor["id"]);
        assert_eq!(changed["data"]["previousStatus"], "expiring_soon");
    })
    .await;
}

#[tokio::test]
async fn viewers_and_members_manage_no_integration_and_a_key_follows_its_makers_role() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", Some("Acme")).await;
        make_professional(&ctx, &owner).await;
        let viewer = super::team::join(&server, &ctx, &owner, "Vic Viewer", "viewer").await;
        let member = super::team::join(&server, &ctx, &owner, "Mo Member", "member").await;
        let admin = super::team::join(&server, &ctx, &owner, "Ada Admin", "admin").await;
        let hook = make_webhook(
            &server,
            &owner,
            "http://127.0.0.1:9/hook",
            &["vendor.created"],
        )
        .await;
        let hook_id = hook["id"].as_str().unwrap();
        for who in [&viewer, &member] {
            for (method, path, body) in [
                (
                    "POST",
                    "/api/api-keys".to_string(),
                    json!({"name": "Mine", "scope": "write"}),
                ),
                (
                    "POST",
                    "/api/webhooks".to_string(),
                    json!({"url": "http://127.0.0.1:9/x", "events": ["vendor.created"]}),
                ),
                ("DELETE", format!("/api/webhooks/{hook_id}"), json!({})),
                ("POST", format!("/api/webhooks/{hook_id}/test"), json!({})),
                ("POST", "/api/calendar-feed/rotate".to_string(), json!({})),
            ] {
                let (h, v) = bearer(&who.token);
                let request = if method == "POST" {
                    server.post(&path)
                } else {
                    server.delete(&path)
                };
                let res = request.add_header(h, v).json(&body).await;
                assert_envelope(&res, 403, "forbidden_role");
            }
            assert_envelope(
                &get(&server, who, "/api/webhooks").await,
                403,
                "forbidden_role",
            );
            assert_envelope(
                &get(&server, who, "/api/calendar-feed").await,
                403,
                "forbidden_role",
            );
        }
        assert_eq!(api_keys::Entity::find().count(&ctx.db).await.unwrap(), 0);
        assert_eq!(
            webhook_endpoints::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            1
        );
        assert!(delivery_rows(&ctx).await.is_empty());

        // An admin's write key writes; once the admin is made a viewer, it only reads.
        let made = make_key(&server, &admin, "Sync", "write").await;
        let key = made["key"].as_str().unwrap();
        let (h, v) = bearer(key);
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&vendor_body("One"))
            .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let (h, v) = bearer(&owner.token);
        let res = server
            .put(&format!(
                "/api/team/members/{}",
                admin.user["id"].as_str().unwrap()
            ))
            .add_header(h, v)
            .json(&json!({"orgRole": "viewer"}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let (h, v) = bearer(key);
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&vendor_body("Two"))
            .await;
        assert_envelope(&res, 403, "forbidden_role");
        assert_eq!(
            get(&server, &as_key(key), "/api/vendors")
                .await
                .status_code(),
            200
        );
        assert_eq!(vendors::Entity::find().count(&ctx.db).await.unwrap(), 1);
    })
    .await;
}

#[tokio::test]
async fn an_endless_answer_is_read_no_further_than_its_snippet() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[Answer::Endless]).await;
        let admin = register(&server, "Ann Admin", Some("Acme")).await;
        make_webhook(&server, &admin, &receiver.url, &["vendor.created"]).await;
        create_vendor(&server, &admin, "Acme Plumbing").await;
        run_webhooks(&ctx, false).await;
        let row = delivery_rows(&ctx).await.remove(0);
        assert_eq!(row.status, "delivered");
        let snippet = row.response_snippet.expect("the answer's start is kept");
        assert_eq!(snippet.chars().count(), 500);
        assert!(snippet.starts_with("0123456789abcdef"));
        assert_eq!(row.error, None);
    })
    .await;
}

#[tokio::test]
async fn a_vendors_gaps_changing_is_one_event_with_the_gaps_that_count() {
    with_app(|server, ctx| async move {
        let receiver = Receiver::start(&[]).await;
        let owner = register(&server, "Olive Owner", None).await;
        let set = super::requirements::contractor_set(&server, &owner).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap().to_string();
        make_webhook(&server, &owner, &receiver.url, &["vendor.gaps_changed"]).await;
        run_webhooks(&ctx, true).await;
        assert!(receiver.got().is_empty(), "the first look only remembers");

        // The set on the vendor: every line is now missing.
        let mut body = vendor_body("Granite Builders LLC");
        body["requirementSetId"] = set["id"].clone();
        let res =
            super::requirements::send(&server, &owner, "PUT", &format!("/api/vendors/{key}"), body)
                .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        run_webhooks(&ctx, true).await;
        // A certificate a tier short: the gaps change again.
        super::requirements::enter_short_certificate(&server, &owner, &key).await;
        run_webhooks(&ctx, true).await;
        run_webhooks(&ctx, true).await;

        let bodies: Vec<Value> = receiver
            .got()
            .iter()
            .map(|r| serde_json::from_str(&r.body).unwrap())
            .collect();
        assert_eq!(bodies.len(), 2, "{bodies:#?}");
        assert!(bodies.iter().all(|b| b["type"] == "vendor.gaps_changed"));
        assert_eq!(
            bodies[0]["data"]["gaps"][0],
            "No general liability on file."
        );
        let shown: Value = get(&server, &owner, &format!("/api/vendors/{key}"))
            .await
            .json();
        let now: Vec<Value> = shown["gaps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["message"].clone())
            .collect();
        assert_eq!(bodies[1]["data"]["gaps"], json!(now));
        assert_eq!(bodies[1]["data"]["vendorId"], json!(key));
    })
    .await;
}

/// Column `column` of every row `sql` answers, as text.
async fn texts(db: &sea_orm::DatabaseConnection, sql: &str, column: usize) -> Vec<String> {
    crate::support::rows(db, sql)
        .await
        .iter()
        .map(|row| row.try_get_by_index::<String>(column).unwrap())
        .collect()
}

#[tokio::test]
async fn every_write_asks_for_the_organizations_endpoints_through_an_index() {
    use sea_orm::{ConnectionTrait, DbBackend};
    with_app(|server, ctx| async move {
        let found = if ctx.db.get_database_backend() == DbBackend::Sqlite {
            // The plan of the question each write's activity entry asks, with enough endpoints
            // that SQLite does not just scan the table: without `ANALYZE` it sizes a table from
            // its pages when a connection reads the schema, so a new connection explains it.
            register(&server, "Ann Admin", Some("Acme")).await;
            ctx.db
                .execute_unprepared(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n \
                     WHERE i < 2000) \
                     INSERT INTO webhook_endpoints (pid, url, events, secret, organization_id) \
                     SELECT 'seed-' || i, 'https://example.com/' || i, '[]', 'whsec_seed', \
                     (SELECT MIN(id) FROM organizations) FROM n",
                )
                .await
                .unwrap();
            let fresh = sea_orm::Database::connect(ctx.config.database.uri.as_str())
                .await
                .unwrap();
            texts(
                &fresh,
                "EXPLAIN QUERY PLAN SELECT EXISTS (SELECT 1 FROM webhook_endpoints \
                 WHERE organization_id = 1)",
                3,
            )
            .await
        } else {
            // PostgreSQL scans a table this small whatever its indexes: the index is there.
            texts(
                &ctx.db,
                "SELECT indexdef FROM pg_indexes WHERE tablename = 'webhook_endpoints'",
                0,
            )
            .await
        };
        assert!(
            found
                .iter()
                .any(|d| d.contains("idx-webhook-endpoints-org") && d.contains("organization_id")),
            "{found:?}"
        );
    })
    .await;
}
