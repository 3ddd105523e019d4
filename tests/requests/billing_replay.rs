//! A paid Checkout session upgrades at most once, only while its subscription is live, and
//! only if it is a subscription for the Professional price: its id stays in the browser's
//! history (`/payment-success?session_id=...`), and replayed after a downgrade it must not
//! undo it; a one-off payment (a Payment Link's) buys nothing.

use axum_test::TestResponse;
use loco_rs::TestServer;
use serde_json::{json, Value};
use vendorwatch::models::billing::change_plan;

use super::billing::{
    emails_to, now, plan_entries, post, send_event, start_checkout, status, with_stripe,
};
use crate::support::{
    assert_envelope, org_of, register, stripe, stripe::StripeFake, stripe::WEBHOOK_SECRET, Account,
};

async fn upgrade_with(server: &TestServer, account: &Account, session: &str) -> TestResponse {
    post(
        server,
        account,
        "/api/upgrade-to-professional",
        Some(json!({"sessionId": session})),
    )
    .await
}

/// The subscription's status changes on Stripe, and Stripe says so to the webhook.
async fn subscription_becomes(
    server: &TestServer,
    fake: &StripeFake,
    event_id: &str,
    subscription: &str,
    status: &str,
) {
    let object = fake.set_subscription_status(subscription, status);
    let kind = if status == "canceled" {
        "customer.subscription.deleted"
    } else {
        "customer.subscription.updated"
    };
    let res = send_event(
        server,
        &stripe::event(event_id, kind, object),
        WEBHOOK_SECRET,
        now(),
    )
    .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
}

/// The signed `checkout.session.completed` event of `session` as Stripe holds it.
async fn checkout_completed(server: &TestServer, fake: &StripeFake, event_id: &str, session: &str) {
    let payload = stripe::event(
        event_id,
        "checkout.session.completed",
        fake.session(session),
    );
    let res = send_event(server, &payload, WEBHOOK_SECRET, now()).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
}

#[tokio::test]
async fn a_paid_session_replayed_after_the_subscription_stopped_being_paid_upgrades_nothing() {
    with_stripe(|server, ctx, fake| async move {
        // `unpaid`, `paused` and `incomplete_expired` end Professional, and so does a status
        // Stripe adds later.
        for (n, ended) in [
            "unpaid",
            "paused",
            "incomplete_expired",
            "suspended_for_review",
        ]
        .into_iter()
        .enumerate()
        {
            let ann = register(
                &server,
                &format!("Ann Replay{n}"),
                Some(&format!("Replay{n} Co")),
            )
            .await;
            let session = start_checkout(&server, &ann, &fake).await;
            let sub = format!("sub_replay{n}");
            fake.pay(&session, &sub);
            let res = upgrade_with(&server, &ann, &session).await;
            assert_eq!(res.status_code(), 200, "{}", res.text());

            subscription_becomes(&server, &fake, &format!("evt_r{n}"), &sub, ended).await;
            assert_eq!(status(&server, &ann).await["plan"], "free", "{ended}");

            let replay = upgrade_with(&server, &ann, &session).await;
            let body = assert_envelope(&replay, 402, "payment_not_confirmed");
            assert!(body["message"]
                .as_str()
                .unwrap()
                .contains("has not changed"));
            checkout_completed(&server, &fake, &format!("evt_r{n}_late"), &session).await;
            let shown = status(&server, &ann).await;
            assert_eq!(shown["plan"], "free", "{ended}: the replay upgraded");
            assert_eq!(shown["vendorLimit"], 2);
            let org = org_of(&ctx, &ann).await;
            assert_eq!(
                plan_entries(&ctx, &org).await,
                2,
                "{ended}: up once, down once"
            );
            assert_eq!(emails_to(&ctx, &ann.email).len(), 2);
        }
    })
    .await;
}

#[tokio::test]
async fn the_first_of_two_ended_subscriptions_cannot_be_replayed_into_professional() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Twice", Some("Twice Co")).await;
        let first = start_checkout(&server, &ann, &fake).await;
        fake.pay(&first, "sub_first");
        assert_eq!(upgrade_with(&server, &ann, &first).await.status_code(), 200);
        subscription_becomes(&server, &fake, "evt_t1", "sub_first", "canceled").await;
        assert_eq!(status(&server, &ann).await["plan"], "free");

        let second = start_checkout(&server, &ann, &fake).await;
        assert_ne!(first, second);
        fake.pay(&second, "sub_second");
        checkout_completed(&server, &fake, "evt_t2", &second).await;
        assert_eq!(status(&server, &ann).await["plan"], "professional");
        subscription_becomes(&server, &fake, "evt_t3", "sub_second", "canceled").await;
        assert_eq!(status(&server, &ann).await["plan"], "free");

        for session in [&first, &second] {
            assert_envelope(
                &upgrade_with(&server, &ann, session).await,
                402,
                "payment_not_confirmed",
            );
        }
        let org = org_of(&ctx, &ann).await;
        assert_eq!(org.plan, "free");
        assert_eq!(org.stripe_subscription_id.as_deref(), Some("sub_second"));
        assert_eq!(plan_entries(&ctx, &org).await, 4, "up, down, up, down");
    })
    .await;
}

