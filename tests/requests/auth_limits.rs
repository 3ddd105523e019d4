//! The per-address abuse limits of registration and sign-in: budgets past which the answer is
//! 429 with `Retry-After`, counted in this process or, with a Redis configured, shared by every
//! server process.

use std::net::SocketAddr;

use loco_rs::TestServer;
use loco_rs::{app::AppContext, boot::StartMode, config::Config, testing::prelude::RequestConfig};
use serde_json::json;
use vendorwatch::models::users;

use crate::support::{
    assert_envelope, boot_with, count_orgs, count_users, email, register, service_env, with_app,
    with_app_config, TestDb, PASSWORD,
};

/// A number from the `settings.rate_limits` block of the test config.
fn limit(ctx: &AppContext, name: &str) -> u64 {
    let settings = vendorwatch::settings::Settings::from_context(ctx).unwrap();
    serde_json::to_value(settings.rate_limits).unwrap()[name]
        .as_u64()
        .unwrap_or_else(|| panic!("settings.rate_limits.{name} is not set"))
}

fn retry_after(res: &axum_test::TestResponse) -> u64 {
    res.header("retry-after").to_str().unwrap().parse().unwrap()
}

async fn register_as(server: &TestServer, name: &str) -> axum_test::TestResponse {
    server
        .post("/api/auth/register")
        .json(&json!({"name": name, "email": email("limits"), "password": PASSWORD}))
        .await
}

async fn login(server: &TestServer, email: &str, password: &str) -> axum_test::TestResponse {
    server
        .post("/api/auth/login")
        .json(&json!({"email": email, "password": password}))
        .await
}

/// A user made through the model, so the registration budget is not spent on it.
async fn user(ctx: &AppContext, n: u64) -> String {
    let params = users::RegisterParams {
        name: format!("Office User {n}"),
        email: email(&format!("office{n}")),
        password: PASSWORD.into(),
        company: None,
        time_zone: None,
    };
    users::Model::register(&ctx.db, &params).await.unwrap();
    params.email
}

#[tokio::test]
async fn registrations_from_one_address_past_the_budget_get_429_and_create_no_user() {
    with_app(|server, ctx| async move {
        let budget = limit(&ctx, "registrations_per_address");
        for n in 0..budget {
            register(&server, &format!("Reg User {n}"), None).await;
        }
        let (users, orgs) = (count_users(&ctx).await, count_orgs(&ctx).await);

        let res = register_as(&server, "One Too Many").await;
        assert_envelope(&res, 429, "rate_limited");
        let retry = retry_after(&res);
        let window = limit(&ctx, "registration_window_seconds");
        assert!((1..=window).contains(&retry), "retry-after {retry}");
        assert_eq!(count_users(&ctx).await, users, "no user was created");
        assert_eq!(count_orgs(&ctx).await, orgs, "no organization was created");
    })
    .await;
}

#[tokio::test]
async fn one_password_sprayed_over_many_emails_from_one_address_is_refused_past_the_budget() {
    with_app(|server, ctx| async move {
        let victim = user(&ctx, 0).await;
        let budget = limit(&ctx, "login_failures_per_address");
        for n in 0..budget {
            let res = login(&server, &email(&format!("spray{n}")), "Summer2024!").await;
            assert_envelope(&res, 401, "invalid_credentials");
        }

        let res = login(&server, &email("spray-next"), "Summer2024!").await;
        assert_envelope(&res, 429, "rate_limited");
        let retry = retry_after(&res);
        let window = limit(&ctx, "login_failure_window_seconds");
        assert!((1..=window).contains(&retry), "retry-after {retry}");

        // Until the window passes, even the right password is refused from that address: the
        // answer must not tell the sprayer which guess was right.
        let res = login(&server, &victim, PASSWORD).await;
        assert_envelope(&res, 429, "rate_limited");
    })
    .await;
}

#[tokio::test]
async fn successful_sign_ins_from_a_shared_address_do_not_spend_the_failure_budget() {
    with_app(|server, ctx| async move {
        let budget = limit(&ctx, "login_failures_per_address");
        for n in 0..budget - 1 {
            let res = login(&server, &email(&format!("typo{n}")), "wrong-password").await;
            assert_envelope(&res, 401, "invalid_credentials");
        }
        // More successful sign-ins than the budget, one per colleague (the per-email limit is
        // not what this is about).
        for n in 0..=budget {
            let colleague = user(&ctx, n).await;
            let res = login(&server, &colleague, PASSWORD).await;
            assert_eq!(res.status_code(), 200, "colleague {n}: {}", res.text());
        }

        let res = login(&server, &email("typo-last"), "wrong-password").await;
        assert_envelope(&res, 401, "invalid_credentials");
        let res = login(&server, &email("typo-over"), "wrong-password").await;
        assert_envelope(&res, 429, "rate_limited");
    })
    .await;
}

fn use_rate_limit_redis(config: &mut Config, url: &str, prefix: &str) {
    let limits = &mut config.settings.as_mut().unwrap()["rate_limits"];
    limits["redis_url"] = json!(url);
    limits["redis_key_prefix"] = json!(prefix);
}

