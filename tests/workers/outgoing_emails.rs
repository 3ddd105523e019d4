//! Emails the app queues are kept in the database until the mail server accepted them
//! (`outgoing_emails`): a job lost with the queue, a worker that died with it, or a refusal
//! leaves the row unsent, and the `outgoing_emails` task queues it again. Each is sent once,
//! under the Message-ID it was given when it was asked for.

use chrono::Duration;
use loco_rs::{
    app::AppContext,
    boot::{run_task, StartMode},
    mailer::EmailSender,
};
use sea_orm::{ActiveModelTrait, ActiveValue, EntityTrait};
use vendorwatch::{
    app::App,
    mailers::{self, auth::AuthMailer, Content, Headers},
    models::{outgoing_emails, users},
};

use crate::support::{boot_with, task_vars};

async fn user(ctx: &AppContext, email: &str) -> users::Model {
    let params = users::RegisterParams {
        name: "Mail Test".into(),
        email: email.into(),
        password: "secret-pass".into(),
        company: None,
        time_zone: None,
    };
    users::Model::register(&ctx.db, &params).await.unwrap().0
}

async fn rows(ctx: &AppContext) -> Vec<outgoing_emails::Model> {
    outgoing_emails::Entity::find().all(&ctx.db).await.unwrap()
}

fn sent(ctx: &AppContext) -> Vec<String> {
    ctx.mailer.as_ref().unwrap().deliveries().messages
}

/// An email kept `minutes` ago whose job never ran (lost with the queue).
async fn kept_without_a_job(ctx: &AppContext, to: &str, minutes: i64) -> i64 {
    let key = uuid::Uuid::new_v4().simple().to_string();
    let content = Content {
        subject: format!("Lost job {key}"),
        text: "the text".into(),
        html: "<p>the text</p>".into(),
    };
    let id = outgoing_emails::keep(
        &ctx.db,
        &format!("<{key}@vendorwatch.app>"),
        to,
        &content,
        &Headers::default(),
    )
    .await
    .unwrap();
    backdate(ctx, id, minutes).await;
    id
}

async fn backdate(ctx: &AppContext, id: i64, minutes: i64) {
    let at = chrono::Utc::now().fixed_offset() - Duration::minutes(minutes);
    outgoing_emails::ActiveModel {
        id: ActiveValue::Unchanged(id),
        created_at: ActiveValue::Set(at),
        ..Default::default()
    }
    .update(&ctx.db)
    .await
    .unwrap();
}

async fn tidy(ctx: &AppContext, vars: &[(&str, &str)]) -> loco_rs::Result<()> {
    run_task::<App>(ctx, Some(&"outgoing_emails".to_string()), &task_vars(vars)).await
}

#[tokio::test]
async fn a_queued_email_is_kept_until_sent_then_its_text_is_forgotten_and_it_is_not_sent_again() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let ann = user(ctx, "kept@example.com").await;
    AuthMailer::forgot_password(ctx, &ann, "reset-token-kept")
        .await
        .unwrap();

    let messages = sent(ctx);
    assert_eq!(messages.len(), 1);
    let row = rows(ctx).await.remove(0);
    assert_eq!(row.recipient, "kept@example.com");
    assert!(row.sent_at.is_some(), "recorded as sent");
    assert_eq!(row.attempts, 1);
    assert!(
        row.text_body.is_empty() && row.html_body.is_empty(),
        "the reset link is not kept once sent"
    );
    assert!(
        row.message_id.starts_with('<') && row.message_id.ends_with("@vendorwatch.app>"),
        "{}",
        row.message_id
    );
    assert!(
        messages[0].contains(&format!("Message-ID: {}", row.message_id)),
        "sent under its Message-ID: {}",
        messages[0]
    );
    assert!(messages[0].contains("reset-token-kept"));

    // Its job run again (the worker died before the queue marked it done): nothing is sent.
    mailers::send_kept(ctx, row.id).await.unwrap();
    tidy(ctx, &[("min_age_minutes", "0")]).await.unwrap();
    assert_eq!(sent(ctx).len(), 1, "sent once");
}

