//! Ending sign-ins on the server: `POST /api/auth/logout` ends the token it is sent with, a
//! password reset ends every token issued before it, and either holds at once on every server
//! process sharing the database (no process keeps a token or its user in memory).

use std::net::SocketAddr;

use chrono::{Duration, Utc};
use loco_rs::{
    app::{AppContext, Hooks},
    boot::StartMode,
    environment::Environment,
    testing::prelude::RequestConfig,
    TestServer,
};
use sea_orm::{ActiveModelTrait, ActiveValue, EntityTrait, IntoActiveModel, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::{
    app::App,
    models::{revoked_tokens, users},
};

use crate::support::{
    assert_envelope, bearer, create_vendor, register, with_app, Account, PASSWORD,
};

async fn me(server: &TestServer, token: &str) -> u16 {
    let (name, value) = bearer(token);
    server
        .get("/api/auth/me")
        .add_header(name, value)
        .await
        .status_code()
        .as_u16()
}

async fn logout(server: &TestServer, token: &str) -> axum_test::TestResponse {
    let (name, value) = bearer(token);
    server
        .post("/api/auth/logout")
        .add_header(name, value)
        .await
}

async fn login(server: &TestServer, email: &str, password: &str) -> String {
    let res = server
        .post("/api/auth/login")
        .json(&json!({"email": email, "password": password}))
        .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    res.json::<Value>()["token"].as_str().unwrap().to_string()
}

/// A second server process on the same database: an app of its own, with its own memory
/// (its own answer cache), as the second server behind nginx would be.
async fn second_server(ctx: &AppContext) -> TestServer {
    let mut config = App::load_config(&Environment::Test).await.unwrap();
    config.database.uri.clone_from(&ctx.config.database.uri);
    let boot = App::boot(StartMode::ServerOnly, &Environment::Test, config)
        .await
        .unwrap();
    TestServer::new_with_config(
        boot.router
            .unwrap()
            .into_make_service_with_connect_info::<SocketAddr>(),
        RequestConfig::default(),
    )
    .unwrap()
}

#[tokio::test]
async fn signing_out_ends_that_token_at_once_and_no_other() {
    with_app(|server, _ctx| async move {
        let account: Account = register(&server, "Lou Ma", None).await;
        let other_browser = login(&server, &account.email, PASSWORD).await;
        assert_eq!(me(&server, &account.token).await, 200);

        let res = logout(&server, &account.token).await;
        assert_eq!(res.status_code(), 204, "{}", res.text());
        assert!(res.text().is_empty(), "no body");
        assert_eq!(me(&server, &account.token).await, 401, "signed out");
        assert_eq!(me(&server, &other_browser).await, 200, "the other goes on");

        // Signing out again with the ended token, or with none, is refused.
        assert_envelope(&logout(&server, &account.token).await, 401, "unauthorized");
        assert_envelope(&server.post("/api/auth/logout").await, 401, "unauthorized");
        assert_eq!(me(&server, &other_browser).await, 200);
    })
    .await;
}

#[tokio::test]
async fn a_token_signed_out_on_one_server_is_refused_by_the_other_even_for_kept_answers() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Mo Ng", None).await;
        create_vendor(&server, &account, "Kept Co").await;
        let other = second_server(&ctx).await;
        let (name, value) = bearer(&account.token);
        // Both processes have the vendor list and the dashboard kept for this organization.
        for s in [&server, &other] {
            for path in ["/api/vendors", "/api/dashboard/stats", "/api/vendors"] {
                let res = s.get(path).add_header(name.clone(), value.clone()).await;
                assert_eq!(res.status_code(), 200, "{path}");
            }
        }

        assert_eq!(logout(&other, &account.token).await.status_code(), 204);
        for s in [&server, &other] {
            for path in ["/api/vendors", "/api/dashboard/stats", "/api/auth/me"] {
                let res = s.get(path).add_header(name.clone(), value.clone()).await;
                assert_envelope(&res, 401, "unauthorized");
            }
        }
    })
    .await;
}

#[tokio::test]
async fn a_password_reset_ends_every_token_issued_before_it_on_every_server() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Nia Oh", None).await;
        let second = login(&server, &account.email, PASSWORD).await;
        let other = second_server(&ctx).await;
        assert_eq!(me(&other, &second).await, 200);

        // The reset, as the emailed link would do it.
        let (user, reset) = users::Model::find_by_email(&ctx.db, &account.email)
            .await
            .unwrap()
            .into_active_model()
            .issue_reset_token(&ctx.db)
            .await
            .unwrap();
        let res = server
            .post("/api/auth/reset")
            .json(&json!({"token": reset, "password": "a-new-password"}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());

        for token in [&account.token, &second] {
            assert_eq!(me(&server, token).await, 401, "ended here");
            assert_eq!(me(&other, token).await, 401, "and on the other server");
        }
        // Signing in anew works, with the new password, and is not ended by the old reset.
        let fresh = login(&server, &account.email, "a-new-password").await;
        assert_eq!(me(&server, &fresh).await, 200);
        assert_eq!(me(&other, &fresh).await, 200);
        let after = users::Model::find_by_email(&ctx.db, &account.email)
            .await
            .unwrap();
        assert_eq!(after.token_generation, user.token_generation + 1);
    })
    .await;
}

#[tokio::test]
async fn a_token_without_an_id_is_refused() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Oz Pi", None).await;
        let pid = account.user["id"].as_str().unwrap().to_string();
        let jwt = ctx.config.get_jwt_config().unwrap();
        // Our secret, a real user, a valid expiry: a token of the kind issued before signing
        // out existed, which cannot be signed out alone.
        let old_style = jsonwebtoken::encode(
            &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS512),
            &json!({"pid": pid, "exp": 4_000_000_000u64}),
            &jsonwebtoken::EncodingKey::from_base64_secret(&jwt.secret).unwrap(),
        )
        .unwrap();
        assert_eq!(me(&server, &old_style).await, 401);
        assert_eq!(me(&server, &account.token).await, 200);
    })
    .await;
}

#[tokio::test]
async fn signing_out_prunes_the_rows_of_tokens_that_have_expired() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Pam Qi", None).await;
        let long_gone = revoked_tokens::ActiveModel {
            jti: ActiveValue::Set(uuid::Uuid::new_v4()),
            expires_at: ActiveValue::Set((Utc::now() - Duration::minutes(1)).into()),
            ..Default::default()
        }
        .insert(&ctx.db)
        .await
        .unwrap();
        assert_eq!(logout(&server, &account.token).await.status_code(), 204);
        let rows = revoked_tokens::Entity::find().all(&ctx.db).await.unwrap();
        assert_eq!(rows.len(), 1, "only the token just signed out: {rows:?}");
        assert_ne!(rows[0].jti, long_gone.jti);
        let expires_in = rows[0].expires_at.with_timezone(&Utc) - Utc::now();
        let lifetime = i64::try_from(ctx.config.get_jwt_config().unwrap().expiration).unwrap();
        assert!(
            (lifetime - 60..=lifetime).contains(&expires_in.num_seconds()),
            "kept as long as the token could live: {expires_in}"
        );
        assert_eq!(
            revoked_tokens::Entity::find().count(&ctx.db).await.unwrap(),
            1
        );
    })
    .await;
}
