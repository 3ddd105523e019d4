//! Worker processes of the tests: the built `vendorwatch-cli start --worker`, started on a
//! test's configuration and killed with SIGKILL.

use std::{
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use loco_rs::{
    app::AppContext,
    config::{Config, QueueConfig, RedisQueueConfig, WorkerMode},
};

/// `vendorwatch-cli start --worker` with this test's configuration (same database, queue and
/// mailer), written to a config folder of its own. JSON is YAML, so the config is written as is.
pub fn start_worker_process(ctx: &AppContext, folder: &Path, log_name: &str) -> Child {
    let mut config = ctx.config.clone();
    config.logger.enable = true;
    config.logger.level = loco_rs::logger::LogLevel::Info;
    std::fs::write(
        folder.join("test.yaml"),
        serde_json::to_string_pretty(&config).unwrap(),
    )
    .unwrap();
    let log = std::fs::File::create(folder.join(log_name)).unwrap();
    Command::new(env!("CARGO_BIN_EXE_vendorwatch-cli"))
        .args(["start", "--worker"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("LOCO_ENV", "test")
        .env("LOCO_CONFIG_FOLDER", folder)
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("the worker process starts")
}

pub fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Sends `child` SIGTERM and returns its exit status, failing after `secs` seconds.
pub async fn terminate(child: &mut Child, secs: u64) -> std::process::ExitStatus {
    assert!(std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            panic!("pid {} did not stop within {secs} s of SIGTERM", child.id());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Polls `done` for up to `secs` seconds; on timeout prints the worker logs and fails.
pub async fn wait_for<F, Fut>(secs: u64, folder: &Path, what: &str, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !done().await {
        if start.elapsed() > Duration::from_secs(secs) {
            for entry in std::fs::read_dir(folder).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "log") {
                    eprintln!(
                        "--- {} ---\n{}",
                        path.display(),
                        std::fs::read_to_string(&path).unwrap()
                    );
                }
            }
            panic!("timed out waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// A Redis database of these tests' own (the worker process takes every job it finds), emptied.
pub async fn own_redis_db(base: &str, db: u8) -> String {
    let mut url = url::Url::parse(base).unwrap();
    url.set_path(&format!("/{db}"));
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let () = redis::cmd("FLUSHDB").query_async(&mut conn).await.unwrap();
    url.to_string()
}

pub fn use_redis_queue(config: &mut Config, uri: &str) {
    config.workers.mode = WorkerMode::BackgroundQueue;
    config.queue = Some(QueueConfig::Redis(RedisQueueConfig {
        uri: uri.to_string(),
        dangerously_flush: false,
        queues: None,
        // One job at a time, so "half way through the batch" is a definite point.
        num_workers: 1,
        reaper: None,
    }));
}
