//! Paying for Professional through Stripe, against a Stripe-shaped server of the test's own
//! (`tests/support/stripe.rs`): Checkout, the upgrade after it, the customer portal, and
//! webhooks signed with real HMAC signatures. Nobody becomes Professional without paying.

use axum_test::TestResponse;
use loco_rs::{app::AppContext, TestServer};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};
use vendorwatch::models::{
    _entities::{activities, organizations, stripe_events, vendors},
    activities::ActivityType,
};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, org_of, register, stripe,
    stripe::{StripeFake, WEBHOOK_SECRET},
    with_app, with_app_config, Account,
};

pub(super) async fn post(
    server: &TestServer,
    account: &Account,
    path: &str,
    body: Option<Value>,
) -> TestResponse {
    let (h, v) = bearer(&account.token);
    let req = server.post(path).add_header(h, v);
    match body {
        Some(body) => req.json(&body).await,
        None => req.await,
    }
}

pub(super) async fn status(server: &TestServer, account: &Account) -> Value {
    let res = get(server, account, "/api/payment-status").await;
    assert_eq!(res.status_code(), 200);
    res.json()
}

pub(super) async fn plan_entries(ctx: &AppContext, org: &organizations::Model) -> u64 {
    activities::Entity::find()
        .filter(activities::Column::OrganizationId.eq(org.id))
        .filter(activities::Column::ActivityType.eq(ActivityType::PlanChanged))
        .count(&ctx.db)
        .await
        .unwrap()
}

pub(super) fn emails_to(ctx: &AppContext, to: &str) -> Vec<String> {
    ctx.mailer
        .as_ref()
        .unwrap()
        .deliveries()
        .messages
        .into_iter()
        .filter(|m| m.contains(&format!("To: {to}")))
        .collect()
}

pub(super) async fn send_event(
    server: &TestServer,
    payload: &str,
    secret: &str,
    at: i64,
) -> TestResponse {
    server
        .post("/api/webhooks/stripe")
        .add_header(
            axum::http::HeaderName::from_static("stripe-signature"),
            axum::http::HeaderValue::from_str(&stripe::signature(payload, secret, at)).unwrap(),
        )
        .content_type("application/json")
        .bytes(payload.to_string().into())
        .await
}

pub(super) fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Starts a checkout for `account`; returns the session id the fake created.
pub(super) async fn start_checkout(
    server: &TestServer,
    account: &Account,
    fake: &StripeFake,
) -> String {
    let res = post(server, account, "/api/create-subscription", None).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    let url = res.json::<Value>()["url"].as_str().unwrap().to_string();
    let id = url.rsplit('/').next().unwrap().to_string();
    assert!(fake.session(&id)["url"].as_str().is_some());
    id
}

pub(super) async fn with_stripe<F, Fut>(test: F)
where
    F: FnOnce(TestServer, AppContext, StripeFake) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let fake = StripeFake::start().await;
    let for_config = fake.clone();
    with_app_config(
        move |config| stripe::configure(config, &for_config),
        |server, ctx| test(server, ctx, fake),
    )
    .await;
}

#[tokio::test]
async fn without_a_stripe_key_every_billing_call_answers_503_and_changes_nothing() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Free", Some("Free Co")).await;
        for path in [
            "/api/create-subscription",
            "/api/upgrade-to-professional",
            "/api/billing/portal",
        ] {
            let res = post(&server, &ann, path, None).await;
            let body = assert_envelope(&res, 503, "billing_not_configured");
            assert!(
                body["message"].as_str().unwrap().contains("not set up"),
                "{body}"
            );
        }
        let payload = stripe::event("evt_1", "checkout.session.completed", json!({}));
        assert_envelope(
            &send_event(&server, &payload, WEBHOOK_SECRET, now()).await,
            503,
            "billing_not_configured",
        );
        let shown = status(&server, &ann).await;
        assert_eq!(shown["plan"], "free");
        assert_eq!(shown["billingEnabled"], false);
        assert_eq!(org_of(&ctx, &ann).await.stripe_customer_id, None);
    })
    .await;
}

