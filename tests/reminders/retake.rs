//! Reminder jobs lost with the queue (Redis restarted without persistence, an embedded queue's
//! file lost) are handed out again by the `reminders_retake` task once their claim is stale,
//! within minutes rather than at the next daily sweep, and each reminder is sent once.

use std::{collections::HashSet, time::Duration};

use loco_rs::{
    app::AppContext,
    boot::{run_task, StartMode},
    config::{Config, QueueConfig, SqliteQueueConfig, WorkerMode},
};
use sea_orm::{sea_query::Expr, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Statement};
use vendorwatch::{
    app::App,
    models::{
        _entities::{reminder_claims, reminders},
        compliance::DocumentType,
        sweep,
    },
};

use super::support::{
    address, all_claims, client, day, deliveries, document, stub_messages, vendor,
};
use crate::support::{boot_with, task_vars};

/// Runs the worker until the stub mailer has `count` emails (10 s at most), a moment more
/// (anything sent twice would show), then stops it for good (a queue shut down stays so).
pub(super) async fn work_until_sent(ctx: &AppContext, count: usize) {
    let queue = ctx.queue_provider.clone().unwrap();
    let worker = tokio::spawn({
        let queue = queue.clone();
        async move { queue.run(vec![]).await }
    });
    for _ in 0..100 {
        if stub_messages(ctx).len() >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    queue.shutdown().unwrap();
    tokio::time::timeout(Duration::from_secs(10), worker)
        .await
        .expect("the worker stops")
        .unwrap()
        .unwrap();
}

/// The sweep hands the due reminders to the queue, `lose` empties the queue, and the retake
/// sends each reminder once: nothing while the claims are fresh, all once they are stale.
async fn lost_jobs_are_retaken_and_sent_once<F, Fut>(edit: impl FnOnce(&mut Config), lose: F)
where
    F: FnOnce(AppContext) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let (boot, _db) = boot_with(StartMode::WorkerOnly { tags: vec![] }, edit).await;
    let ctx = boot.app_context.clone();
    let owner = address("owner", "example.com");
    let client = client(&ctx, "Retake Co", std::slice::from_ref(&owner)).await;
    let pipes = vendor(
        &ctx,
        &client,
        "Pipe Works",
        &address("pipes", "example.com"),
    )
    .await;
    // Expiring in a week and today: the 7-day and the 0-day reminders are due today.
    document(&ctx, &client, &pipes, DocumentType::W9, None, Some(7)).await;
    let other = vendor(
        &ctx,
        &client,
        "Wire Works",
        &address("wires", "example.com"),
    )
    .await;
    document(&ctx, &client, &other, DocumentType::W9, None, Some(0)).await;
    let due: Vec<i64> = reminders::Entity::find()
        .filter(reminders::Column::ReminderDate.lte(day(0)))
        .all(&ctx.db)
        .await
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert!(due.len() >= 2, "{due:?}");

    ctx.queue_provider.as_ref().unwrap().setup().await.unwrap();
    let swept = sweep::run(&ctx, day(0)).await.unwrap();
    assert_eq!(swept.reminders_claimed, due.len() as u64);
    lose(ctx.clone()).await;
    // Due today but added after the sweep: the next daily sweep's, not the retake's (nothing
    // goes out before its sweep handed it out).
    let late = vendor(&ctx, &client, "Late Works", &address("late", "example.com")).await;
    let late = document(&ctx, &client, &late, DocumentType::W9, None, Some(7)).await;

    // Claims younger than the claim timeout may belong to jobs still waiting: left alone.
    run_task::<App>(&ctx, Some(&"reminders_retake".to_string()), &task_vars(&[]))
        .await
        .unwrap();
    assert_eq!(sweep::retake_stale_claims(&ctx).await.unwrap(), 0);

    // Sixteen minutes later (the timeout is fifteen): two runs at once hand each out once.
    reminder_claims::Entity::update_many()
        .col_expr(
            reminder_claims::Column::ClaimedAt,
            Expr::val(chrono::Utc::now().fixed_offset() - chrono::Duration::minutes(16)),
        )
        .exec(&ctx.db)
        .await
        .unwrap();
    let (a, b) = tokio::join!(
        sweep::retake_stale_claims(&ctx),
        sweep::retake_stale_claims(&ctx)
    );
    assert_eq!(a.unwrap() + b.unwrap(), due.len() as u64);

    assert!(
        deliveries(&ctx).await.is_empty(),
        "nothing sent before a worker runs"
    );
    // One notice to the owner listing both documents, one request to each vendor: the job
    // that starts first gathers what both retakes handed out.
    work_until_sent(&ctx, 3).await;
    let sent = deliveries(&ctx).await;
    let reminded: HashSet<i64> = sent.iter().map(|d| d.reminder_id).collect();
    assert_eq!(reminded, due.iter().copied().collect(), "each due reminder");
    assert_eq!(
        sent.len(),
        due.len() * 2,
        "to the owner and its vendor, once"
    );
    assert_eq!(stub_messages(&ctx).len(), 3, "each email once");
    let unsent = reminders::Entity::find()
        .filter(reminders::Column::Id.is_in(due.clone()))
        .filter(reminders::Column::SentAt.is_null())
        .all(&ctx.db)
        .await
        .unwrap();
    assert!(unsent.is_empty(), "{unsent:?}");
    let late_due = reminders::Entity::find()
        .filter(reminders::Column::DocumentId.eq(late.id))
        .filter(reminders::Column::ReminderDate.lte(day(0)))
        .all(&ctx.db)
        .await
        .unwrap();
    assert!(!late_due.is_empty());
    assert!(late_due.iter().all(|r| r.sent_at.is_none()), "{late_due:?}");
    assert!(all_claims(&ctx).await.is_empty());
    assert_eq!(sweep::retake_stale_claims(&ctx).await.unwrap(), 0);
}

