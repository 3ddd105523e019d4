//! One organization cannot make the server call Stripe without limit: starting a checkout and
//! looking up a session each spend from a budget of the organization's
//! (`settings.rate_limits`), past which the answer is 429 with `Retry-After` and Stripe is not
//! called; and a second click of Upgrade hands back the session still open.

use std::net::SocketAddr;

use axum_test::TestResponse;
use loco_rs::{
    app::AppContext, boot::StartMode, config::Config, testing::prelude::RequestConfig, TestServer,
};
use serde_json::{json, Value};

use super::billing::{post, start_checkout, status};
use crate::support::{
    assert_envelope, boot_with, org_of, register, service_env, stripe, stripe::StripeFake,
    with_app_config, Account, TestDb,
};

fn set_budgets(config: &mut Config, checkouts: u32, lookups: u32) {
    let limits = &mut config.settings.as_mut().unwrap()["rate_limits"];
    limits["checkouts_per_organization"] = json!(checkouts);
    limits["checkout_lookups_per_organization"] = json!(lookups);
    limits["billing_window_seconds"] = json!(3600);
}

/// The app against `fake`, with these per-organization budgets an hour.
async fn with_budgets<F, Fut>(checkouts: u32, lookups: u32, test: F)
where
    F: FnOnce(TestServer, AppContext, StripeFake) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let fake = StripeFake::start().await;
    let for_config = fake.clone();
    with_app_config(
        move |config| {
            stripe::configure(config, &for_config);
            set_budgets(config, checkouts, lookups);
        },
        |server, ctx| test(server, ctx, fake),
    )
    .await;
}

async fn click_upgrade(server: &TestServer, account: &Account) -> TestResponse {
    post(server, account, "/api/create-subscription", None).await
}

fn stripe_calls(fake: &StripeFake) -> usize {
    fake.calls().len()
}

fn refused_with_retry_after(res: &TestResponse) {
    assert_envelope(res, 429, "rate_limited");
    let wait: u64 = res.header("retry-after").to_str().unwrap().parse().unwrap();
    assert!((1..=3600).contains(&wait), "retry-after {wait}");
}

#[tokio::test]
async fn checkouts_past_the_organizations_budget_get_429_and_never_reach_stripe() {
    with_budgets(3, 100, |server, ctx, fake| async move {
        let ann = register(&server, "Ann Clicks", Some("Clicks Co")).await;
        for _ in 0..3 {
            let res = click_upgrade(&server, &ann).await;
            assert_eq!(res.status_code(), 200, "{}", res.text());
        }
        let before = stripe_calls(&fake);
        for _ in 0..5 {
            refused_with_retry_after(&click_upgrade(&server, &ann).await);
        }
        assert_eq!(stripe_calls(&fake), before, "a refused click calls Stripe");

        let bob = register(&server, "Bob Other", Some("Other Co")).await;
        let res = click_upgrade(&server, &bob).await;
        assert_eq!(
            res.status_code(),
            200,
            "another organization has its own budget"
        );
        assert_eq!(status(&server, &ann).await["plan"], "free");
        assert!(org_of(&ctx, &ann).await.stripe_customer_id.is_some());
    })
    .await;
}

#[tokio::test]
async fn session_lookups_past_the_organizations_budget_get_429_and_never_reach_stripe() {
    with_budgets(100, 3, |server, ctx, fake| async move {
        let ann = register(&server, "Ann Looks", Some("Looks Co")).await;
        let session = start_checkout(&server, &ann, &fake).await;
        let lookups = || fake.calls().iter().filter(|c| c.method == "GET").count();
        for n in 0..3 {
            let res = post(
                &server,
                &ann,
                "/api/upgrade-to-professional",
                Some(json!({"sessionId": format!("cs_test_guess{n}")})),
            )
            .await;
            assert_envelope(&res, 402, "payment_not_confirmed");
        }
        assert_eq!(lookups(), 3);
        // Even the organization's own paid session waits for the window.
        fake.pay(&session, "sub_looks");
        let res = post(
            &server,
            &ann,
            "/api/upgrade-to-professional",
            Some(json!({"sessionId": session})),
        )
        .await;
        refused_with_retry_after(&res);
        assert_eq!(lookups(), 3, "a refused look-up calls Stripe");
        assert_eq!(status(&server, &ann).await["plan"], "free");
        assert_eq!(org_of(&ctx, &ann).await.plan, "free");

        let bob = register(&server, "Bob Looks", Some("Other Looks Co")).await;
        let res = post(
            &server,
            &bob,
            "/api/upgrade-to-professional",
            Some(json!({"sessionId": "cs_test_bob"})),
        )
        .await;
        assert_envelope(&res, 402, "payment_not_confirmed");
        assert_eq!(lookups(), 4, "another organization has its own budget");
    })
    .await;
}