#[tokio::test]
async fn checkout_is_for_the_professional_price_with_one_customer_per_organization() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Buyer", Some("Buyer Co")).await;
        assert_envelope(
            &server.post("/api/create-subscription").await,
            401,
            "unauthorized",
        );
        let first = start_checkout(&server, &ann, &fake).await;
        let second = start_checkout(&server, &ann, &fake).await;
        assert_eq!(first, second, "the session still open is handed back");
        let org = org_of(&ctx, &ann).await;
        let calls = fake.calls();
        let customers: Vec<_> = calls.iter().filter(|c| c.path == "/v1/customers").collect();
        assert_eq!(
            customers.len(),
            1,
            "one customer, kept on the organization: {calls:#?}"
        );
        assert_eq!(customers[0].form["email"], ann.email);
        assert_eq!(
            customers[0].form["metadata[organization]"],
            org.pid.to_string()
        );
        let sessions: Vec<_> = calls
            .iter()
            .filter(|c| c.path == "/v1/checkout/sessions")
            .collect();
        assert_eq!(sessions.len(), 1);
        for session in sessions {
            assert_eq!(session.form["mode"], "subscription");
            assert_eq!(session.form["line_items[0][price]"], stripe::PRICE_ID);
            assert_eq!(session.form["line_items[0][quantity]"], "1");
            assert_eq!(session.form["client_reference_id"], org.pid.to_string());
            assert_eq!(
                Some(&session.form["customer"]),
                org.stripe_customer_id.as_ref()
            );
            assert!(session.form["success_url"]
                .contains("/payment-success?session_id={CHECKOUT_SESSION_ID}"));
        }
        assert_eq!(
            status(&server, &ann).await["plan"],
            "free",
            "starting checkout changes no plan"
        );
        assert_eq!(status(&server, &ann).await["billingEnabled"], true);
    })
    .await;
}

#[tokio::test]
async fn the_upgrade_refuses_anything_but_a_paid_session_of_this_organization() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Payer", Some("Payer Co")).await;
        let mallory = register(&server, "Mallory Other", Some("Other Co")).await;
        let own = start_checkout(&server, &ann, &fake).await;
        let theirs = start_checkout(&server, &mallory, &fake).await;
        fake.pay(&theirs, "sub_mallory");

        let refused = [
            None,
            Some(json!({})),
            Some(json!({"sessionId": "cs_test_forged"})),
            Some(json!({"sessionId": own})),
            Some(json!({"sessionId": theirs})),
        ];
        for body in refused {
            let res = post(&server, &ann, "/api/upgrade-to-professional", body.clone()).await;
            assert_envelope(&res, 402, "payment_not_confirmed");
            let shown = status(&server, &ann).await;
            assert_eq!(shown["plan"], "free", "{body:?}");
            assert_eq!(shown["vendorLimit"], 2, "{body:?}");
        }
        fake.pay(&own, "sub_ann");
        let anonymous = server
            .post("/api/upgrade-to-professional")
            .json(&json!({"sessionId": own}))
            .await;
        assert_envelope(&anonymous, 401, "unauthorized");
        assert_eq!(
            status(&server, &ann).await["plan"],
            "free",
            "a paid session without a token upgrades nothing"
        );
        let lookups = fake
            .calls()
            .into_iter()
            .filter(|c| c.method == "GET")
            .count();
        assert_eq!(
            lookups, 3,
            "each session id given was looked up with Stripe"
        );
        let bad = post(
            &server,
            &ann,
            "/api/upgrade-to-professional",
            Some(json!({"sessionId": 5})),
        )
        .await;
        assert_envelope(&bad, 400, "invalid_body");
        assert_eq!(plan_entries(&ctx, &org_of(&ctx, &ann).await).await, 0);
        assert!(emails_to(&ctx, &ann.email).is_empty());

        let res = post(
            &server,
            &ann,
            "/api/upgrade-to-professional",
            Some(json!({"sessionId": own})),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(
            res.json::<Value>(),
            json!({"success": true, "plan": "professional"})
        );
        let shown = status(&server, &ann).await;
        assert_eq!(shown["plan"], "professional");
        assert_eq!(shown["vendorLimit"], 25);
        let again = post(
            &server,
            &ann,
            "/api/upgrade-to-professional",
            Some(json!({"sessionId": own})),
        )
        .await;
        assert_eq!(again.status_code(), 200);
        let org = org_of(&ctx, &ann).await;
        assert_eq!(org.stripe_subscription_id.as_deref(), Some("sub_ann"));
        assert_eq!(plan_entries(&ctx, &org).await, 1, "one change, one entry");
        let emails = emails_to(&ctx, &ann.email);
        assert_eq!(emails.len(), 1, "one email to the owner");
        assert!(emails[0].contains("Payer Co is now on Vendorwatch Professional"));
        assert_eq!(
            status(&server, &mallory).await["plan"],
            "free",
            "the other organization paid nothing of ours"
        );
    })
    .await;
}

