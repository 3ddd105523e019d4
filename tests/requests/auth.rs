use chrono::{Duration, Utc};
use loco_rs::TestServer;
use sea_orm::{ActiveModelTrait, ActiveValue, IntoActiveModel};
use serde_json::{json, Value};
use vendorwatch::models::users;

use crate::support::{
    assert_envelope, bearer, count_orgs, count_users, email, register, with_app, Account, PASSWORD,
};

#[tokio::test]
async fn registering_creates_an_organization_named_after_the_company_and_its_owner() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Ann Lee", Some("Acme Plumbing")).await;
        assert_eq!(account.user["name"], "Ann Lee");
        assert_eq!(account.user["email"], account.email);
        assert_eq!(account.user["company"], "Acme Plumbing");
        assert_eq!(account.user["role"], "user");
        assert_eq!(account.user["plan"], "free");
        let user = users::Model::find_by_email(&ctx.db, &account.email)
            .await
            .unwrap();
        assert_ne!(user.password, PASSWORD, "the password is stored hashed");
        assert!(
            user.password.starts_with("$argon2id$"),
            "hashed with Argon2id"
        );
        let org = user.organization(&ctx.db).await.unwrap();
        assert_eq!(org.name, "Acme Plumbing");
        assert_eq!(org.plan, "free");
    })
    .await;
}

#[tokio::test]
async fn registering_without_a_company_names_the_organization_after_the_user() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Bo Diaz", None).await;
        assert_eq!(account.user["company"], Value::Null);
        let user = users::Model::find_by_email(&ctx.db, &account.email)
            .await
            .unwrap();
        assert_eq!(user.organization(&ctx.db).await.unwrap().name, "Bo Diaz");
    })
    .await;
}

#[tokio::test]
async fn registration_refuses_each_bad_field_with_the_spec_message_and_creates_nothing() {
    with_app(|server, ctx| async move {
        let res = server
            .post("/api/auth/register")
            .json(&json!({"name": "A", "email": "not-an-email", "password": "12345"}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert_eq!(
            body["errors"]["name"][0],
            "Name must be at least 2 characters"
        );
        assert_eq!(body["errors"]["email"][0], "Invalid email address");
        assert_eq!(
            body["errors"]["password"][0],
            "Password must be at least 6 characters"
        );

        let res = server.post("/api/auth/register").json(&json!({})).await;
        assert_envelope(&res, 422, "validation_failed");
        assert_eq!(count_users(&ctx).await, 0);
        assert_eq!(count_orgs(&ctx).await, 0);
    })
    .await;
}

#[tokio::test]
async fn registering_a_taken_email_in_any_case_is_a_conflict() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Cy Park", None).await;
        let res = server
            .post("/api/auth/register")
            .json(&json!({"name": "Other", "email": account.email.to_uppercase(), "password": PASSWORD}))
            .await;
        assert_envelope(&res, 409, "email_taken");
        assert_eq!(count_users(&ctx).await, 1);
        assert_eq!(count_orgs(&ctx).await, 1);
    })
    .await;
}

#[tokio::test]
async fn a_body_that_does_not_parse_is_a_400() {
    with_app(|server, ctx| async move {
        let res = server
            .post("/api/auth/register")
            .content_type("application/json")
            .bytes("{\"name\": ".into())
            .await;
        assert_envelope(&res, 400, "invalid_body");
        assert_eq!(count_users(&ctx).await, 0);
    })
    .await;
}

#[tokio::test]
async fn login_returns_a_token_that_opens_me() {
    with_app(|server, _ctx| async move {
        let account = register(&server, "Di Ray", Some("Ray Co")).await;
        let res = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": PASSWORD}))
            .await;
        assert_eq!(res.status_code(), 200);
        let body: Value = res.json();
        assert_eq!(body["user"], account.user);
        let token = body["token"].as_str().unwrap();
        let (name, value) = bearer(token);
        let me = server.get("/api/auth/me").add_header(name, value).await;
        assert_eq!(me.status_code(), 200);
        assert_eq!(me.json::<Value>(), account.user);
    })
    .await;
}

#[tokio::test]
async fn unknown_email_and_wrong_password_get_the_same_answer() {
    with_app(|server, _ctx| async move {
        let account = register(&server, "Ed Fox", None).await;
        let wrong = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": "wrong-password"}))
            .await;
        let unknown = server
            .post("/api/auth/login")
            .json(&json!({"email": email("nobody"), "password": "wrong-password"}))
            .await;
        let a = assert_envelope(&wrong, 401, "invalid_credentials");
        let b = assert_envelope(&unknown, 401, "invalid_credentials");
        assert_eq!(a, b);
    })
    .await;
}

