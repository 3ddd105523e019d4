//! A 10,000-row keyword upload through the real queues (Redis, and the embedded `SQLite` queue
//! of the default set-up), ingested by a separate worker process that is killed with SIGKILL
//! half way: after the `keyword_ingests` task and a new worker, nothing is lost or doubled, and
//! the same file again changes no count.

use std::net::SocketAddr;

use loco_rs::{
    app::AppContext,
    boot::StartMode,
    config::{Config, QueueConfig, SqliteQueueConfig, WorkerMode},
    task::{Task, Vars},
    testing::prelude::RequestConfig,
    TestServer,
};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use serial_test::serial;
use vendorwatch::{
    models::_entities::{keyword_ingests, keywords},
    tasks::keyword_ingests::KeywordIngests,
};

use crate::support::{
    assert_envelope, bearer, boot_with, make_admin,
    process::{own_redis_db, start_worker_process, stop, use_redis_queue, wait_for},
    register, Account,
};

const DISTINCT: usize = 9_000;
const PRIORITIES: [&str; 3] = ["high", "medium", "low"];

/// 10,200 rows: 9,000 keywords, 1,000 of them again in another case and spacing, and 200 rows
/// without a keyword.
fn upload_rows() -> Vec<Value> {
    let mut rows: Vec<Value> = (0..DISTINCT)
        .map(|i| json!({"keyword": format!("queue keyword {i}"), "searchVolume": format!("{}", i * 3),
            "difficulty": (i % 100) + 1, "priority": PRIORITIES[i % 3], "category": "Vendor Management"}))
        .collect();
    rows.extend(
        (0..1_000)
            .map(|i| json!({"keyword": format!("  QUEUE Keyword {} ", i * 7), "difficulty": 50})),
    );
    rows.extend((0..200).map(|_| json!({"keyword": "", "searchVolume": 10})));
    rows
}

async fn upload(server: &TestServer, who: &Account, rows: Vec<Value>) -> axum_test::TestResponse {
    let (h, v) = bearer(&who.token);
    server
        .post("/api/admin/keywords/upload")
        .add_header(h, v)
        .json(&json!({"keywordData": rows}))
        .await
}

async fn progress(ctx: &AppContext) -> (i32, i32) {
    let all = keyword_ingests::Entity::find().all(&ctx.db).await.unwrap();
    (
        all.iter().map(|i| i.chunks_done).sum(),
        all.iter().map(|i| i.chunks).sum(),
    )
}

async fn keyword_count(ctx: &AppContext) -> u64 {
    keywords::Entity::find().count(&ctx.db).await.unwrap()
}

async fn ingest_through_a_killed_worker(edit: impl FnOnce(&mut Config)) {
    let (boot, _db) = boot_with(StartMode::ServerOnly, edit).await;
    let ctx = boot.app_context.clone();
    let server = TestServer::new_with_config(
        boot.router
            .clone()
            .unwrap()
            .into_make_service_with_connect_info::<SocketAddr>(),
        RequestConfig::default(),
    )
    .unwrap();
    let ops = register(&server, "Olga Ops", None).await;
    make_admin(&ctx, &ops).await;

    // A bad row refuses the whole file: nothing queued.
    let mut bad = upload_rows();
    bad[5000]["priority"] = json!("urgent");
    assert_envelope(&upload(&server, &ops, bad).await, 422, "validation_failed");
    assert_eq!(progress(&ctx).await, (0, 0));

    let res = upload(&server, &ops, upload_rows()).await;
    assert_eq!(res.status_code(), 202, "{}", res.text());
    let accepted: Value = res.json();
    assert_eq!(accepted["accepted"], 10_000);
    assert_eq!(accepted["dropped"], 200);
    assert_eq!(accepted["chunks"], 100);
    assert_eq!(keyword_count(&ctx).await, 0, "the rows wait in the queue");

    let folder = tempfile::tempdir().unwrap();
    let worker = start_worker_process(&ctx, folder.path(), "first-worker.log");
    wait_for(
        120,
        folder.path(),
        "the worker to ingest 20 chunks",
        || async { progress(&ctx).await.0 >= 20 },
    )
    .await;
    stop(worker); // SIGKILL, mid-ingest
    let (done, total) = progress(&ctx).await;
    assert!(done < total, "killed before the end ({done} of {total})");

    // A bad age is refused, not read as the default.
    for bad in ["-1", "soon"] {
        let refused = KeywordIngests
            .run(
                &ctx,
                &Vars::from_cli_args(vec![("min_age_minutes".into(), bad.into())]),
            )
            .await;
        assert!(refused.is_err(), "min_age_minutes:{bad} is refused");
    }

    // The task queues every chunk still to do (some are also still queued: run twice, a chunk
    // is ingested once); a new worker finishes.
    KeywordIngests
        .run(
            &ctx,
            &Vars::from_cli_args(vec![("min_age_minutes".into(), "0".into())]),
        )
        .await
        .unwrap();
    let worker = start_worker_process(&ctx, folder.path(), "second-worker.log");
    wait_for(
        180,
        folder.path(),
        "the second worker to finish",
        || async {
            let (done, total) = progress(&ctx).await;
            done == total
        },
    )
    .await;
    assert_eq!(
        keyword_count(&ctx).await,
        DISTINCT as u64,
        "nothing lost or doubled"
    );
    let ingest = keyword_ingests::Entity::find()
        .one(&ctx.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(ingest.inserted, 9_000);
    assert_eq!(ingest.merged, 1_000);

    // The same file again: every row merges.
    let res = upload(&server, &ops, upload_rows()).await;
    assert_eq!(res.status_code(), 202);
    wait_for(
        180,
        folder.path(),
        "the same file to be ingested",
        || async {
            let (done, total) = progress(&ctx).await;
            done == total
        },
    )
    .await;
    stop(worker);
    assert_eq!(
        keyword_count(&ctx).await,
        DISTINCT as u64,
        "the same file twice adds nothing"
    );
}

#[tokio::test]
#[serial(keyword_worker_process)]
async fn ten_thousand_keywords_through_redis_survive_a_killed_worker() {
    let Some(redis_url) =
        crate::support::service_env("REDIS_URL", "the keyword ingest through Redis")
    else {
        return;
    };
    let queue = own_redis_db(&redis_url, 14).await;
    ingest_through_a_killed_worker(|config| use_redis_queue(config, &queue)).await;
}

#[tokio::test]
#[serial(keyword_worker_process)]
async fn ten_thousand_keywords_through_the_embedded_queue_survive_a_killed_worker() {
    let dir = tempfile::tempdir().unwrap();
    let uri = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("queue.sqlite").display()
    );
    ingest_through_a_killed_worker(move |config| {
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
    })
    .await;
}
