//! A day's reminders of one organization go out as one email per recipient: one notice to each
//! user listing every vendor's documents, one renewal request to each vendor listing its own.
//! Each reminder is still recorded once per recipient, and a refused email leaves only its own
//! reminders pending.

use loco_rs::{
    app::AppContext,
    boot::StartMode,
    config::{QueueConfig, SqliteQueueConfig, WorkerMode},
};
use sea_orm::{sea_query::Expr, ColumnTrait, EntityTrait, QueryFilter};
use vendorwatch::{
    mailers::reminders::document_name,
    models::{
        _entities::vendors,
        compliance::{CoiType, DocumentType},
        documents, sweep,
    },
};

use super::support::{
    address, all_claims, all_reminders, claim_of, client, day, deliveries, document, reminders_of,
    set_reminder_setting, stub_messages, vendor, Scene,
};
use crate::support::{boot_with, email_parts};

/// The messages the stub mailer sent to `to`, decoded (`Subject: ...`, text, html).
pub fn emails_to(ctx: &AppContext, to: &str) -> Vec<String> {
    stub_messages(ctx)
        .iter()
        .filter(|m| m.contains(&format!("To: {to}")))
        .map(|m| email_parts(m))
        .collect()
}

/// How many documents an email lists, from its subject: "N documents of ..." and "... asks for
/// N renewed documents" list N, the single-document emails one.
pub fn documents_listed(email: &str) -> usize {
    let subject = email.lines().next().unwrap_or_default();
    let count = |s: &str| s.split(' ').next().and_then(|n| n.parse().ok());
    if let Some((_, rest)) = subject.split_once(" asks for ") {
        if rest.ends_with(" renewed documents") {
            return count(rest).unwrap_or(1);
        }
    }
    subject
        .strip_prefix("Subject: ")
        .filter(|s| s.contains(" documents of "))
        .and_then(count)
        .unwrap_or(1)
}

fn assert_lists(email: &str, documents: &[&documents::Model]) {
    for doc in documents {
        let name = document_name(&doc.document_type, doc.coi_type.as_deref());
        assert!(email.contains(&name), "{name} in {email}");
        assert!(
            email.contains(&doc.file_name),
            "{} in {email}",
            doc.file_name
        );
    }
}

#[tokio::test]
async fn a_vendor_with_three_documents_due_the_same_day_gets_one_email_listing_all_three() {
    let scene = Scene::new("Grouped Co").await;
    let ctx = scene.ctx();
    let general = Some(CoiType::GeneralLiability);
    let workers = Some(CoiType::WorkersComp);
    let docs = [
        scene.document(DocumentType::Coi, general, Some(7)).await,
        scene.document(DocumentType::Coi, workers, Some(7)).await,
        scene.document(DocumentType::W9, None, Some(7)).await,
    ];
    let docs: Vec<&documents::Model> = docs.iter().collect();

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 3);
    let requests = emails_to(ctx, &scene.vendor_email);
    assert_eq!(requests.len(), 1, "one renewal request: {requests:#?}");
    let request = &requests[0];
    assert!(
        request.starts_with("Subject: Grouped Co asks for 3 renewed documents\n"),
        "{request}"
    );
    assert_lists(request, &docs);
    assert!(request.contains(&day(7).format("%b %-d, %Y").to_string()));
    assert!(request.contains(&scene.vendor.key), "the company key");
    assert!(request.contains("http://localhost:5150/vendor-upload"));

    let notices = emails_to(ctx, &scene.owner);
    assert_eq!(notices.len(), 1, "one notice to the owner: {notices:#?}");
    assert!(
        notices[0].starts_with("Subject: 3 documents of Pipe Works need renewal\n"),
        "{}",
        notices[0]
    );
    assert_lists(&notices[0], &docs);
    assert_eq!(stub_messages(ctx).len(), 2);

    assert!(all_reminders(ctx)
        .await
        .iter()
        .filter(|r| r.reminder_date == day(0))
        .all(|r| r.sent_at.is_some()));
    assert!(all_claims(ctx).await.is_empty());
    assert_eq!(deliveries(ctx).await.len(), 6, "each reminder, to each");
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 0);
    assert_eq!(stub_messages(ctx).len(), 2, "nothing again");
}

