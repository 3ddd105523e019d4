//! Storage that cannot take a file (a full or read-only disk, a folder gone): uploads answer at
//! once with a clear envelope and leave nothing, readiness says so; a file appears under its
//! key whole or not at all; temporary files a crash left are removed at start-up and by the
//! `storage_orphans` task, those of uploads under way are kept.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant, SystemTime},
};

use bytes::Bytes;
use loco_rs::{boot::run_task, storage::stream::BytesStream};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::{app::App, infra::storage, models::_entities::documents};

use crate::support::{
    assert_envelope, boot_with, create_vendor, register, task_vars, upload, with_app_config,
    UploadSpec,
};

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_in(&path));
        } else {
            found.push(path);
        }
    }
    found.sort();
    found
}

fn local_storage(dir: &Path) -> impl FnOnce(&mut loco_rs::config::Config) {
    let dir = dir.display().to_string();
    move |config| {
        config.settings.as_mut().unwrap()["storage"]["local_dir"] = json!(dir);
    }
}

#[tokio::test]
async fn storage_that_cannot_be_written_answers_uploads_at_once_with_503_and_readiness_says_so() {
    let storage = tempfile::tempdir().unwrap();
    let root = storage.path().to_path_buf();
    with_app_config(local_storage(&root), |server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let vendor = create_vendor(&server, &ann, "Full Disk Co").await;
        let id = vendor["id"].as_str().unwrap();
        // Where uploads go is no longer a folder: every write there fails, as on a read-only
        // or vanished disk (the tests run as root, whom file modes do not stop).
        std::fs::remove_dir_all(root.join("documents")).ok();
        std::fs::write(root.join("documents"), b"not a folder").unwrap();

        let started = Instant::now();
        let res = upload(&server, &ann, id, &UploadSpec::pdf("w9")).await;
        let took = started.elapsed();
        let body = assert_envelope(&res, 503, "storage_unavailable");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("Nothing was saved"),
            "{body}"
        );
        assert!(took < Duration::from_secs(3), "answered after {took:?}");
        assert_eq!(documents::Entity::find().count(&ctx.db).await.unwrap(), 0);
        assert_eq!(
            files_in(&root),
            vec![root.join("documents")],
            "no file left, partial or whole"
        );

        let ready = server.get("/_readiness").await;
        assert_eq!(ready.status_code(), 503, "{}", ready.text());
        let checks: Value = ready.json();
        assert_eq!(checks["checks"]["storage"], "unavailable");
        assert_eq!(checks["checks"]["database"], "ok");

        // Writable again: readiness follows once its last answer is a few seconds old.
        std::fs::remove_file(root.join("documents")).unwrap();
        let ready = server.get("/_readiness").await;
        assert_eq!(
            ready.status_code(),
            503,
            "the answer is reused for a few seconds"
        );
        tokio::time::sleep(storage::PROBE_CACHE).await;
        let ready = server.get("/_readiness").await;
        assert_eq!(ready.status_code(), 200, "{}", ready.text());
        assert!(files_in(&root).is_empty(), "the probe leaves nothing");
        let res = upload(&server, &ann, id, &UploadSpec::pdf("w9")).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
    })
    .await;
}

/// A stream that sends `first`, then fails or never ends.
fn stream_then(first: &'static [u8], fail: bool) -> BytesStream {
    let head = futures_util::stream::iter([Ok(Bytes::from_static(first))]);
    if fail {
        let broken = std::io::Error::other("the client went away");
        BytesStream::from_body_stream(futures_util::StreamExt::chain(
            head,
            futures_util::stream::iter([Err(broken)]),
        ))
    } else {
        BytesStream::from_body_stream(futures_util::StreamExt::chain(
            head,
            futures_util::stream::pending(),
        ))
    }
}