#[tokio::test]
async fn login_refuses_bad_input_with_the_spec_messages() {
    with_app(|server, _ctx| async move {
        let res = server
            .post("/api/auth/login")
            .json(&json!({"email": "nope", "password": "123"}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert_eq!(body["errors"]["email"][0], "Invalid email address");
        assert_eq!(
            body["errors"]["password"][0],
            "Password must be at least 6 characters"
        );
    })
    .await;
}

#[tokio::test]
async fn repeated_login_failures_are_rate_limited_with_retry_after() {
    with_app(|server, _ctx| async move {
        let account = register(&server, "Fay Gu", None).await;
        for _ in 0..5 {
            let res = server
                .post("/api/auth/login")
                .json(&json!({"email": account.email, "password": "wrong-password"}))
                .await;
            assert_eq!(res.status_code(), 401);
        }
        let res = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": PASSWORD}))
            .await;
        assert_envelope(&res, 429, "rate_limited");
        let retry: u64 = res.header("retry-after").to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&retry), "retry-after {retry}");
        // Another account from the same address is not locked out by it.
        let other = register(&server, "Gil Ho", None).await;
        let res = server
            .post("/api/auth/login")
            .json(&json!({"email": other.email, "password": PASSWORD}))
            .await;
        assert_eq!(res.status_code(), 200);
    })
    .await;
}

async fn me_status(server: &TestServer, token: &str) -> axum_test::TestResponse {
    let (name, value) = bearer(token);
    server.get("/api/auth/me").add_header(name, value).await
}

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[tokio::test]
async fn me_refuses_missing_tampered_unsigned_foreign_and_expired_tokens() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Hal Ito", None).await;
        let pid = account.user["id"].as_str().unwrap().to_string();

        let res = server.get("/api/auth/me").await;
        assert_envelope(&res, 401, "unauthorized");

        // Tampered: the payload names another subject, the signature is the old one.
        let parts: Vec<&str> = account.token.split('.').collect();
        let forged_claims =
            json!({"pid": uuid::Uuid::new_v4().to_string(), "exp": 4_000_000_000u64});
        let tampered = format!(
            "{}.{}.{}",
            parts[0],
            b64(forged_claims.to_string().as_bytes()),
            parts[2]
        );
        assert_envelope(&me_status(&server, &tampered).await, 401, "unauthorized");

        // alg: none, no signature at all.
        let header = b64(br#"{"alg":"none","typ":"JWT"}"#);
        let claims = b64(json!({"pid": pid, "exp": 4_000_000_000u64})
            .to_string()
            .as_bytes());
        assert_envelope(
            &me_status(&server, &format!("{header}.{claims}.")).await,
            401,
            "unauthorized",
        );

        // Signed with another secret.
        let foreign = jsonwebtoken::encode(
            &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS512),
            &json!({"pid": pid, "exp": 4_000_000_000u64}),
            &jsonwebtoken::EncodingKey::from_secret(b"not-our-secret"),
        )
        .unwrap();
        assert_envelope(&me_status(&server, &foreign).await, 401, "unauthorized");

        // Our secret, but expired.
        let jwt = ctx.config.get_jwt_config().unwrap();
        let expired = jsonwebtoken::encode(
            &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS512),
            &json!({"pid": pid, "exp": Utc::now().timestamp() - 60}),
            &jsonwebtoken::EncodingKey::from_base64_secret(&jwt.secret).unwrap(),
        )
        .unwrap();
        assert_envelope(&me_status(&server, &expired).await, 401, "unauthorized");

        // Our secret and a valid expiry, but no such user, or a pid that is not one.
        for subject in [uuid::Uuid::new_v4().to_string(), "not-a-pid".to_string()] {
            let unknown = jsonwebtoken::encode(
                &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS512),
                &json!({"pid": subject, "exp": 4_000_000_000u64}),
                &jsonwebtoken::EncodingKey::from_base64_secret(&jwt.secret).unwrap(),
            )
            .unwrap();
            assert_envelope(&me_status(&server, &unknown).await, 401, "unauthorized");
        }

        // And the genuine one still works.
        assert_eq!(me_status(&server, &account.token).await.status_code(), 200);
    })
    .await;
}