#[tokio::test]
async fn webhooks_need_a_recent_signature_made_with_the_endpoint_secret() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Hook", Some("Hook Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        fake.pay(&session, "sub_hook");
        let org = org_of(&ctx, &ann).await;
        let payload = stripe::event(
            "evt_forged",
            "checkout.session.completed",
            fake.session(&session),
        );

        let missing = server
            .post("/api/webhooks/stripe")
            .content_type("application/json")
            .bytes(payload.clone().into())
            .await;
        assert_envelope(&missing, 400, "invalid_webhook");
        assert_envelope(
            &send_event(&server, &payload, "whsec_wrong", now()).await,
            400,
            "invalid_webhook",
        );
        assert_envelope(
            &send_event(&server, &payload, WEBHOOK_SECRET, now() - 301).await,
            400,
            "invalid_webhook",
        );
        let tampered = payload.replace("sub_hook", "sub_evil");
        let signed_other = stripe::signature(&payload, WEBHOOK_SECRET, now());
        let res = server
            .post("/api/webhooks/stripe")
            .add_header(
                axum::http::HeaderName::from_static("stripe-signature"),
                axum::http::HeaderValue::from_str(&signed_other).unwrap(),
            )
            .content_type("application/json")
            .bytes(tampered.into())
            .await;
        assert_envelope(&res, 400, "invalid_webhook");
        assert_envelope(
            &send_event(&server, "{\"not\": \"an event\"}", WEBHOOK_SECRET, now()).await,
            400,
            "invalid_webhook",
        );

        assert_eq!(status(&server, &ann).await["plan"], "free");
        assert_eq!(
            stripe_events::Entity::find().count(&ctx.db).await.unwrap(),
            0
        );
        assert_eq!(plan_entries(&ctx, &org).await, 0);
    })
    .await;
}

#[tokio::test]
async fn a_paid_checkout_delivered_ten_times_upgrades_once_with_one_email() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Ten", Some("Ten Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        let unpaid = stripe::event(
            "evt_unpaid",
            "checkout.session.completed",
            fake.session(&session),
        );
        assert_eq!(
            send_event(&server, &unpaid, WEBHOOK_SECRET, now())
                .await
                .status_code(),
            200
        );
        assert_eq!(
            status(&server, &ann).await["plan"],
            "free",
            "an unpaid checkout upgrades nothing"
        );

        fake.pay(&session, "sub_ten");
        let payload = stripe::event(
            "evt_paid",
            "checkout.session.completed",
            fake.session(&session),
        );
        for _ in 0..10 {
            let res = send_event(&server, &payload, WEBHOOK_SECRET, now()).await;
            assert_eq!(res.status_code(), 200, "{}", res.text());
            assert_eq!(res.json::<Value>(), json!({"received": true}));
        }
        assert_eq!(status(&server, &ann).await["plan"], "professional");
        let org = org_of(&ctx, &ann).await;
        assert_eq!(plan_entries(&ctx, &org).await, 1);
        assert_eq!(emails_to(&ctx, &ann.email).len(), 1);
        assert_eq!(
            stripe_events::Entity::find().count(&ctx.db).await.unwrap(),
            2
        );

        let upgrade = post(&server, &ann, "/api/upgrade-to-professional", None).await;
        assert_eq!(
            upgrade.status_code(),
            200,
            "the webhook got there first: the call says so"
        );
        assert_eq!(plan_entries(&ctx, &org).await, 1);
    })
    .await;
}

