//! Reminders through a real SMTP server: the aiosmtpd sink scripts/test starts
//! (`scripts/smtp_sink.py`), which writes every message it accepts to `TEST_SMTP_DIR`.

use std::collections::HashSet;

use loco_rs::{boot::StartMode, mailer::EmailSender};
use sea_orm::{ActiveModelTrait, ActiveValue, ColumnTrait, EntityTrait, QueryFilter};
use vendorwatch::models::{
    _entities::reminder_deliveries,
    compliance::{CoiType, DocumentType},
    reminders::{self, DeliveryKind},
    sweep, vendors,
};

use super::support::{
    address, claim_of, client, closed_port, day, deliveries, document, reminders_of, smtp_mailer,
    tally, vendor, Received, SmtpSink,
};
use crate::support::boot_with;

const WHAT: &str = "the reminder tests against a real SMTP server";

/// The app, sending through the SMTP sink.
async fn boot_with_sink(sink: &SmtpSink) -> (loco_rs::boot::BootResult, crate::support::TestDb) {
    let port = sink.port;
    boot_with(StartMode::ServerOnly, |config| {
        config.mailer = Some(smtp_mailer(port));
    })
    .await
}

#[tokio::test]
async fn due_reminders_arrive_once_each_with_the_right_recipients_subjects_and_links() {
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
    let acme = client(ctx, "Reminder Test Co", &[owner.clone(), member.clone()]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &vendor_email).await;
    let coi = document(
        ctx,
        &acme,
        &pipes,
        DocumentType::Coi,
        Some(CoiType::GeneralLiability),
        Some(7),
    )
    .await;
    document(ctx, &acme, &pipes, DocumentType::SalesTax, None, Some(100)).await;
    document(ctx, &acme, &pipes, DocumentType::W9, None, None).await;
    let ours = [owner.as_str(), member.as_str(), vendor_email.as_str()];

    let report = sweep::run(ctx, day(0)).await.unwrap();
    assert_eq!(
        report.reminders_claimed, 1,
        "only the COI has a reminder due today"
    );
    let messages = sink.received_by(&ours);
    assert_eq!(messages.len(), 3, "two users and the vendor: {messages:#?}");
    assert!(
        messages.iter().all(|m| m.rcpt_tos.len() == 1),
        "one recipient per message"
    );
    assert!(messages
        .iter()
        .all(|m| m.from.contains("no-reply@vendorwatch.app")));

    for user in [&owner, &member] {
        assert_expiry_notice(&messages, user, &pipes);
    }
    assert_renewal_request(&messages, &vendor_email, &pipes, &owner);

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 0);
    assert_eq!(
        sink.received_by(&ours).len(),
        3,
        "a second run sends nothing again"
    );

    assert_eq!(
        sweep::run(ctx, day(7)).await.unwrap().reminders_claimed,
        1,
        "the day it expires"
    );
    let messages = sink.received_by(&ours);
    assert_eq!(messages.len(), 6);
    assert!(
        tally(&messages).values().all(|n| *n == 1),
        "nothing twice: {:?}",
        tally(&messages)
    );
    assert!(messages
        .iter()
        .any(|m| m.subject.ends_with("for Pipe Works has expired")));
    assert!(messages.iter().any(|m| m
        .subject
        .starts_with("Your Certificate of Insurance (General Liability) has expired")));
    assert!(reminders_of(ctx, &coi)
        .await
        .iter()
        .all(|r| r.sent_at.is_some()));
}

/// The notice a user of the client gets for the COI of `pipes` due in 7 days.
fn assert_expiry_notice(messages: &[Received], user: &str, pipes: &vendors::Model) {
    let vendor_page = format!("http://localhost:5150/vendors/{}", pipes.key);
    let notice = messages
        .iter()
        .find(|m| m.rcpt_tos[0] == user)
        .expect("a notice for each user");
    assert_eq!(
        notice.subject,
        "Certificate of Insurance (General Liability) for Pipe Works expires in 7 days"
    );
    for part in [&notice.text, &notice.html] {
        assert!(part.contains(&vendor_page), "link to the vendor: {part}");
        assert!(part.contains("Expiring Soon"), "the status: {part}");
        assert!(
            part.contains(&day(7).format("%b %-d, %Y").to_string()),
            "the date: {part}"
        );
    }
}

/// The renewal request the vendor gets: the portal link and its company key, and none of the
/// client's users' addresses (`owner`).
fn assert_renewal_request(
    messages: &[Received],
    vendor_email: &str,
    pipes: &vendors::Model,
    owner: &str,
) {
    let request = messages
        .iter()
        .find(|m| m.rcpt_tos[0] == vendor_email)
        .expect("a renewal request");
    assert_eq!(
        request.subject,
        "Reminder Test Co asks for your renewed Certificate of Insurance (General Liability)"
    );
    for part in [&request.text, &request.html] {
        assert!(
            part.contains("http://localhost:5150/vendor-upload"),
            "link to the portal: {part}"
        );
        assert!(part.contains(&pipes.key), "the company key: {part}");
    }
    assert!(
        !request.text.contains(owner),
        "the vendor does not see the client's users"
    );
}