#[tokio::test]
async fn each_user_gets_one_notice_of_every_vendor_and_each_vendor_one_request_of_its_own() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let (owner, member) = (
        address("owner", "example.com"),
        address("member", "example.com"),
    );
    let (pipes_email, wires_email) = (
        address("pipes", "example.com"),
        address("wires", "example.com"),
    );
    let acme = client(ctx, "Two Vendor Co", &[owner.clone(), member.clone()]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &pipes_email).await;
    let wires = vendor(ctx, &acme, "Wire Works", &wires_email).await;
    let w9 = document(ctx, &acme, &pipes, DocumentType::W9, None, Some(7)).await;
    let tax = document(ctx, &acme, &pipes, DocumentType::SalesTax, None, Some(0)).await;
    let deal = document(
        ctx,
        &acme,
        &wires,
        DocumentType::VendorAgreement,
        None,
        Some(7),
    )
    .await;

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 3);
    for user in [&owner, &member] {
        let notices = emails_to(ctx, user);
        assert_eq!(notices.len(), 1, "{user}: {notices:#?}");
        let notice = &notices[0];
        assert!(
            notice.starts_with("Subject: 3 documents of 2 vendors need renewal\n"),
            "{notice}"
        );
        assert_lists(notice, &[&w9, &tax, &deal]);
        for v in [&pipes, &wires] {
            assert!(notice.contains(&v.name));
            assert!(notice.contains(&format!("http://localhost:5150/vendors/{}", v.key)));
        }
        assert!(
            notice.contains("expired on"),
            "the sales tax certificate: {notice}"
        );
    }
    let to_pipes = emails_to(ctx, &pipes_email);
    assert_eq!(to_pipes.len(), 1, "{to_pipes:#?}");
    assert!(to_pipes[0].starts_with("Subject: Two Vendor Co asks for 2 renewed documents\n"));
    assert_lists(&to_pipes[0], &[&w9, &tax]);
    assert!(
        !to_pipes[0].contains(&deal.file_name),
        "not another vendor's document"
    );
    let to_wires = emails_to(ctx, &wires_email);
    assert_eq!(to_wires.len(), 1);
    assert!(
        to_wires[0].starts_with("Subject: Two Vendor Co asks for your renewed Vendor Agreement\n"),
        "one document: the single-document request, {}",
        to_wires[0]
    );
    assert_eq!(stub_messages(ctx).len(), 4);
    assert_eq!(deliveries(ctx).await.len(), 3 * 2 + 2 + 1);
}

#[tokio::test]
async fn a_refused_email_leaves_its_reminders_pending_and_the_retry_sends_only_it() {
    let scene = Scene::new("Partial Co").await;
    let ctx = scene.ctx();
    let pipes_docs = [
        scene.document(DocumentType::W9, None, Some(7)).await,
        scene.document(DocumentType::SalesTax, None, Some(7)).await,
        scene
            .document(DocumentType::VendorAgreement, None, Some(7))
            .await,
    ];
    let wires_email = address("wires", "example.com");
    let wires = vendor(ctx, &scene.client, "Wire Works", &wires_email).await;
    let wire_w9 = document(ctx, &scene.client, &wires, DocumentType::W9, None, Some(7)).await;
    let set_pipes_email = |email: &str| {
        vendors::Entity::update_many()
            .col_expr(vendors::Column::Email, Expr::val(email))
            .filter(vendors::Column::Id.eq(scene.vendor.id))
            .exec(&ctx.db)
    };
    // The mail server refuses Pipe Works' address (an address it cannot take).
    set_pipes_email("not an address").await.unwrap();

    assert!(
        sweep::run(ctx, day(0)).await.is_err(),
        "the refusal is reported"
    );
    let notices = emails_to(ctx, &scene.owner);
    assert_eq!(notices.len(), 1, "{notices:#?}");
    assert_eq!(documents_listed(&notices[0]), 4);
    assert_eq!(
        emails_to(ctx, &wires_email).len(),
        1,
        "the other vendor's still went"
    );
    assert_eq!(stub_messages(ctx).len(), 2);
    for doc in &pipes_docs {
        let reminder = reminders_of(ctx, doc).await.remove(0);
        assert_eq!(reminder.sent_at, None, "pending");
        let claim = claim_of(ctx, reminder.id).await.expect("kept");
        assert_eq!(claim.claimed_at, None, "given back: claimable at once");
        assert_eq!(claim.attempts, 1);
    }
    assert!(reminders_of(ctx, &wire_w9).await[0].sent_at.is_some());
    assert_eq!(deliveries(ctx).await.len(), 4 + 1);

    set_pipes_email(&scene.vendor_email).await.unwrap();
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 3);
    let requests = emails_to(ctx, &scene.vendor_email);
    assert_eq!(requests.len(), 1, "{requests:#?}");
    assert_lists(&requests[0], &pipes_docs.iter().collect::<Vec<_>>());
    assert_eq!(
        emails_to(ctx, &scene.owner).len(),
        1,
        "the owner had them all"
    );
    assert_eq!(stub_messages(ctx).len(), 3);
    for doc in &pipes_docs {
        assert!(reminders_of(ctx, doc).await[0].sent_at.is_some());
    }
    assert!(all_claims(ctx).await.is_empty());
    assert_eq!(deliveries(ctx).await.len(), 4 + 1 + 3);
}