#[tokio::test]
async fn an_unreachable_redis_falls_back_to_the_budget_of_this_process() {
    // Nothing listens on port 1: every Redis call fails, and the process counts on its own
    // instead of letting everyone through or locking everyone out.
    let edit = |config: &mut Config| {
        use_rate_limit_redis(config, "redis://127.0.0.1:1/", "vw-test:");
    };
    with_app_config(edit, |server, ctx| async move {
        let budget = limit(&ctx, "registrations_per_address");
        for n in 0..budget {
            register(&server, &format!("Down User {n}"), None).await;
        }
        let res = register_as(&server, "One Too Many").await;
        assert_envelope(&res, 429, "rate_limited");
    })
    .await;
}

const WHAT: &str = "the shared rate-limit tests (Redis)";

/// `REDIS_URL` with a database of these tests' own, and a key prefix of this run's own, so
/// reruns and parallel runs never meet (the keys expire with their window).
fn own_redis() -> Option<(String, String)> {
    let base = service_env("REDIS_URL", WHAT)?;
    let mut url = url::Url::parse(&base).unwrap();
    url.set_path("/14");
    let prefix = format!("vw-test:{}:", uuid::Uuid::new_v4().simple());
    Some((url.to_string(), prefix))
}

/// One server process of the app (its own database) counting its limits in `redis`.
async fn server_on(url: &str, prefix: &str) -> (TestServer, AppContext, TestDb) {
    let (boot, db) = boot_with(StartMode::ServerOnly, |config| {
        use_rate_limit_redis(config, url, prefix);
    })
    .await;
    let router = boot.router.clone().unwrap();
    let server = TestServer::new_with_config(
        router.into_make_service_with_connect_info::<SocketAddr>(),
        RequestConfig::default(),
    )
    .unwrap();
    (server, boot.app_context.clone(), db)
}

#[tokio::test]
async fn two_server_processes_on_one_redis_share_the_registration_budget() {
    let Some((url, prefix)) = own_redis() else {
        return;
    };
    let (first, first_ctx, _first_db) = server_on(&url, &prefix).await;
    let (second, second_ctx, _second_db) = server_on(&url, &prefix).await;

    let budget = limit(&first_ctx, "registrations_per_address");
    for n in 0..budget {
        register(&first, &format!("First User {n}"), None).await;
    }
    let res = register_as(&second, "Second Process").await;
    assert_envelope(&res, 429, "rate_limited");
    assert_eq!(count_users(&second_ctx).await, 0, "no user was created");

    // The wait is what is left of the window the keys in Redis live for.
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(keys.len(), 1, "one counter in Redis: {keys:?}");
    let ttl_ms: u64 = redis::cmd("PTTL")
        .arg(&keys[0])
        .query_async(&mut conn)
        .await
        .unwrap();
    let retry = retry_after(&res);
    let window = limit(&first_ctx, "registration_window_seconds");
    assert!(
        retry <= window && retry >= ttl_ms / 1000,
        "retry-after {retry}, ttl {ttl_ms} ms"
    );
}

#[tokio::test]
async fn two_server_processes_on_one_redis_share_the_login_failure_budget() {
    let Some((url, prefix)) = own_redis() else {
        return;
    };
    let (first, first_ctx, _first_db) = server_on(&url, &prefix).await;
    let (second, second_ctx, _second_db) = server_on(&url, &prefix).await;
    let colleague = user(&second_ctx, 0).await;

    let budget = limit(&first_ctx, "login_failures_per_address");
    for n in 0..budget {
        let res = login(&first, &email(&format!("spray{n}")), "Summer2024!").await;
        assert_envelope(&res, 401, "invalid_credentials");
    }
    let res = login(&second, &colleague, PASSWORD).await;
    assert_envelope(&res, 429, "rate_limited");
    let retry = retry_after(&res);
    assert!((1..=limit(&first_ctx, "login_failure_window_seconds")).contains(&retry));
}

/// The per-minute sign-in limit and the portal's key checks behind a proxy with several
/// servers: counted once in Redis, not once per process (with N servers a client had N times
/// the budget).
#[tokio::test]
async fn two_server_processes_on_one_redis_share_the_sign_in_and_portal_key_limits() {
    let Some((url, prefix)) = own_redis() else {
        return;
    };
    let (first, first_ctx, _first_db) = server_on(&url, &prefix).await;
    let (second, _second_ctx, _second_db) = server_on(&url, &prefix).await;

    let per_minute = limit(&first_ctx, "login_per_minute");
    for n in 0..per_minute {
        let server = if n % 2 == 0 { &first } else { &second };
        let res = login(server, "shared@example.com", "wrong-password").await;
        assert_eq!(res.status_code(), 401, "attempt {n}");
    }
    assert_envelope(
        &login(&second, "shared@example.com", "wrong-password").await,
        429,
        "rate_limited",
    );

    let key_checks = limit(&first_ctx, "portal_key_checks");
    for n in 0..key_checks {
        let server = if n % 2 == 0 { &first } else { &second };
        let res = server
            .get(&format!("/api/validate-company-key?key=NO-SUCH-KEY-{n}"))
            .await;
        assert_eq!(res.status_code(), 404, "check {n}");
    }
    let res = first.get("/api/validate-company-key?key=NO-SUCH-KEY").await;
    assert_eq!(res.status_code(), 429, "{}", res.text());
}
