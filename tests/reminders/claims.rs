//! Claims that outlive their worker, workers that outlive their claim, and the task itself.

use chrono::Duration;
use loco_rs::{
    boot::{create_context, run_task, StartMode},
    config::WorkerMode,
    environment::Environment,
    task,
};
use sea_orm::{ActiveModelTrait, ActiveValue};
use vendorwatch::{
    app::App,
    models::{
        _entities::{reminder_claims, reminder_deliveries},
        compliance::DocumentType,
        documents,
        reminders::{self, ClaimPolicy, DeliveryKind, Outcome},
        sweep,
    },
};

use super::support::{
    address, all_reminders, claim_of, client, day, document, reminders_of, stub_messages, vendor,
};
use crate::support::boot_with;

#[tokio::test]
async fn a_claim_left_by_a_crash_is_claimed_again_once_stale_and_the_dead_job_then_does_nothing() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Crash Co", &[address("owner", "example.com")]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &address("pipes", "example.com")).await;
    document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;

    // A sweep claimed the reminder, then died before any job ran.
    let policy = sweep::policy(ctx, day(0)).unwrap();
    let crashed = reminders::Model::claim_due(&ctx.db, &policy, None)
        .await
        .unwrap();
    assert_eq!(crashed.reminders.len(), 1);

    assert_eq!(
        sweep::run(ctx, day(0)).await.unwrap().reminders_claimed,
        0,
        "a live claim is left alone"
    );
    assert!(stub_messages(ctx).is_empty());

    let later = ClaimPolicy {
        now: policy.now + policy.claim_timeout + Duration::seconds(1),
        ..policy.clone()
    };
    let taken_over = reminders::Model::claim_due(&ctx.db, &later, None)
        .await
        .unwrap();
    assert_eq!(taken_over.reminders.len(), 1, "a stale claim is re-found");
    let claim = claim_of(ctx, taken_over.reminders[0].id).await.unwrap();
    assert_eq!(claim.token, taken_over.token, "and taken over");
    assert_eq!(claim.attempts, 2, "both claims counted");
    assert_eq!(
        reminders::Model::deliver(ctx, claim.reminder_id, &taken_over.token, day(0))
            .await
            .unwrap(),
        Outcome::Sent
    );
    let reminder = all_reminders(ctx).await.remove(0);
    assert!(reminder.sent_at.is_some());
    assert!(
        claim_of(ctx, reminder.id).await.is_none(),
        "its claim is gone"
    );
    assert_eq!(stub_messages(ctx).len(), 2);

    let dead_job = reminders::Model::deliver(ctx, reminder.id, &crashed.token, day(0))
        .await
        .unwrap();
    assert_eq!(
        dead_job,
        Outcome::NotOurs,
        "the old claim's job finds the reminder is not its own"
    );
    assert_eq!(stub_messages(ctx).len(), 2, "and sends nothing");
}

#[tokio::test]
async fn a_claim_written_just_after_its_reminder_was_sent_sends_nothing_and_goes() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Late Co", &[address("owner", "example.com")]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &address("pipes", "example.com")).await;
    document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 1);
    let reminder = all_reminders(ctx).await.remove(0);
    assert!(reminder.sent_at.is_some());
    assert_eq!(stub_messages(ctx).len(), 2);

    // A second sweep read the reminder unsent just before the first marked it sent, and wrote
    // its claim just after the first's claim went (on PostgreSQL the claim statement reads the
    // due reminders as they were when it started).
    reminder_claims::ActiveModel {
        reminder_id: ActiveValue::Set(reminder.id),
        token: ActiveValue::Set("late".into()),
        claimed_at: ActiveValue::Set(Some(reminders::now())),
        attempts: ActiveValue::Set(1),
    }
    .insert(&ctx.db)
    .await
    .unwrap();

    let outcome = reminders::Model::deliver(ctx, reminder.id, "late", day(0))
        .await
        .unwrap();
    assert_eq!(outcome, Outcome::NotOurs);
    assert_eq!(stub_messages(ctx).len(), 2, "nothing sent twice");
    assert!(claim_of(ctx, reminder.id).await.is_none(), "the claim goes");
}

#[tokio::test]
async fn a_half_sent_reminder_is_finished_without_resending_what_the_server_accepted() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let (first, second) = (
        address("first", "example.com"),
        address("second", "example.com"),
    );
    let vendor_email = address("pipes", "example.com");
    let acme = client(ctx, "Resume Co", &[first.clone(), second.clone()]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &vendor_email).await;
    document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;

    let policy = sweep::policy(ctx, day(0)).unwrap();
    let claim = reminders::Model::claim_due(&ctx.db, &policy, None)
        .await
        .unwrap();
    let reminder = &claim.reminders[0];
    // The worker that held it got the first email accepted, then died.
    reminder_deliveries::ActiveModel {
        reminder_id: ActiveValue::Set(reminder.id),
        kind: ActiveValue::Set(sea_orm::ActiveEnum::to_value(&DeliveryKind::Organization)),
        recipient: ActiveValue::Set(first.clone()),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await
    .unwrap();

    let outcome = reminders::Model::deliver(ctx, reminder.id, &claim.token, day(0))
        .await
        .unwrap();
    assert_eq!(outcome, Outcome::Sent);
    let messages = stub_messages(ctx);
    assert_eq!(
        messages.len(),
        2,
        "the second user and the vendor: {messages:?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains(&format!("To: {first}"))),
        "not the first again"
    );
    assert!(messages
        .iter()
        .any(|m| m.contains(&format!("To: {second}"))));
    assert!(messages
        .iter()
        .any(|m| m.contains(&format!("To: {vendor_email}"))));
}