#[tokio::test]
async fn reminders_claimed_in_batches_by_two_sweeps_at_once_go_out_as_one_email_per_recipient() {
    let dir = tempfile::tempdir().unwrap();
    let uri = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("queue.sqlite").display()
    );
    let (boot, _db) = boot_with(StartMode::WorkerOnly { tags: vec![] }, |config| {
        // Batches of two: each organization's reminders span several batches, and jobs.
        set_reminder_setting(config, "batch_size", 2.into());
        config.workers.mode = WorkerMode::BackgroundQueue;
        config.queue = Some(QueueConfig::Sqlite(SqliteQueueConfig {
            uri,
            dangerously_flush: false,
            enable_logging: false,
            max_connections: 3,
            min_connections: 1,
            connect_timeout: 5_000,
            idle_timeout: 10_000,
            poll_interval_sec: 1,
            // Two workers at once: two jobs of one organization may start together.
            num_workers: 2,
            reaper: None,
        }));
    })
    .await;
    let ctx = boot.app_context.clone();
    let mut other = ctx.clone();
    other.db = loco_rs::db::connect(&ctx.config.database).await.unwrap();
    let mut recipients = vec![];
    let mut due = 0;
    for (company, counts) in [("Batch A", [3, 2]), ("Batch B", [2, 1])] {
        let owner = address("owner", "example.com");
        let org = client(&ctx, company, std::slice::from_ref(&owner)).await;
        recipients.push((owner, counts.iter().sum::<usize>()));
        for (i, count) in counts.into_iter().enumerate() {
            let email = address(&format!("v{i}"), "example.com");
            let v = vendor(&ctx, &org, &format!("{company} {i}"), &email).await;
            let kinds = [
                DocumentType::W9,
                DocumentType::SalesTax,
                DocumentType::VendorAgreement,
            ];
            for kind in &kinds[..count] {
                document(&ctx, &org, &v, *kind, None, Some(7)).await;
            }
            recipients.push((email, count));
            due += count;
        }
    }
    ctx.queue_provider.as_ref().unwrap().setup().await.unwrap();

    let (a, b) = tokio::join!(sweep::run(&ctx, day(0)), sweep::run(&other, day(0)));
    let claimed = a.unwrap().reminders_claimed + b.unwrap().reminders_claimed;
    assert_eq!(claimed, due as u64, "each claimed once");
    assert!(
        deliveries(&ctx).await.is_empty(),
        "nothing sent before a worker runs"
    );
    super::retake::work_until_sent(&ctx, recipients.len()).await;

    for (to, count) in &recipients {
        let emails = emails_to(&ctx, to);
        assert_eq!(emails.len(), 1, "one email to {to}: {emails:#?}");
        assert_eq!(documents_listed(&emails[0]), *count, "{}", emails[0]);
    }
    assert_eq!(stub_messages(&ctx).len(), recipients.len());
    assert!(all_reminders(&ctx)
        .await
        .iter()
        .filter(|r| r.reminder_date == day(0))
        .all(|r| r.sent_at.is_some()));
    assert!(all_claims(&ctx).await.is_empty());
    assert_eq!(deliveries(&ctx).await.len(), due * 2);
}
