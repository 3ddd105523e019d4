//! Reminder jobs through the real Redis queue, performed by a separate worker process (the
//! built `vendorwatch-cli start --worker`) on the same database: and that process killed with
//! SIGKILL half way through a batch.

use std::time::Duration;

use loco_rs::boot::StartMode;
use serial_test::serial;
use vendorwatch::models::{compliance::DocumentType, sweep};

use super::support::{
    address, all_reminders, client, day, document, set_reminder_setting, smtp_mailer, tally,
    vendor, SmtpSink,
};
use crate::support::{
    boot_with,
    process::{own_redis_db, start_worker_process, stop, terminate, use_redis_queue, wait_for},
};

const WHAT: &str = "the reminder tests with a worker process on the Redis queue";

/// An organization whose owner and vendors (`names`) have addresses at slow.test, each vendor
/// with a W-9 due for a reminder today: the SMTP sink waits before accepting each of these
/// recipients, a window in which a worker can be stopped with nothing accepted. Its reminders
/// go out as one job: a notice to the owner listing every W-9, then a request to each vendor
/// (by name). Returns the addresses, the owner's first.
async fn slow_batch(ctx: &loco_rs::app::AppContext, company: &str, names: &[&str]) -> Vec<String> {
    let owner = address("owner", "slow.test");
    let org = client(ctx, company, std::slice::from_ref(&owner)).await;
    let mut ours = vec![owner];
    for name in names {
        let email = address(&name.to_lowercase(), "slow.test");
        let v = vendor(ctx, &org, name, &email).await;
        document(ctx, &org, &v, DocumentType::W9, None, Some(3)).await;
        ours.push(email);
    }
    ours
}

#[tokio::test]
#[serial(reminder_worker_process)]
async fn a_reminder_job_enqueued_by_the_sweep_is_performed_by_a_worker_process() {
    let Some(redis_url) = crate::support::service_env("REDIS_URL", WHAT) else {
        return;
    };
    let queue = own_redis_db(&redis_url, 12).await;
    let outbox = tempfile::tempdir().unwrap();
    let outbox_dir = outbox.path().display().to_string();
    let (boot, _db) = boot_with(StartMode::ServerOnly, |config| {
        use_redis_queue(config, &queue);
        config.mailer = None;
        config.settings.as_mut().unwrap()["mail"]["outbox_dir"] = outbox_dir.into();
    })
    .await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Queue Co", &[address("owner", "example.com")]).await;
    let pipes = vendor(ctx, &acme, "Pipe Works", &address("pipes", "example.com")).await;
    document(ctx, &acme, &pipes, DocumentType::W9, None, Some(3)).await;

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 1);
    let redis = redis::Client::open(queue.as_str()).unwrap();
    let mut conn = redis.get_multiplexed_async_connection().await.unwrap();
    let queued: i64 = redis::cmd("ZCARD")
        .arg("queue:default")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(queued, 1, "the job waits in Redis");
    assert!(
        all_reminders(ctx).await.iter().all(|r| r.sent_at.is_none()),
        "nothing sent yet"
    );

    let folder = tempfile::tempdir().unwrap();
    let worker = start_worker_process(ctx, folder.path(), "worker.log");
    wait_for(
        60,
        folder.path(),
        "the worker process to send the reminder",
        || async {
            all_reminders(ctx)
                .await
                .iter()
                .any(|r| r.reminder_date == day(0) && r.sent_at.is_some())
        },
    )
    .await;
    stop(worker);
    let written = std::fs::read_dir(outbox.path()).unwrap().count();
    assert_eq!(written, 2, "the worker process wrote both emails");
}