#[tokio::test]
async fn reminder_jobs_lost_with_redis_are_sent_once_by_the_retake() {
    let Some(url) = crate::support::service_env("REDIS_URL", "the Redis retake test") else {
        return;
    };
    let queue_url = crate::support::process::own_redis_db(&url, 8).await;
    let lose_url = queue_url.clone();
    lost_jobs_are_retaken_and_sent_once(
        move |config| crate::support::process::use_redis_queue(config, &queue_url),
        |_ctx| async move {
            // Redis restarted without persistence: every job is gone.
            let client = redis::Client::open(lose_url.as_str()).unwrap();
            let mut conn = client.get_multiplexed_async_connection().await.unwrap();
            let () = redis::cmd("FLUSHDB").query_async(&mut conn).await.unwrap();
        },
    )
    .await;
}

#[tokio::test]
async fn reminder_jobs_lost_from_the_embedded_queue_are_sent_once_by_the_retake() {
    let dir = tempfile::tempdir().unwrap();
    let uri = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("queue.sqlite").display()
    );
    let lose_uri = uri.clone();
    lost_jobs_are_retaken_and_sent_once(
        move |config| {
            config.workers.mode = WorkerMode::BackgroundQueue;
            config.queue = Some(QueueConfig::Sqlite(SqliteQueueConfig {
                uri,
                dangerously_flush: false,
                enable_logging: false,
                max_connections: 2,
                min_connections: 1,
                connect_timeout: 5_000,
                idle_timeout: 10_000,
                poll_interval_sec: 1,
                num_workers: 1,
                reaper: None,
            }));
        },
        |_ctx| async move {
            // The queue's file replaced by an empty one (a host restored without it).
            let queue = sea_orm::Database::connect(lose_uri.as_str()).await.unwrap();
            queue
                .execute_raw(Statement::from_string(
                    sea_orm::DatabaseBackend::Sqlite,
                    "DELETE FROM sqlt_loco_queue",
                ))
                .await
                .unwrap();
            queue.close().await.unwrap();
        },
    )
    .await;
}