/// A worker killed after the mail server accepted an email and before it recorded so leaves
/// the email unrecorded: the next claim sends it again. SMTP cannot tell whether the server
/// took it, so the repeat goes out under the same `Message-ID`, the same message to the
/// receiving side; every other email has an id of its own.
#[tokio::test]
async fn an_email_accepted_but_not_recorded_is_sent_again_as_the_same_message() {
    let Some(sink) = SmtpSink::from_env(WHAT) else {
        return;
    };
    let (boot, _db) = boot_with_sink(&sink).await;
    let ctx = &boot.app_context;
    let owner = address("owner", "example.com");
    let vendor_email = address("pipes", "example.com");
    let acme = client(ctx, "Same Message Co", std::slice::from_ref(&owner)).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &vendor_email).await;
    let w9 = document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;
    let tax = document(ctx, &acme, &pipes, DocumentType::SalesTax, None, Some(7)).await;
    let ours = [owner.as_str(), vendor_email.as_str()];

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 2);
    let first = sink.received_by(&ours);
    assert_eq!(first.len(), 2, "one email each, listing both: {first:#?}");
    let ids: HashSet<&str> = first.iter().map(|m| m.message_id.as_str()).collect();
    assert_eq!(ids.len(), 2, "an id of its own for each email: {ids:?}");
    for id in &ids {
        assert!(
            id.starts_with("<reminder.") && id.ends_with("@vendorwatch.app>"),
            "under the sending domain: {id}"
        );
        assert!(
            !id.contains("pipes") && !id.contains("owner"),
            "no address in {id}"
        );
    }

    // The renewal request listing both was accepted, and its worker died before recording it.
    for doc in [&w9, &tax] {
        let reminder = reminders_of(ctx, doc).await.remove(0);
        reminder_deliveries::Entity::delete_many()
            .filter(reminder_deliveries::Column::ReminderId.eq(reminder.id))
            .filter(reminder_deliveries::Column::Kind.eq(DeliveryKind::Vendor))
            .exec(&ctx.db)
            .await
            .unwrap();
        let mut unsent: reminders::ActiveModel = reminder.into();
        unsent.sent_at = ActiveValue::Set(None);
        unsent.update(&ctx.db).await.unwrap();
    }

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 2);
    let all = sink.received_by(&ours);
    assert_eq!(all.len(), 3, "the unrecorded email only: {all:#?}");
    let to_vendor: Vec<&Received> = all
        .iter()
        .filter(|m| m.rcpt_tos == [vendor_email.clone()])
        .collect();
    assert_eq!(to_vendor.len(), 2, "{to_vendor:#?}");
    assert_eq!(to_vendor[0].subject, to_vendor[1].subject);
    assert_eq!(
        to_vendor[0].message_id, to_vendor[1].message_id,
        "sent again as the same message"
    );
    let distinct: HashSet<&str> = all.iter().map(|m| m.message_id.as_str()).collect();
    assert_eq!(distinct, ids, "no new message, one repeated");
}

#[tokio::test]
async fn an_smtp_failure_leaves_the_reminder_pending_and_a_later_run_sends_it() {
    let Some(sink) = SmtpSink::from_env(WHAT) else {
        return;
    };
    let dead_port = closed_port();
    let (boot, _db) = boot_with(StartMode::ServerOnly, |config| {
        config.mailer = Some(smtp_mailer(dead_port));
    })
    .await;
    let ctx = &boot.app_context;
    let owner = address("owner", "example.com");
    let vendor_email = address("pipes", "example.com");
    let acme = client(ctx, "Outage Co", std::slice::from_ref(&owner)).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &vendor_email).await;
    let w9 = document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;

    let err = sweep::run(ctx, day(0)).await.unwrap_err();
    assert!(!err.to_string().is_empty());
    let pending = reminders_of(ctx, &w9).await.remove(0);
    assert_eq!(pending.sent_at, None, "not sent");
    let claim = claim_of(ctx, pending.id).await.expect("the claim stays");
    assert_eq!(claim.claimed_at, None, "given back: claimable at once");
    assert_eq!(claim.attempts, 1, "the attempt is counted");
    assert!(deliveries(ctx).await.is_empty());
    assert!(sink.received_by(&[&owner, &vendor_email]).is_empty());

    // The mail server is back.
    let mut ctx = ctx.clone();
    ctx.mailer = Some(EmailSender::smtp(smtp_mailer(sink.port).smtp.as_ref().unwrap()).unwrap());
    assert_eq!(sweep::run(&ctx, day(0)).await.unwrap().reminders_claimed, 1);
    let sent = reminders_of(&ctx, &w9).await.remove(0);
    assert!(sent.sent_at.is_some());
    assert!(
        claim_of(&ctx, sent.id).await.is_none(),
        "sent: the claim is gone"
    );
    let messages = sink.received_by(&[&owner, &vendor_email]);
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(tally(&messages).values().all(|n| *n == 1));
}
