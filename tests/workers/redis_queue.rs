//! A real job through the real Redis queue: enqueued by the app, performed by a worker.

use std::time::Duration;

use loco_rs::{
    boot::{run_task, BootResult, StartMode},
    config::{QueueConfig, RedisQueueConfig, WorkerMode},
};
use sea_orm::EntityTrait;
use vendorwatch::{
    app::App,
    mailers::auth::AuthMailer,
    models::{outgoing_emails, users},
};

use crate::support::{boot_with, TestDb};

/// `REDIS_URL`, or `None` (with one line saying so) outside CI when it is not set.
fn redis_url() -> Option<String> {
    match std::env::var("REDIS_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but REDIS_URL is not set: the Redis queue test must run in CI")
        }
        _ => {
            eprintln!("SKIPPED: the Redis queue test (REDIS_URL is not set)");
            None
        }
    }
}

#[tokio::test]
async fn a_mail_job_goes_through_redis_and_a_worker_sends_it() {
    let Some(url) = redis_url() else { return };
    let queue_url = url.clone();
    let (boot, _db) = boot_with(StartMode::WorkerOnly { tags: vec![] }, move |config| {
        config.workers.mode = WorkerMode::BackgroundQueue;
        config.queue = Some(QueueConfig::Redis(RedisQueueConfig {
            uri: queue_url,
            dangerously_flush: false,
            queues: None,
            num_workers: 1,
            reaper: None,
        }));
    })
    .await;
    let ctx = boot.app_context.clone();

    let params = users::RegisterParams {
        name: "Queue Test".into(),
        email: format!("queue-{}@example.com", uuid::Uuid::new_v4().simple()),
        password: "secret-pass".into(),
        company: None,
        time_zone: None,
    };
    let (user, _) = users::Model::register(&ctx.db, &params).await.unwrap();
    AuthMailer::forgot_password(&ctx, &user, "token-123")
        .await
        .unwrap();

    // The job waits in Redis; nothing was sent yet.
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let queued: i64 = redis::cmd("ZCARD")
        .arg("queue:mailer")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(queued >= 1, "the mail job is in the Redis queue");
    let mailer = ctx.mailer.clone().unwrap();
    assert_eq!(mailer.deliveries().count, 0);

    let queue = ctx.queue_provider.clone().unwrap();
    let worker = tokio::spawn({
        let queue = queue.clone();
        async move { queue.run(vec![]).await }
    });
    let mut sent = false;
    for _ in 0..100 {
        if mailer
            .deliveries()
            .messages
            .iter()
            .any(|m| m.contains(&user.email))
        {
            sent = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    queue.shutdown().unwrap();
    worker.abort();
    assert!(sent, "the worker performed the job from Redis");
}

/// A worker process's app on a Redis database of its own (`db`, emptied), a user to email, and
/// a connection to that database.
async fn worker_app(
    url: &str,
    db: u8,
    email: &str,
) -> (
    BootResult,
    TestDb,
    users::Model,
    redis::aio::MultiplexedConnection,
) {
    let queue_url = crate::support::process::own_redis_db(url, db).await;
    let (boot, test_db) = boot_with(StartMode::WorkerOnly { tags: vec![] }, {
        let queue_url = queue_url.clone();
        move |config| crate::support::process::use_redis_queue(config, &queue_url)
    })
    .await;
    let params = users::RegisterParams {
        name: "Queue Test".into(),
        email: email.into(),
        password: "secret-pass".into(),
        company: None,
        time_zone: None,
    };
    let (user, _) = users::Model::register(&boot.app_context.db, &params)
        .await
        .unwrap();
    let client = redis::Client::open(queue_url.as_str()).unwrap();
    let conn = client.get_multiplexed_async_connection().await.unwrap();
    (boot, test_db, user, conn)
}

/// Runs a worker until the mailer has delivered `count` emails (10 s at most), then stops it.
async fn work_until_delivered(ctx: &loco_rs::app::AppContext, count: usize) {
    let queue = ctx.queue_provider.clone().unwrap();
    let worker = tokio::spawn({
        let queue = queue.clone();
        async move { queue.run(vec![]).await }
    });
    let mailer = ctx.mailer.clone().unwrap();
    for _ in 0..100 {
        if mailer.deliveries().count >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    queue.shutdown().unwrap();
    tokio::time::timeout(Duration::from_secs(10), worker)
        .await
        .expect("the worker stops")
        .unwrap()
        .unwrap();
}

/// The job keys (`job:<id>`, each holding a job's arguments) in the queue's Redis database.
async fn job_keys(conn: &mut redis::aio::MultiplexedConnection) -> usize {
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("job:*")
        .query_async(conn)
        .await
        .unwrap();
    keys.len()
}

#[tokio::test]
async fn queue_tidy_deletes_finished_jobs_and_keeps_the_waiting_ones() {
    let Some(url) = redis_url() else { return };
    let (boot, _db, user, mut conn) = worker_app(&url, 11, "tidy@example.com").await;
    let ctx = boot.app_context.clone();

    // Two reset emails are sent by a worker.
    for token in ["token-one", "token-two"] {
        AuthMailer::forgot_password(&ctx, &user, token)
            .await
            .unwrap();
    }
    work_until_delivered(&ctx, 2).await;
    assert_eq!(
        ctx.mailer.clone().unwrap().deliveries().count,
        2,
        "the worker sent both"
    );

    // A third waits; the finished two are still stored with their arguments.
    AuthMailer::forgot_password(&ctx, &user, "token-three")
        .await
        .unwrap();
    assert_eq!(job_keys(&mut conn).await, 3);

    task(&ctx, "queue_tidy", &[]).await.unwrap();
    assert_eq!(job_keys(&mut conn).await, 1, "only the waiting job is left");
    let waiting: i64 = redis::cmd("ZCARD")
        .arg("queue:mailer")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(waiting, 1, "the waiting job is still queued");
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("job:*")
        .query_async(&mut conn)
        .await
        .unwrap();
    let left: String = redis::cmd("GET")
        .arg(&keys[0])
        .query_async(&mut conn)
        .await
        .unwrap();
    let third = kept_with(&ctx, "token-three").await;
    assert!(left.contains(&format!("\"id\":{}", third.id)), "{left}");
    assert!(
        !left.contains("token-three"),
        "the job names the kept email; the reset link is not in the queue: {left}"
    );
}

/// Runs the task `name` with `pairs` as its arguments.
async fn task(
    ctx: &loco_rs::app::AppContext,
    name: &str,
    pairs: &[(&str, &str)],
) -> loco_rs::Result<()> {
    run_task::<App>(
        ctx,
        Some(&name.to_string()),
        &crate::support::task_vars(pairs),
    )
    .await
}

/// The kept email (`outgoing_emails`) whose text holds `token`.
async fn kept_with(ctx: &loco_rs::app::AppContext, token: &str) -> outgoing_emails::Model {
    outgoing_emails::Entity::find()
        .all(&ctx.db)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.text_body.contains(token))
        .expect("the email is kept")
}

/// Moves one waiting job of `queue` into its `processing:` set, as a worker taking it does
/// (Loco's acquire script), and returns its id: the worker then "dies" holding it.
async fn take_and_die(conn: &mut redis::aio::MultiplexedConnection, queue: &str) -> String {
    let waiting: Vec<String> = redis::cmd("ZRANGE")
        .arg(format!("queue:{queue}"))
        .arg(0)
        .arg(0)
        .query_async(conn)
        .await
        .unwrap();
    let id = waiting[0].clone();
    let () = redis::pipe()
        .atomic()
        .cmd("ZREM")
        .arg(format!("queue:{queue}"))
        .arg(&id)
        .ignore()
        .cmd("SADD")
        .arg(format!("processing:{queue}"))
        .arg(&id)
        .ignore()
        .query_async(conn)
        .await
        .unwrap();
    id
}

async fn in_set(conn: &mut redis::aio::MultiplexedConnection, key: &str, id: &str) -> bool {
    redis::cmd("SISMEMBER")
        .arg(key)
        .arg(id)
        .query_async(conn)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_job_a_dead_worker_held_is_queued_again_and_sent() {
    let Some(url) = redis_url() else { return };
    let (boot, _db, user, mut conn) = worker_app(&url, 10, "stalled@example.com").await;
    let ctx = boot.app_context.clone();
    AuthMailer::forgot_password(&ctx, &user, "token-held")
        .await
        .unwrap();
    let held = take_and_die(&mut conn, "mailer").await;
    let tidy = |stalled: &'static str| {
        let ctx = ctx.clone();
        async move {
            task(&ctx, "queue_tidy", &[("stalled_minutes", stalled)])
                .await
                .unwrap();
        }
    };

    // A bad argument is refused before anything is noted or moved.
    for bad in ["-1", "soon"] {
        let refused = task(&ctx, "queue_tidy", &[("stalled_minutes", bad)]).await;
        assert!(refused.is_err(), "stalled_minutes:{bad} is refused");
    }
    let noted: i64 = redis::cmd("EXISTS")
        .arg("vendorwatch:in-hand:mailer")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(noted, 0, "nothing noted");
    assert!(in_set(&mut conn, "processing:mailer", &held).await);

    // First seen in hand: noted, not moved (a live worker may be performing it).
    tidy("0").await;
    assert!(in_set(&mut conn, "processing:mailer", &held).await);
    // Not yet stalled for 30 minutes: nothing moves.
    tidy("30").await;
    assert!(in_set(&mut conn, "processing:mailer", &held).await);
    // A second job taken now is seen once only at the next run: it stays in hand.
    AuthMailer::forgot_password(&ctx, &user, "token-fresh")
        .await
        .unwrap();
    let fresh = take_and_die(&mut conn, "mailer").await;
    tidy("0").await;
    assert!(
        !in_set(&mut conn, "processing:mailer", &held).await,
        "moved back"
    );
    assert!(
        in_set(&mut conn, "processing:mailer", &fresh).await,
        "seen once: kept"
    );
    let waiting: Vec<String> = redis::cmd("ZRANGE")
        .arg("queue:mailer")
        .arg(0)
        .arg(-1)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(waiting, vec![held.clone()]);

    // The email was given its Message-ID when it was kept: performed again (its worker died
    // after sending it), it is the same message, not a second one.
    let message_id = kept_with(&ctx, "token-held").await.message_id;

    // A worker performs it: the reset email held by the dead worker arrives.
    work_until_delivered(&ctx, 1).await;
    let deliveries = ctx.mailer.clone().unwrap().deliveries();
    assert_eq!(
        deliveries.count, 1,
        "the held job, once (the other is still in hand)"
    );
    assert!(deliveries.messages[0].contains(&user.email));
    assert!(
        deliveries.messages[0].contains(&format!("Message-ID: {message_id}")),
        "sent under the job's Message-ID: {}",
        deliveries.messages[0]
    );
}

#[tokio::test]
async fn a_mail_job_lost_with_redis_is_sent_once_by_the_outgoing_emails_task() {
    let Some(url) = redis_url() else { return };
    let (boot, _db, user, mut conn) = worker_app(&url, 9, "lost@example.com").await;
    let ctx = boot.app_context.clone();
    AuthMailer::forgot_password(&ctx, &user, "token-lost")
        .await
        .unwrap();
    // Redis restarted without persistence: the job is gone.
    let () = redis::cmd("FLUSHDB").query_async(&mut conn).await.unwrap();
    let kept = kept_with(&ctx, "token-lost").await;
    assert!(kept.sent_at.is_none());

    // Younger than min_age_minutes: its job may still be waiting, nothing is queued.
    task(&ctx, "outgoing_emails", &[("min_age_minutes", "10")])
        .await
        .unwrap();
    let waiting: i64 = redis::cmd("ZCARD")
        .arg("queue:mailer")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(waiting, 0);

    // Old enough: queued again (twice, as two runs would), performed by a worker, sent once.
    for _ in 0..2 {
        task(&ctx, "outgoing_emails", &[("min_age_minutes", "0")])
            .await
            .unwrap();
    }
    let queued: i64 = redis::cmd("ZCARD")
        .arg("queue:mailer")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(queued, 2);
    // A worker given 10 s to send two: the second job finds the email sent.
    work_until_delivered(&ctx, 2).await;
    let deliveries = ctx.mailer.clone().unwrap().deliveries();
    assert_eq!(deliveries.count, 1, "{:#?}", deliveries.messages);
    assert!(deliveries.messages[0].contains("token-lost"));
    assert!(deliveries.messages[0].contains(&format!("Message-ID: {}", kept.message_id)));
    let sent = kept_with_id(&ctx, kept.id).await;
    assert!(sent.sent_at.is_some());
}

async fn kept_with_id(ctx: &loco_rs::app::AppContext, id: i64) -> outgoing_emails::Model {
    outgoing_emails::Entity::find_by_id(id)
        .one(&ctx.db)
        .await
        .unwrap()
        .unwrap()
}