#[tokio::test]
async fn a_file_appears_under_its_key_only_once_written_whole() {
    let storage = tempfile::tempdir().unwrap();
    let root = storage.path().to_path_buf();
    with_app_config(local_storage(&root), |_server, ctx| async move {
        let key = "documents/org/0123456789abcdef0123456789abcdef.pdf";
        let final_path = root.join(key);

        // A write cut off half-way (the process dies): nothing under the key.
        let writing = {
            let ctx = ctx.clone();
            tokio::spawn(async move {
                ctx.storage
                    .upload_stream(Path::new(key), stream_then(b"%PDF-1.4 half", false))
                    .await
            })
        };
        let partial = root.join(storage::PARTIAL_DIR);
        let started = Instant::now();
        while files_in(&root).is_empty() {
            assert!(started.elapsed() < Duration::from_secs(5), "no write began");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!final_path.exists(), "a half-written file under its key");
        assert_eq!(files_in(&partial).len(), 1, "the part is written aside");
        writing.abort();
        let _ = writing.await;
        assert!(!final_path.exists(), "a cut-off write under its key");
        std::fs::remove_dir_all(&partial).unwrap();

        // A write that fails: nothing under the key, nothing aside.
        let failed = ctx
            .storage
            .upload_stream(Path::new(key), stream_then(b"%PDF-1.4 half", true))
            .await;
        assert!(failed.is_err());
        assert!(!final_path.exists(), "a failed write under its key");
        assert!(
            files_in(&partial).is_empty(),
            "a failed write left its part"
        );

        // A whole write: the file is there, and nothing aside.
        ctx.storage
            .upload_stream(
                Path::new(key),
                BytesStream::from_body_stream(futures_util::stream::iter([Ok(
                    Bytes::from_static(b"%PDF-1.4 whole"),
                )])),
            )
            .await
            .unwrap();
        assert_eq!(std::fs::read(&final_path).unwrap(), b"%PDF-1.4 whole");
        assert!(files_in(&partial).is_empty());
    })
    .await;
}

/// A file in `dir` last modified `age` ago.
fn temp_file(dir: &Path, name: &str, age: Duration) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    let file = std::fs::File::create(&path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
    path
}

#[tokio::test]
async fn stale_temporary_files_are_removed_at_start_up_and_by_the_orphan_task_fresh_ones_kept() {
    let storage = tempfile::tempdir().unwrap();
    let root = storage.path().to_path_buf();
    let uploads = storage::upload_temp_dir();
    let partial = root.join(storage::PARTIAL_DIR);
    let run = uuid::Uuid::new_v4().simple().to_string();
    let two_hours = Duration::from_hours(2);
    let name = |what: &str| format!("{}{what}-{run}", storage::UPLOAD_TEMP_PREFIX);

    let stale_upload = temp_file(&uploads, &name("stale"), two_hours);
    let fresh_upload = temp_file(&uploads, &name("fresh"), Duration::from_mins(1));
    let stale_part = temp_file(&partial, &name("stale"), two_hours);
    let fresh_part = temp_file(&partial, &name("fresh"), Duration::from_mins(1));

    let (boot, _db) = boot_with(loco_rs::boot::StartMode::ServerOnly, local_storage(&root)).await;
    assert!(
        !stale_upload.exists(),
        "a stale upload file outlived start-up"
    );
    assert!(
        !stale_part.exists(),
        "a stale partial write outlived start-up"
    );
    assert!(
        fresh_upload.exists() && fresh_part.exists(),
        "an upload under way was removed"
    );

    let stale_upload = temp_file(&uploads, &name("stale-again"), two_hours);
    let stale_part = temp_file(&partial, &name("stale-again"), two_hours);
    let ctx = &boot.app_context;
    let task = Some("storage_orphans".to_string());
    run_task::<App>(ctx, task.as_ref(), &task_vars(&[("dry_run", "true")]))
        .await
        .unwrap();
    assert!(
        stale_upload.exists() && stale_part.exists(),
        "a dry run removes nothing"
    );
    // Even told that a minute is old: an upload under way keeps its file.
    run_task::<App>(ctx, task.as_ref(), &task_vars(&[("min_age_minutes", "0")]))
        .await
        .unwrap();
    assert!(!stale_upload.exists(), "the task left a stale upload file");
    assert!(!stale_part.exists(), "the task left a stale partial write");
    assert!(
        fresh_upload.exists() && fresh_part.exists(),
        "an upload under way was removed"
    );
    std::fs::remove_file(fresh_upload).unwrap();
}