#[tokio::test]
async fn a_claimed_reminder_whose_document_is_no_longer_current_is_dropped_unsent() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Dropped Co", &[address("owner", "example.com")]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &address("pipes", "example.com")).await;
    let w9 = document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;
    let policy = sweep::policy(ctx, day(0)).unwrap();
    let claim = reminders::Model::claim_due(&ctx.db, &policy, None)
        .await
        .unwrap();

    let mut old: documents::ActiveModel = w9.clone().into();
    old.is_current = ActiveValue::Set(false);
    old.update(&ctx.db).await.unwrap();

    let outcome = reminders::Model::deliver(ctx, claim.reminders[0].id, &claim.token, day(0))
        .await
        .unwrap();
    assert_eq!(outcome, Outcome::Dropped);
    assert!(stub_messages(ctx).is_empty());
    assert_eq!(
        reminders_of(ctx, &w9).await.len(),
        1,
        "only the later reminder is left"
    );
}

#[tokio::test]
async fn the_task_sweeps_the_given_date_and_refuses_a_malformed_one() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Task Co", &[address("owner", "example.com")]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &address("pipes", "example.com")).await;
    let agreement = document(
        ctx,
        &acme,
        &pipes,
        DocumentType::VendorAgreement,
        None,
        Some(40),
    )
    .await;
    let run = |date: String| async move {
        let vars = task::Vars::from_cli_args(vec![("date".to_string(), date)]);
        run_task::<App>(ctx, Some(&"reminders_sweep".to_string()), &vars).await
    };

    let err = run("2026-13-01".into()).await.unwrap_err();
    assert!(err.to_string().contains("invalid date"), "{err}");
    assert!(stub_messages(ctx).is_empty(), "nothing was sent");

    run(day(10).format("%Y-%m-%d").to_string()).await.unwrap();
    let sent: Vec<bool> = reminders_of(ctx, &agreement)
        .await
        .iter()
        .map(|r| r.sent_at.is_some())
        .collect();
    assert_eq!(sent, vec![true, false, false]);
}

#[tokio::test]
async fn with_no_smtp_server_configured_reminder_emails_are_written_to_the_outbox() {
    let outbox = tempfile::tempdir().unwrap();
    let outbox_dir = outbox.path().display().to_string();
    let (boot, _db) = boot_with(StartMode::ServerOnly, |config| {
        config.mailer = None;
        config.settings.as_mut().unwrap()["mail"]["outbox_dir"] = outbox_dir.into();
    })
    .await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Outbox Co", &[address("owner", "example.com")]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &address("pipes", "example.com")).await;
    let w9 = document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 1);
    let files: Vec<String> = std::fs::read_dir(outbox.path())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(files.len(), 2, "the notice and the renewal request");
    assert!(files
        .iter()
        .any(|f| f.contains("Subject: W9 Form for Pipe Works expires in 3 days")));
    assert!(files
        .iter()
        .any(|f| f.contains("Subject: Outbox Co asks for your renewed W9 Form")));
    let reminder = reminders_of(ctx, &w9).await.remove(0);
    assert!(reminder.sent_at.is_some());
    let ids: Vec<&str> = files
        .iter()
        .filter_map(|f| f.lines().find(|l| l.starts_with("Message-ID: ")))
        .collect();
    assert_eq!(ids.len(), 2, "each with its Message-ID: {ids:?}");
    assert_ne!(ids[0], ids[1]);
    let pid = reminder.pid.simple().to_string();
    assert!(ids.iter().all(|id| id.contains(&pid)), "{ids:?}");
}

#[tokio::test]
async fn the_task_sets_up_a_database_queue_no_worker_has_started_on() {
    // The app's database, migrated, with a document whose reminder is due.
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Queue Co", &[address("owner", "example.com")]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &address("pipes", "example.com")).await;
    let w9 = document(ctx, &acme, &pipes, DocumentType::W9, None, Some(2)).await;

    // An operator's `cargo loco task`: a context on a queue database that does not exist yet,
    // as `create_context` makes it for tasks (no set-up of the queue).
    let dir = tempfile::tempdir().unwrap();
    let queue_file = dir.path().join("queue.sqlite");
    let mut config = ctx.config.clone();
    config.workers.mode = WorkerMode::BackgroundQueue;
    config.queue = Some(
        serde_json::from_value(serde_json::json!({
            "kind": "Sqlite",
            "uri": format!("sqlite://{}?mode=rwc", queue_file.display()),
        }))
        .unwrap(),
    );
    let task_ctx = create_context::<App>(&Environment::Test, config)
        .await
        .unwrap();
    let vars = task::Vars::from_cli_args(vec![(
        "date".to_string(),
        day(0).format("%Y-%m-%d").to_string(),
    )]);
    run_task::<App>(&task_ctx, Some(&"reminders_sweep".to_string()), &vars)
        .await
        .unwrap();

    // The job waits in the queue for a worker, and the reminder is claimed for it.
    let queue = sea_orm::Database::connect(format!("sqlite://{}", queue_file.display()))
        .await
        .unwrap();
    let jobs: i64 = sea_orm::ConnectionTrait::query_one_raw(
        &queue,
        sea_orm::Statement::from_string(
            sea_orm::DbBackend::Sqlite,
            "SELECT count(*) FROM sqlt_loco_queue",
        ),
    )
    .await
    .unwrap()
    .unwrap()
    .try_get_by_index(0)
    .unwrap();
    assert_eq!(jobs, 1);
    let reminder = reminders_of(ctx, &w9).await.remove(0);
    assert!(reminder.sent_at.is_none());
    assert!(claim_of(ctx, reminder.id).await.is_some());
}
