//! The headers a real SMTP server receives (the sink of `smtp.rs`): `Reply-To` (the business's
//! owner for a request to a vendor, support for the business's own users), and the weekly
//! summary's `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058), also on an email kept
//! and sent later by a worker.

use loco_rs::{bgworker::BackgroundWorker, boot::StartMode};
use vendorwatch::{
    mailers::{self, Content, Headers},
    models::{compliance::DocumentType, organizations, outgoing_emails, sweep},
    workers::weekly_summary::{WeeklySummaryArgs, WeeklySummaryWorker},
};

use super::support::{address, client, day, document, smtp_mailer, vendor, SmtpSink};
use crate::support::boot_with;

const WHAT: &str = "the email header tests against a real SMTP server";

async fn boot_with_sink(sink: &SmtpSink) -> (loco_rs::boot::BootResult, crate::support::TestDb) {
    let port = sink.port;
    boot_with(StartMode::ServerOnly, |config| {
        config.mailer = Some(smtp_mailer(port));
    })
    .await
}

#[tokio::test]
async fn a_renewal_request_replies_to_the_owner_and_a_notice_to_support() {
    let Some(sink) = SmtpSink::from_env(WHAT) else {
        return;
    };
    let (boot, _db) = boot_with_sink(&sink).await;
    let ctx = &boot.app_context;
    let (owner, member) = (
        address("owner", "example.com"),
        address("member", "example.com"),
    );
    let vendor_email = address("pipes", "example.com");
    let acme = client(ctx, "Reply Test Co", &[owner.clone(), member.clone()]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &vendor_email).await;
    document(ctx, &acme, &pipes, DocumentType::W9, None, Some(7)).await;

    sweep::run(ctx, day(0)).await.unwrap();
    let messages = sink.received_by(&[&owner, &member, &vendor_email]);
    assert_eq!(messages.len(), 3, "{messages:#?}");
    for m in &messages {
        if m.rcpt_tos == [vendor_email.clone()] {
            // The owner, named (Python's parser may or may not keep the quotes).
            assert!(m.reply_to.ends_with(&format!(" <{owner}>")), "{m:#?}");
            assert!(m.reply_to.contains("Reply Test Co Owner"), "{m:#?}");
        } else {
            assert_eq!(m.reply_to, "support@vendorwatch.app", "{m:#?}");
        }
        assert!(m.list_unsubscribe.is_empty(), "no list: {m:#?}");
    }
}

#[tokio::test]
async fn the_weekly_summary_has_a_one_click_unsubscribe_link() {
    let Some(sink) = SmtpSink::from_env(WHAT) else {
        return;
    };
    let (boot, _db) = boot_with_sink(&sink).await;
    let ctx = &boot.app_context;
    let owner = address("weekly", "example.com");
    let acme = client(ctx, "Weekly Header Co", std::slice::from_ref(&owner)).await;
    let org = sea_orm::IntoActiveModel::into_active_model(acme.org.clone())
        .set_plan(&ctx.db, organizations::Plan::Professional)
        .await
        .unwrap();
    WeeklySummaryWorker::build(ctx)
        .perform(WeeklySummaryArgs {
            organization_id: org.id,
            day: None,
        })
        .await
        .unwrap();
    let messages = sink.received_by(&[&owner]);
    assert_eq!(messages.len(), 1, "{messages:#?}");
    let summary = &messages[0];
    let link = summary
        .list_unsubscribe
        .strip_prefix("<http://localhost:5150/unsubscribe/")
        .and_then(|rest| rest.strip_suffix('>'))
        .unwrap_or_else(|| panic!("List-Unsubscribe: {summary:#?}"));
    assert_eq!(link.len(), 65, "pid and signature: {link}");
    assert_eq!(summary.list_unsubscribe_post, "List-Unsubscribe=One-Click");
    assert_eq!(summary.reply_to, "support@vendorwatch.app");
    let url = summary.list_unsubscribe.trim_matches(['<', '>']);
    assert!(summary.text.contains(url), "{}", summary.text);
    assert!(
        summary.html.contains(&format!("href=\"{url}\"")),
        "{}",
        summary.html
    );
}

#[tokio::test]
async fn a_kept_email_is_sent_later_with_its_headers() {
    let Some(sink) = SmtpSink::from_env(WHAT) else {
        return;
    };
    let (boot, _db) = boot_with_sink(&sink).await;
    let ctx = &boot.app_context;
    let to = address("kept", "example.com");
    let headers = Headers {
        reply_to: Some("\"Ann Owner\" <ann@client.example>".into()),
        list_unsubscribe: Some("https://app.example/unsubscribe/x.y".into()),
    };
    let key = uuid::Uuid::new_v4().simple().to_string();
    let id = outgoing_emails::keep(
        &ctx.db,
        &format!("<{key}@vendorwatch.app>"),
        &to,
        &Content {
            subject: "Kept with headers".into(),
            text: "text".into(),
            html: "<p>html</p>".into(),
        },
        &headers,
    )
    .await
    .unwrap();
    mailers::send_kept(ctx, id).await.unwrap();
    let messages = sink.received_by(&[&to]);
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert!(
        messages[0].reply_to.contains("Ann Owner")
            && messages[0].reply_to.ends_with(" <ann@client.example>"),
        "{messages:#?}"
    );
    assert_eq!(
        messages[0].list_unsubscribe,
        "<https://app.example/unsubscribe/x.y>"
    );
    assert_eq!(
        messages[0].list_unsubscribe_post,
        "List-Unsubscribe=One-Click"
    );
}
