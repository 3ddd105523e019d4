//! The weekly summary's unsubscribe link: in the email, working without signing in, a page on
//! GET and the change on POST (RFC 8058 one-click), refused (404, nothing changed) when its
//! signature is not the app's; the next summary is not sent.

use loco_rs::{app::AppContext, bgworker::BackgroundWorker};
use sea_orm::EntityTrait;
use serde_json::{json, Value};
use vendorwatch::{
    models::{_entities::users, weekly_summaries},
    workers::weekly_summary::{week_start, WeeklySummaryArgs, WeeklySummaryWorker},
};

use loco_rs::TestServer;

use crate::support::{email_parts, get, make_professional, register, with_app, Account};

async fn send_summaries(ctx: &AppContext, org_id: i64) {
    WeeklySummaryWorker::build(ctx)
        .perform(WeeklySummaryArgs {
            organization_id: org_id,
            day: None,
        })
        .await
        .unwrap();
}

/// The messages the stub mailer holds for `to`.
fn messages_to(ctx: &AppContext, to: &str) -> Vec<String> {
    ctx.mailer
        .as_ref()
        .unwrap()
        .deliveries()
        .messages
        .into_iter()
        .filter(|m| m.contains(&format!("To: {to}")))
        .collect()
}

/// The unsubscribe path (`/unsubscribe/<token>`) the email gives, the same in both parts.
fn unsubscribe_path(message: &str) -> String {
    let parts = email_parts(message);
    let start = parts
        .find("http://localhost:5150/unsubscribe/")
        .unwrap_or_else(|| panic!("an unsubscribe link in the text: {parts}"));
    let link: String = parts[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '"')
        .collect();
    assert!(
        parts[start + link.len()..].contains(&format!("href=\"{link}\"")),
        "the same link in the HTML: {parts}"
    );
    link.trim_start_matches("http://localhost:5150").to_string()
}

async fn user_of(ctx: &AppContext, account: &Account) -> users::Model {
    vendorwatch::models::users::Model::find_by_email(&ctx.db, &account.email)
        .await
        .unwrap()
}

async fn wants_summary(ctx: &AppContext, account: &Account) -> bool {
    let id = user_of(ctx, account).await.id;
    users::Entity::find_by_id(id)
        .one(&ctx.db)
        .await
        .unwrap()
        .unwrap()
        .weekly_summary
}

/// The week's summaries taken back, as if the next week had come.
async fn next_week(ctx: &AppContext, org_id: i64) {
    let week = week_start(vendorwatch::models::documents::today());
    weekly_summaries::release(&ctx.db, org_id, week)
        .await
        .unwrap();
}

async fn summary_link(server: &TestServer, ctx: &AppContext) -> (Account, Account, i64, String) {
    let ann = register(server, "Ann Unsub", Some("Unsub Co")).await;
    let org = make_professional(ctx, &ann).await;
    let bob = register(server, "Bob Other", Some("Other Unsub Co")).await;
    send_summaries(ctx, org.id).await;
    let sent = messages_to(ctx, &ann.email);
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let path = unsubscribe_path(&sent[0]);
    (ann, bob, org.id, path)
}

#[tokio::test]
async fn the_link_unsubscribes_without_signing_in_and_the_next_summary_is_not_sent() {
    with_app(|server, ctx| async move {
        let (ann, _, org_id, path) = summary_link(&server, &ctx).await;

        // A link scanner or a mail client opening the link changes nothing.
        let page = server.get(&path).await;
        assert_eq!(page.status_code(), 200);
        let html = page.text();
        assert!(html.contains("<form method=\"post\">"), "{html}");
        assert!(html.contains(&ann.email), "{html}");
        assert!(wants_summary(&ctx, &ann).await, "GET changes nothing");

        // The one-click POST a mail provider sends (RFC 8058), with no token.
        let done = server
            .post(&path)
            .content_type("application/x-www-form-urlencoded")
            .bytes("List-Unsubscribe=One-Click".into())
            .await;
        assert_eq!(done.status_code(), 200, "{}", done.text());
        assert!(done.text().contains("You are unsubscribed"));
        assert!(!wants_summary(&ctx, &ann).await);
        let me = get(&server, &ann, "/api/auth/me").await.json::<Value>();
        assert_eq!(me["weeklySummary"], false, "{me}");
        // Again: still off, still a page that says so.
        assert_eq!(server.post(&path).await.status_code(), 200);

        next_week(&ctx, org_id).await;
        send_summaries(&ctx, org_id).await;
        assert_eq!(messages_to(&ctx, &ann.email).len(), 1, "no second summary");

        // Turned back on from the app, the week after it comes again.
        let (name, value) = crate::support::bearer(&ann.token);
        let res = server
            .put("/api/account/preferences")
            .add_header(name, value)
            .json(&json!({"weeklySummary": true}))
            .await;
        assert_eq!(res.status_code(), 200);
        next_week(&ctx, org_id).await;
        send_summaries(&ctx, org_id).await;
        assert_eq!(messages_to(&ctx, &ann.email).len(), 2);
    })
    .await;
}

#[tokio::test]
async fn a_forged_or_altered_link_is_refused_and_changes_nothing() {
    with_app(|server, ctx| async move {
        let (ann, bob, _, path) = summary_link(&server, &ctx).await;
        let token = path.trim_start_matches("/unsubscribe/");
        let (pid, signature) = token.split_once('.').unwrap();
        let flipped = {
            let mut s = signature.to_string();
            let last = if s.ends_with('0') { "1" } else { "0" };
            s.pop();
            s.push_str(last);
            s
        };
        let bob_pid = user_of(&ctx, &bob).await.pid.simple().to_string();
        let forged = [
            format!("/unsubscribe/{pid}.{flipped}"),
            format!("/unsubscribe/{pid}.{}", "0".repeat(32)),
            format!("/unsubscribe/{pid}"),
            format!("/unsubscribe/{pid}.{signature}0"),
            format!("/unsubscribe/{}.{signature}", pid.to_uppercase()),
            // Another user's pid under Ann's signature.
            format!("/unsubscribe/{bob_pid}.{signature}"),
            "/unsubscribe/not-a-token".to_string(),
        ];
        for bad in &forged {
            let res = server.post(bad).await;
            assert_eq!(res.status_code(), 404, "{bad}");
            assert!(res.text().contains("This link is not valid"), "{bad}");
            assert_eq!(server.get(bad).await.status_code(), 404, "{bad}");
        }
        assert!(wants_summary(&ctx, &ann).await, "nothing changed");
        assert!(wants_summary(&ctx, &bob).await, "nothing changed");
    })
    .await;
}