#[tokio::test]
#[serial(reminder_worker_process)]
async fn a_worker_process_killed_mid_batch_loses_nothing_and_sends_nothing_twice() {
    let Some(redis_url) = crate::support::service_env("REDIS_URL", WHAT) else {
        return;
    };
    let Some(sink) = SmtpSink::from_env(WHAT) else {
        return;
    };
    let queue = own_redis_db(&redis_url, 13).await;
    let port = sink.port;
    let (boot, _db) = boot_with(StartMode::ServerOnly, |config| {
        use_redis_queue(config, &queue);
        config.mailer = Some(smtp_mailer(port));
        set_reminder_setting(config, "claim_timeout_seconds", 2.into());
    })
    .await;
    let ctx = &boot.app_context;
    let ours = slow_batch(ctx, "Kill Co", &["Alder", "Birch", "Cedar", "Dogwood"]).await;
    let ours: Vec<&str> = ours.iter().map(String::as_str).collect();
    let expected = 5; // one notice to the owner listing the four, and a request to each vendor

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 4);
    let folder = tempfile::tempdir().unwrap();
    let worker = start_worker_process(ctx, folder.path(), "first-worker.log");
    // The worker sends one email at a time and records each before starting the next: once the
    // server holds the fourth recipient (Cedar), three are accepted and recorded (the owner's,
    // Alder's, Birch's) and the fourth is not; no reminder is marked sent before the last.
    wait_for(
        60,
        folder.path(),
        "the fourth message to reach RCPT TO",
        || async { sink.rcpt_waits(&ours) >= 4 },
    )
    .await;
    stop(worker); // SIGKILL
    let before = sink.received_by(&ours).len();
    assert_eq!(before, 3, "killed before the fourth message was accepted");
    let unsent = all_reminders(ctx)
        .await
        .iter()
        .filter(|r| r.reminder_date == day(0) && r.sent_at.is_none())
        .count();
    assert!(
        unsent >= 2,
        "the batch was cut short: {unsent} reminders unsent"
    );

    // The dead worker's claims go stale; the next run claims exactly what is still unsent.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        sweep::run(ctx, day(0)).await.unwrap().reminders_claimed,
        unsent as u64
    );
    let worker = start_worker_process(ctx, folder.path(), "second-worker.log");
    wait_for(90, folder.path(), "every reminder to be sent", || async {
        all_reminders(ctx)
            .await
            .iter()
            .filter(|r| r.reminder_date == day(0))
            .all(|r| r.sent_at.is_some())
    })
    .await;
    stop(worker);

    let messages = sink.received_by(&ours);
    let counts = tally(&messages);
    assert_eq!(messages.len(), expected, "every email arrived: {counts:?}");
    assert!(counts.values().all(|n| *n == 1), "none twice: {counts:?}");
}

#[tokio::test]
#[serial(reminder_worker_process)]
async fn a_worker_process_stopped_with_sigterm_finishes_its_job_and_takes_no_other() {
    let Some(redis_url) = crate::support::service_env("REDIS_URL", WHAT) else {
        return;
    };
    let Some(sink) = SmtpSink::from_env(WHAT) else {
        return;
    };
    let queue = own_redis_db(&redis_url, 15).await;
    let port = sink.port;
    let (boot, _db) = boot_with(StartMode::ServerOnly, |config| {
        use_redis_queue(config, &queue);
        config.mailer = Some(smtp_mailer(port));
    })
    .await;
    let ctx = &boot.app_context;
    // Two organizations, two jobs, each sending three emails (the owner's notice listing both
    // W-9s, then each vendor's request): the second RCPT TO is the first job's second email,
    // held by the sink while SIGTERM arrives.
    let mut ours = slow_batch(ctx, "Stop Co", &["Elm", "Fir"]).await;
    ours.extend(slow_batch(ctx, "Halt Co", &["Gum", "Hazel"]).await);
    let ours: Vec<&str> = ours.iter().map(String::as_str).collect();

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 4);
    let folder = tempfile::tempdir().unwrap();
    let mut worker = start_worker_process(ctx, folder.path(), "stopped-worker.log");
    wait_for(
        60,
        folder.path(),
        "the second message to reach RCPT TO",
        || async { sink.rcpt_waits(&ours) >= 2 },
    )
    .await;
    let status = terminate(&mut worker, 60).await;
    assert!(status.success(), "exit on SIGTERM: {status}");

    // The job in hand was finished (its held email delivered and recorded); no other was taken.
    assert_eq!(
        sink.received_by(&ours).len(),
        3,
        "one job's emails, no more"
    );
    let sent = all_reminders(ctx)
        .await
        .iter()
        .filter(|r| r.reminder_date == day(0) && r.sent_at.is_some())
        .count();
    assert_eq!(
        sent, 2,
        "the job taken was recorded as sent, both its reminders"
    );
    let redis = redis::Client::open(queue.as_str()).unwrap();
    let mut conn = redis.get_multiplexed_async_connection().await.unwrap();
    let waiting: i64 = redis::cmd("ZCARD")
        .arg("queue:default")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(waiting, 1, "the other job waits in the queue");

    // The next worker takes them as they are: no sweep needed, nothing twice.
    let worker = start_worker_process(ctx, folder.path(), "next-worker.log");
    wait_for(90, folder.path(), "every reminder to be sent", || async {
        all_reminders(ctx)
            .await
            .iter()
            .filter(|r| r.reminder_date == day(0))
            .all(|r| r.sent_at.is_some())
    })
    .await;
    stop(worker);
    let messages = sink.received_by(&ours);
    let counts = tally(&messages);
    assert_eq!(messages.len(), 6, "every email arrived: {counts:?}");
    assert!(counts.values().all(|n| *n == 1), "none twice: {counts:?}");
}