#[tokio::test]
async fn a_spoofed_x_user_id_header_changes_nothing() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Ma", None).await;
        let bob = register(&server, "Bob Ng", None).await;
        let (name, value) = bearer(&ann.token);
        let res = server
            .get("/api/auth/me")
            .add_header(name, value)
            .add_header(
                axum::http::HeaderName::from_static("x-user-id"),
                axum::http::HeaderValue::from_str(bob.user["id"].as_str().unwrap()).unwrap(),
            )
            .await;
        assert_eq!(res.json::<Value>()["email"], ann.email);
    })
    .await;
}

fn reset_token_from(raw: &str) -> String {
    // The message is MIME with quoted-printable parts: undo soft breaks and `=3D`.
    let message = raw
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=");
    let start = message
        .find("reset-password?token=")
        .expect("reset link in the email")
        + "reset-password?token=".len();
    message[start..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

async fn forgot(server: &TestServer, email: &str) -> axum_test::TestResponse {
    server
        .post("/api/auth/forgot")
        .json(&json!({"email": email}))
        .await
}

#[tokio::test]
async fn a_reset_link_sets_a_new_password_once() {
    with_app(|server, ctx| async move {
        let account: Account = register(&server, "Ida Qu", None).await;
        assert_eq!(forgot(&server, &account.email).await.status_code(), 200);
        let deliveries = ctx.mailer.as_ref().unwrap().deliveries();
        assert_eq!(deliveries.count, 1);
        let message = deliveries.messages[0].clone();
        assert!(
            message.contains(&format!("To: {}", account.email)),
            "{message}"
        );
        assert!(message.contains("Subject: Reset your Vendorwatch password"));
        assert!(message.contains("Content-Type: text/html"), "HTML part");
        assert!(message.contains("Content-Type: text/plain"), "text part");
        let token = reset_token_from(&message);

        let res = server
            .post("/api/auth/reset")
            .json(&json!({"token": token, "password": "brand-new-pass"}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let login = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": "brand-new-pass"}))
            .await;
        assert_eq!(login.status_code(), 200);

        let again = server
            .post("/api/auth/reset")
            .json(&json!({"token": token, "password": "another-pass"}))
            .await;
        assert_envelope(&again, 422, "validation_failed");
        let login = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": "another-pass"}))
            .await;
        assert_eq!(login.status_code(), 401, "the spent token changed nothing");
    })
    .await;
}

#[tokio::test]
async fn an_expired_or_unknown_reset_token_or_short_password_is_refused() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Jo Ru", None).await;
        forgot(&server, &account.email).await;
        let token = reset_token_from(&ctx.mailer.as_ref().unwrap().deliveries().messages[0]);

        let short = server
            .post("/api/auth/reset")
            .json(&json!({"token": token, "password": "123"}))
            .await;
        let body = assert_envelope(&short, 422, "validation_failed");
        assert_eq!(
            body["errors"]["password"][0],
            "Password must be at least 6 characters"
        );

        let unknown = server
            .post("/api/auth/reset")
            .json(&json!({"token": "not-a-token", "password": "brand-new-pass"}))
            .await;
        assert_envelope(&unknown, 422, "validation_failed");

        let user = users::Model::find_by_email(&ctx.db, &account.email)
            .await
            .unwrap();
        let mut active = user.into_active_model();
        active.reset_sent_at = ActiveValue::Set(Some((Utc::now() - Duration::minutes(61)).into()));
        active.update(&ctx.db).await.unwrap();
        let expired = server
            .post("/api/auth/reset")
            .json(&json!({"token": token, "password": "brand-new-pass"}))
            .await;
        let body = assert_envelope(&expired, 422, "validation_failed");
        assert_eq!(
            body["message"],
            "This reset link is invalid or has expired."
        );
        let login = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": PASSWORD}))
            .await;
        assert_eq!(login.status_code(), 200, "the old password still works");
    })
    .await;
}

#[tokio::test]
async fn forgot_answers_the_same_for_unknown_emails_and_sends_nothing() {
    with_app(|server, ctx| async move {
        let res = forgot(&server, &email("ghost")).await;
        assert_eq!(res.status_code(), 200);
        assert_eq!(ctx.mailer.as_ref().unwrap().deliveries().count, 0);
    })
    .await;
}

#[tokio::test]
async fn forgot_is_rate_limited_per_address() {
    with_app(|server, _ctx| async move {
        for _ in 0..5 {
            assert_eq!(forgot(&server, &email("x")).await.status_code(), 200);
        }
        let res = forgot(&server, &email("x")).await;
        assert_envelope(&res, 429, "rate_limited");
        assert!(res.maybe_header("retry-after").is_some());
    })
    .await;
}