#[tokio::test]
async fn a_second_click_hands_back_the_open_session_until_it_is_paid_or_expired() {
    with_budgets(100, 100, |server, _ctx, fake| async move {
        let ann = register(&server, "Ann Again", Some("Again Co")).await;
        let created = |fake: &StripeFake| {
            fake.calls()
                .iter()
                .filter(|c| c.method == "POST" && c.path == "/v1/checkout/sessions")
                .count()
        };
        let first = start_checkout(&server, &ann, &fake).await;
        for _ in 0..3 {
            assert_eq!(start_checkout(&server, &ann, &fake).await, first);
        }
        assert_eq!(created(&fake), 1, "one session for four clicks");

        fake.expire(&first);
        let second = start_checkout(&server, &ann, &fake).await;
        assert_ne!(second, first, "an expired session is not handed back");
        assert_eq!(start_checkout(&server, &ann, &fake).await, second);

        // Paid, but neither the webhook nor the browser has said so yet.
        fake.pay(&second, "sub_again");
        let third = start_checkout(&server, &ann, &fake).await;
        assert_ne!(third, second, "a completed session is not handed back");
        assert_eq!(created(&fake), 3);
        let url: Value = click_upgrade(&server, &ann).await.json();
        assert!(url["url"].as_str().unwrap().ends_with(&third));
    })
    .await;
}

/// One server process against `fake`, counting its budgets in `redis_url` under `prefix`.
async fn server_on(
    fake: &StripeFake,
    redis_url: &str,
    prefix: &str,
) -> (TestServer, AppContext, TestDb) {
    let (boot, db) = boot_with(StartMode::ServerOnly, |config| {
        stripe::configure(config, fake);
        set_budgets(config, 2, 2);
        let limits = &mut config.settings.as_mut().unwrap()["rate_limits"];
        limits["redis_url"] = json!(redis_url);
        limits["redis_key_prefix"] = json!(prefix);
    })
    .await;
    let server = TestServer::new_with_config(
        boot.router
            .clone()
            .unwrap()
            .into_make_service_with_connect_info::<SocketAddr>(),
        RequestConfig::default(),
    )
    .unwrap();
    (server, boot.app_context.clone(), db)
}

#[tokio::test]
async fn two_server_processes_on_one_redis_share_the_organizations_checkout_budget() {
    let Some(base) = service_env("REDIS_URL", "the shared billing budget test (Redis)") else {
        return;
    };
    let mut url = url::Url::parse(&base).unwrap();
    url.set_path("/14");
    let prefix = format!("vw-test:{}:", uuid::Uuid::new_v4().simple());
    let fake = StripeFake::start().await;
    let (first, first_ctx, _first_db) = server_on(&fake, url.as_str(), &prefix).await;
    let (second, second_ctx, _second_db) = server_on(&fake, url.as_str(), &prefix).await;
    // Each process has a database of its own here; the first organization of each has the
    // same id, as one organization has behind a proxy where the processes share a database.
    let ann = register(&first, "Ann First", Some("Shared Co")).await;
    let ann_again = register(&second, "Ann Second", Some("Shared Co")).await;
    assert_eq!(
        org_of(&first_ctx, &ann).await.id,
        org_of(&second_ctx, &ann_again).await.id
    );

    assert_eq!(click_upgrade(&first, &ann).await.status_code(), 200);
    assert_eq!(click_upgrade(&second, &ann_again).await.status_code(), 200);
    refused_with_retry_after(&click_upgrade(&first, &ann).await);
    refused_with_retry_after(&click_upgrade(&second, &ann_again).await);
}