#[tokio::test]
async fn an_email_whose_job_was_lost_is_sent_by_the_task_once_and_a_young_one_waits() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let lost = kept_without_a_job(ctx, "lost@example.com", 11).await;
    let young = kept_without_a_job(ctx, "young@example.com", 2).await;

    // Bad input is refused before anything is queued.
    for bad in ["-1", "soon", "1.5"] {
        assert!(
            tidy(ctx, &[("min_age_minutes", bad)]).await.is_err(),
            "min_age_minutes:{bad} is refused"
        );
        assert!(
            tidy(ctx, &[("keep_days", bad)]).await.is_err(),
            "keep_days:{bad} is refused"
        );
    }
    assert!(sent(ctx).is_empty(), "nothing sent by a refused run");

    tidy(ctx, &[]).await.unwrap();
    tidy(ctx, &[]).await.unwrap();
    let messages = sent(ctx);
    assert_eq!(messages.len(), 1, "the lost one, once: {messages:#?}");
    assert!(messages[0].contains("To: lost@example.com"));
    let by_id = |id| {
        let ctx = ctx.clone();
        async move {
            outgoing_emails::Entity::find_by_id(id)
                .one(&ctx.db)
                .await
                .unwrap()
                .unwrap()
        }
    };
    assert!(by_id(lost).await.sent_at.is_some());
    assert!(
        by_id(young).await.sent_at.is_none(),
        "kept 2 minutes ago: its job may still be waiting in the queue"
    );

    // Sent ones are deleted after keep_days; unsent ones still being tried stay.
    tidy(ctx, &[("keep_days", "0")]).await.unwrap();
    let left: Vec<i64> = rows(ctx).await.iter().map(|r| r.id).collect();
    assert_eq!(left, vec![young]);
}

#[tokio::test]
async fn a_refused_email_is_given_back_tried_again_by_the_task_and_given_up_after_ten_attempts() {
    let dead_port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let smtp = move |port: u16| -> loco_rs::config::Mailer {
        serde_json::from_value(serde_json::json!({
            "smtp": {"enable": true, "host": "127.0.0.1", "port": port, "secure": false}
        }))
        .unwrap()
    };
    let (boot, _db) = boot_with(StartMode::ServerOnly, |config| {
        config.mailer = Some(smtp(dead_port));
    })
    .await;
    let ctx = &boot.app_context;
    let ann = user(ctx, "refused@example.com").await;
    // The mail server cannot be reached: the caller is not failed, the email is kept.
    AuthMailer::forgot_password(ctx, &ann, "reset-token-refused")
        .await
        .unwrap();
    let row = rows(ctx).await.remove(0);
    assert!(row.sent_at.is_none());
    assert_eq!(row.attempts, 1);
    assert!(row.claimed_at.is_none(), "given back");
    assert!(row.last_error.is_some());
    assert!(
        row.text_body.contains("reset-token-refused"),
        "kept to send"
    );

    // Still refused: each run is one more attempt, up to ten; then it is left alone.
    for _ in 0..12 {
        backdate(ctx, row.id, 11).await;
        tidy(ctx, &[]).await.unwrap();
    }
    let row = rows(ctx).await.remove(0);
    assert_eq!(row.attempts, outgoing_emails::MAX_ATTEMPTS);
    assert!(row.sent_at.is_none());

    // A second email, refused once, then the server is back (the stub): the task sends it.
    let mut ctx = ctx.clone();
    AuthMailer::forgot_password(&ctx, &ann, "reset-token-later")
        .await
        .unwrap();
    ctx.mailer = Some(EmailSender::stub());
    let later = rows(&ctx)
        .await
        .into_iter()
        .find(|r| r.text_body.contains("reset-token-later"))
        .unwrap();
    backdate(&ctx, later.id, 11).await;
    tidy(&ctx, &[]).await.unwrap();
    let messages = sent(&ctx);
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert!(messages[0].contains("reset-token-later"));
    assert!(messages[0].contains(&format!("Message-ID: {}", later.message_id)));

    // The one given up on is deleted after keep_days, as the sent one is; one still being
    // tried stays.
    let trying = kept_without_a_job(&ctx, "trying@example.com", 11).await;
    outgoing_emails::ActiveModel {
        id: ActiveValue::Unchanged(trying),
        attempts: ActiveValue::Set(outgoing_emails::MAX_ATTEMPTS - 1),
        claimed_at: ActiveValue::Set(Some(chrono::Utc::now().fixed_offset())),
        ..Default::default()
    }
    .update(&ctx.db)
    .await
    .unwrap();
    tidy(&ctx, &[("keep_days", "0")]).await.unwrap();
    let left: Vec<i64> = rows(&ctx).await.iter().map(|r| r.id).collect();
    assert_eq!(left, vec![trying]);
}
