//! Whom a reply reaches: an email sent to a vendor on the business's behalf replies to the
//! business's person (the member who sent it), an email to the business's own users to
//! support.

use mail_parser::MessageParser;
use sea_orm::{ActiveModelTrait, ActiveValue};
use serde_json::{json, Value};
use vendorwatch::models::_entities::users;

use crate::support::{
    bearer, create_vendor, make_professional, org_of, register, with_app, Account, PASSWORD,
};

/// The `Reply-To` address of a raw message.
fn reply_to(raw: &str) -> String {
    let message = MessageParser::default().parse(raw.as_bytes()).unwrap();
    let address = message.reply_to().and_then(|r| r.first()).unwrap();
    address.address().unwrap().to_string()
}

/// A second user of `owner`'s organization, signed in.
async fn member(
    server: &axum_test::TestServer,
    ctx: &loco_rs::app::AppContext,
    owner: &Account,
) -> Account {
    let org = org_of(ctx, owner).await;
    let email = crate::support::email("member");
    users::ActiveModel {
        email: ActiveValue::Set(email.clone()),
        password: ActiveValue::Set(loco_rs::hash::hash_password(PASSWORD).unwrap()),
        name: ActiveValue::Set("Mia Member".into()),
        role: ActiveValue::Set("user".into()),
        organization_id: ActiveValue::Set(org.id),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await
    .unwrap();
    let res = server
        .post("/api/auth/login")
        .json(&json!({"email": email, "password": PASSWORD}))
        .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    let body: Value = res.json();
    Account {
        token: body["token"].as_str().unwrap().to_string(),
        user: body["user"].clone(),
        email,
    }
}

#[tokio::test]
async fn a_documents_request_replies_to_the_member_who_sent_it() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olga Owner", Some("Reply Co")).await;
        make_professional(&ctx, &owner).await;
        let mia = member(&server, &ctx, &owner).await;
        let vendor = create_vendor(&server, &owner, "Gamma Glass").await;
        let (name, value) = bearer(&mia.token);
        let res = server
            .post("/api/vendors/renewal-requests")
            .add_header(name, value)
            .json(&json!({"ids": [vendor["id"]]}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let messages = ctx.mailer.as_ref().unwrap().deliveries().messages;
        assert_eq!(messages.len(), 1, "{messages:#?}");
        assert_eq!(reply_to(&messages[0]), mia.email, "the member who sent it");
        assert!(messages[0].contains("Mia Member"), "named: {}", messages[0]);
    })
    .await;
}

#[tokio::test]
async fn an_email_to_the_business_s_own_user_replies_to_support() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Reset", None).await;
        let res = server
            .post("/api/auth/forgot")
            .json(&json!({"email": ann.email}))
            .await;
        assert_eq!(res.status_code(), 200);
        let messages = ctx.mailer.as_ref().unwrap().deliveries().messages;
        assert_eq!(messages.len(), 1);
        assert_eq!(reply_to(&messages[0]), "support@vendorwatch.app");
    })
    .await;
}