#[tokio::test]
async fn a_session_that_upgraded_once_never_upgrades_again_even_with_its_subscription_live() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Once", Some("Once Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        fake.pay(&session, "sub_once");
        checkout_completed(&server, &fake, "evt_once", &session).await;
        assert_eq!(status(&server, &ann).await["plan"], "professional");

        // The operator moved the organization to Free by hand; Stripe still bills it.
        let org = org_of(&ctx, &ann).await;
        change_plan(
            &ctx.db,
            &org,
            vendorwatch::models::organizations::Plan::Free,
        )
        .await
        .unwrap();
        assert_envelope(
            &upgrade_with(&server, &ann, &session).await,
            402,
            "payment_not_confirmed",
        );
        checkout_completed(&server, &fake, "evt_once_again", &session).await;
        assert_eq!(status(&server, &ann).await["plan"], "free");
        assert_eq!(plan_entries(&ctx, &org).await, 2);
    })
    .await;
}

#[tokio::test]
async fn a_paid_session_whose_subscription_ended_before_it_was_confirmed_upgrades_nothing() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Late", Some("Late Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        fake.pay(&session, "sub_late");
        // Nothing confirmed the checkout (no webhook yet, the browser closed), and the first
        // renewal already failed for good.
        fake.set_subscription_status("sub_late", "unpaid");
        assert_envelope(
            &upgrade_with(&server, &ann, &session).await,
            402,
            "payment_not_confirmed",
        );
        checkout_completed(&server, &fake, "evt_late", &session).await;
        assert_eq!(status(&server, &ann).await["plan"], "free");
        assert_eq!(plan_entries(&ctx, &org_of(&ctx, &ann).await).await, 0);
    })
    .await;
}

#[tokio::test]
async fn a_one_off_payment_or_another_price_upgrades_nothing_by_the_call_or_the_webhook() {
    with_stripe(|server, ctx, fake| async move {
        let ann = register(&server, "Ann Dollar", Some("Dollar Co")).await;
        // The organization's Stripe customer, as a first checkout creates it.
        start_checkout(&server, &ann, &fake).await;
        let org = org_of(&ctx, &ann).await;
        let customer = org.stripe_customer_id.clone().unwrap();
        let pid = org.pid.to_string();

        // A Payment Link of the same account: $1, once, naming the organization.
        fake.add_paid_session(
            "cs_test_link",
            &pid,
            &customer,
            "payment",
            &stripe::price("price_one_dollar", 100, false),
            None,
        );
        // A subscription, paid and live, but for another price.
        fake.add_paid_session(
            "cs_test_other_price",
            &pid,
            &customer,
            "subscription",
            &stripe::price("price_other", 100, true),
            Some("sub_other_price"),
        );
        for (n, session) in ["cs_test_link", "cs_test_other_price"]
            .into_iter()
            .enumerate()
        {
            assert_envelope(
                &upgrade_with(&server, &ann, session).await,
                402,
                "payment_not_confirmed",
            );
            checkout_completed(&server, &fake, &format!("evt_d{n}"), session).await;
            assert_eq!(status(&server, &ann).await["plan"], "free", "{session}");
        }
        let lookups: Vec<Value> = fake
            .calls()
            .into_iter()
            .filter(|c| c.method == "GET")
            .map(|c| json!(c.form))
            .collect();
        assert!(!lookups.is_empty());
        for lookup in &lookups {
            let mut expanded: Vec<&str> = lookup
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| k.starts_with("expand"))
                .map(|(_, v)| v.as_str().unwrap())
                .collect();
            expanded.sort_unstable();
            assert_eq!(expanded, ["line_items", "subscription"], "{lookup}");
        }
        assert_eq!(plan_entries(&ctx, &org).await, 0);
        assert!(emails_to(&ctx, &ann.email).is_empty());
    })
    .await;
}