#[tokio::test]
async fn a_cancelled_subscription_shows_its_end_then_returns_to_free_keeping_every_vendor() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Cancel", Some("Cancel Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        fake.pay(&session, "sub_cancel");
        let paid = stripe::event(
            "evt_c1",
            "checkout.session.completed",
            fake.session(&session),
        );
        send_event(&server, &paid, WEBHOOK_SECRET, now()).await;
        for name in ["One", "Two", "Three"] {
            create_vendor(&server, &ann, name).await;
        }
        let customer = org_of(&ctx, &ann).await.stripe_customer_id.unwrap();
        let period_end = now() + 20 * 86_400;

        let renewing = stripe::subscription("sub_cancel", &customer, "active", false, period_end);
        send_event(
            &server,
            &stripe::event("evt_c2", "customer.subscription.updated", renewing),
            WEBHOOK_SECRET,
            now(),
        )
        .await;
        let shown = status(&server, &ann).await;
        assert_eq!(shown["plan"], "professional");
        assert!(shown["renewsAt"].as_str().is_some(), "{shown}");
        assert_eq!(shown["cancelAt"], Value::Null);

        let cancelling = stripe::subscription("sub_cancel", &customer, "active", true, period_end);
        send_event(
            &server,
            &stripe::event("evt_c3", "customer.subscription.updated", cancelling),
            WEBHOOK_SECRET,
            now(),
        )
        .await;
        let shown = status(&server, &ann).await;
        assert_eq!(
            shown["plan"], "professional",
            "cancelled at the period's end: still paid for"
        );
        let cancel_at =
            chrono::DateTime::parse_from_rfc3339(shown["cancelAt"].as_str().unwrap()).unwrap();
        assert_eq!(cancel_at.timestamp(), period_end);
        assert_eq!(shown["renewsAt"], Value::Null);

        let failed = stripe::failed_invoice("in_fail", &customer, "sub_cancel");
        send_event(
            &server,
            &stripe::event("evt_c4", "invoice.payment_failed", failed),
            WEBHOOK_SECRET,
            now(),
        )
        .await;
        assert!(status(&server, &ann).await["paymentProblem"]
            .as_str()
            .unwrap()
            .contains("payment failed"));

        let ended = stripe::subscription("sub_cancel", &customer, "canceled", false, period_end);
        let deleted = stripe::event("evt_c5", "customer.subscription.deleted", ended);
        send_event(&server, &deleted, WEBHOOK_SECRET, now()).await;
        send_event(&server, &deleted, WEBHOOK_SECRET, now()).await;
        let shown = status(&server, &ann).await;
        assert_eq!(shown["plan"], "free");
        assert_eq!(shown["vendorLimit"], 2);
        assert_eq!(shown["currentVendorCount"], 3, "nothing deleted");
        let org = org_of(&ctx, &ann).await;
        assert_eq!(
            vendors::Entity::find()
                .filter(vendors::Column::OrganizationId.eq(org.id))
                .count(&ctx.db)
                .await
                .unwrap(),
            3
        );
        let (h, v) = bearer(&ann.token);
        let refused = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&crate::support::vendor_body("Four"))
            .await;
        assert_envelope(&refused, 402, "plan_limit");
        assert_eq!(plan_entries(&ctx, &org).await, 2, "up once, down once");
        let emails = emails_to(&ctx, &ann.email);
        assert_eq!(emails.len(), 2);
        assert!(emails[1].contains("back on the Vendorwatch Free plan"));

        let late_paid = stripe::event(
            "evt_c6",
            "checkout.session.completed",
            fake.session(&session),
        );
        send_event(&server, &late_paid, WEBHOOK_SECRET, now()).await;
        assert_eq!(
            status(&server, &ann).await["plan"],
            "free",
            "a late checkout event of the ended subscription"
        );
    })
    .await;
}

#[tokio::test]
async fn a_subscription_deleted_before_its_checkout_completes_never_upgrades() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Order", Some("Order Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        fake.pay(&session, "sub_order");
        let customer = org_of(&ctx, &ann).await.stripe_customer_id.unwrap();
        let ended = stripe::subscription("sub_order", &customer, "canceled", false, now());
        send_event(
            &server,
            &stripe::event("evt_o1", "customer.subscription.deleted", ended),
            WEBHOOK_SECRET,
            now(),
        )
        .await;
        let completed = stripe::event(
            "evt_o2",
            "checkout.session.completed",
            fake.session(&session),
        );
        assert_eq!(
            send_event(&server, &completed, WEBHOOK_SECRET, now())
                .await
                .status_code(),
            200
        );
        assert_eq!(status(&server, &ann).await["plan"], "free");
        let upgrade = post(
            &server,
            &ann,
            "/api/upgrade-to-professional",
            Some(json!({"sessionId": session})),
        )
        .await;
        assert_envelope(&upgrade, 402, "payment_not_confirmed");
        assert!(emails_to(&ctx, &ann.email).is_empty());
    })
    .await;
}

#[tokio::test]
async fn an_unknown_event_is_accepted_and_changes_nothing() {
    with_stripe(|server, ctx, _fake| async move {
        let ann = register(&server, "Ann Unknown", Some("Unknown Co")).await;
        let payload = stripe::event(
            "evt_u1",
            "radar.early_fraud_warning.created",
            json!({"id": "issfr_1", "object": "radar.early_fraud_warning"}),
        );
        let res = send_event(&server, &payload, WEBHOOK_SECRET, now()).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(status(&server, &ann).await["plan"], "free");
        assert_eq!(plan_entries(&ctx, &org_of(&ctx, &ann).await).await, 0);
    })
    .await;
}

#[tokio::test]
async fn the_customer_portal_opens_for_an_organization_that_paid() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Portal", Some("Portal Co")).await;
        assert_envelope(
            &server.post("/api/billing/portal").await,
            401,
            "unauthorized",
        );
        assert_envelope(
            &post(&server, &ann, "/api/billing/portal", None).await,
            409,
            "no_billing_account",
        );
        start_checkout(&server, &ann, &fake).await;
        let res = post(&server, &ann, "/api/billing/portal", None).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert!(res.json::<Value>()["url"]
            .as_str()
            .unwrap()
            .starts_with("https://billing.stripe.test/p/session/"));
        let call = fake
            .calls()
            .into_iter()
            .find(|c| c.path == "/v1/billing_portal/sessions")
            .unwrap();
        assert_eq!(
            Some(&call.form["customer"]),
            org_of(&ctx, &ann).await.stripe_customer_id.as_ref()
        );
        assert!(call.form["return_url"].ends_with("/billing"));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_webhook_and_the_upgrade_call_racing_upgrade_once() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Race", Some("Race Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        fake.pay(&session, "sub_race");
        let payload = stripe::event(
            "evt_race",
            "checkout.session.completed",
            fake.session(&session),
        );
        let body = Some(json!({"sessionId": session}));
        let (hook, call) = tokio::join!(
            send_event(&server, &payload, WEBHOOK_SECRET, now()),
            post(&server, &ann, "/api/upgrade-to-professional", body),
        );
        assert_eq!(hook.status_code(), 200, "{}", hook.text());
        assert_eq!(call.status_code(), 200, "{}", call.text());
        assert_eq!(status(&server, &ann).await["plan"], "professional");
        assert_eq!(plan_entries(&ctx, &org_of(&ctx, &ann).await).await, 1);
        assert_eq!(emails_to(&ctx, &ann.email).len(), 1);
    })
    .await;
}
