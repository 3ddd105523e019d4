//! Regressions for what testing from outside found: cut-off uploads, files no row points to,
//! JSON bodies that are not objects, disguised file names, cacheable private answers, and
//! client errors logged as faults.

use std::{
    path::Path,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use bytes::Bytes;
use loco_rs::{
    app::Hooks,
    boot::run_task,
    storage::{
        drivers::{GetResponse, ListEntry, StoreDriver, UploadResponse},
        stream::BytesStream,
        Storage, StorageResult,
    },
};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use vendorwatch::{app::App, models::_entities::documents, settings::Settings};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, register, stored_files, upload, with_app,
    with_app_config, Account, UploadSpec,
};

async fn vendor_of(server: &loco_rs::TestServer, ann: &Account, name: &str) -> String {
    create_vendor(server, ann, name).await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Sends a whole upload over a raw socket, then resets the connection (RST, no FIN) at once.
async fn upload_then_reset(addr: &str, token: &str, vendor_id: &str, n: usize) {
    let boundary = "XRESETBOUNDARYX";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"documentType\"\r\n\r\nother\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"scan-{n}.pdf\"\r\n\
         Content-Type: application/pdf\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(&crate::fixtures::pdf());
    body.extend_from_slice(&vec![b' '; 256 * 1024]);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let head = format!(
        "POST /api/vendors/{vendor_id}/documents HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body).await.unwrap();
    stream.flush().await.unwrap();
    // A zero linger makes the close a reset, at once; it does not block.
    #[allow(deprecated)]
    stream.set_linger(Some(Duration::ZERO)).unwrap();
    drop(stream);
}

#[tokio::test]
async fn uploads_whose_client_resets_the_connection_leave_no_file_without_its_row() {
    with_app_config(
        |config| {
            // The cut-off uploads must not be refused by the Free plan's document limit.
            config.settings.as_mut().unwrap()["plans"]["free"]["documents_per_vendor"] =
                json!(1000);
        },
        |server, ctx| async move {
            let ann = register(&server, "Ann Lee", None).await;
            let id = vendor_of(&server, &ann, "Reset Co").await;
            let url = server.server_address().expect("a real port");
            let addr = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
            for n in 0..30 {
                upload_then_reset(&addr, &ann.token, &id, n).await;
                // Let the server get on with it before the next client comes.
                tokio::time::sleep(Duration::from_millis(n as u64 % 7)).await;
            }
            let count_rows = || async {
                documents::Entity::find()
                    .filter(documents::Column::StorageKey.contains("documents/"))
                    .count(&ctx.db)
                    .await
                    .unwrap()
            };
            // Work that outlives its request settles; a file left without a row stays.
            let mut settled = (0, 0);
            for _ in 0..50 {
                settled = (
                    stored_files(&ctx, &ann).await.len(),
                    usize::try_from(count_rows().await).unwrap(),
                );
                if settled.0 == settled.1 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let (files, rows) = settled;
            assert_eq!(files, rows, "{files} files for {rows} rows");
        },
    )
    .await;
}

/// Local storage that takes its time after a file is written, as a distant object store does
/// before it answers: a request dropped then has its file written and its row not yet.
struct SlowAfterWrite(Box<dyn StoreDriver>);

#[async_trait::async_trait]
impl StoreDriver for SlowAfterWrite {
    async fn upload(&self, path: &Path, content: &Bytes) -> StorageResult<UploadResponse> {
        let done = self.0.upload(path, content).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        done
    }
    async fn upload_stream(
        &self,
        path: &Path,
        stream: BytesStream,
    ) -> StorageResult<UploadResponse> {
        let done = self.0.upload_stream(path, stream).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        done
    }
    async fn get(&self, path: &Path) -> StorageResult<GetResponse> {
        self.0.get(path).await
    }
    async fn delete(&self, path: &Path) -> StorageResult<()> {
        self.0.delete(path).await
    }
    async fn rename(&self, from: &Path, to: &Path) -> StorageResult<()> {
        self.0.rename(from, to).await
    }
    async fn copy(&self, from: &Path, to: &Path) -> StorageResult<()> {
        self.0.copy(from, to).await
    }
    async fn exists(&self, path: &Path) -> StorageResult<bool> {
        self.0.exists(path).await
    }
    async fn list(&self, path: &Path, recursive: bool) -> StorageResult<Vec<ListEntry>> {
        self.0.list(path, recursive).await
    }
    async fn stat(&self, path: &Path) -> StorageResult<ListEntry> {
        self.0.stat(path).await
    }
}

#[tokio::test]
async fn an_upload_dropped_after_its_file_is_written_still_gets_its_row() {
    use tower::ServiceExt;
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor_of(&server, &ann, "Slow Co").await;
        let settings = Settings::from_context(&ctx).unwrap();
        let mut slow = ctx.clone();
        slow.storage = Arc::new(Storage::single(Box::new(SlowAfterWrite(
            settings.storage_driver().unwrap(),
        ))));
        let slow_routes = App::routes(&slow)
            .to_router::<App>(slow.clone(), axum::Router::new())
            .unwrap();
        let router = App::after_routes(slow_routes, &slow).await.unwrap();

        let boundary = "XDROPX";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"documentType\"\r\n\r\nw9\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"w9.pdf\"\r\n\
             Content-Type: application/pdf\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&crate::fixtures::pdf());
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let request = axum::http::Request::post(format!("/api/vendors/{id}/documents"))
            .header("authorization", format!("Bearer {}", ann.token))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .extension(axum::extract::ConnectInfo(std::net::SocketAddr::from((
                [127, 0, 0, 1],
                9,
            ))))
            .body(axum::body::Body::from(body))
            .unwrap();
        // The client goes away while the file is being written: the request's future is dropped.
        let cut = tokio::time::timeout(Duration::from_millis(150), router.oneshot(request)).await;
        assert!(cut.is_err(), "the request was still running when dropped");

        tokio::time::sleep(Duration::from_millis(800)).await;
        let files = stored_files(&ctx, &ann).await;
        let docs: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert_eq!(files.len(), 1, "the file was written");
        assert_eq!(
            docs.len(),
            1,
            "and its row committed, though nobody waited for it"
        );
    })
    .await;
}

#[tokio::test]
async fn the_orphan_task_removes_only_old_files_that_no_document_points_to() {
    let storage = tempfile::tempdir().unwrap();
    let dir = storage.path().to_str().unwrap().to_string();
    with_app_config(
        move |config| {
            config.settings.as_mut().unwrap()["storage"]["local_dir"] = json!(dir);
        },
        |server, ctx| async move {
            let ann = register(&server, "Ann Lee", None).await;
            let id = vendor_of(&server, &ann, "Orphan Co").await;
            let res = upload(&server, &ann, &id, &UploadSpec::pdf("w9")).await;
            assert_eq!(res.status_code(), 201);
            let kept = stored_files(&ctx, &ann).await;
            assert_eq!(kept.len(), 1);
            let folder = kept[0].parent().unwrap().to_path_buf();
            let orphan = folder.join("0123456789abcdef0123456789abcdef.pdf");
            std::fs::write(&orphan, b"%PDF-1.4 left behind").unwrap();

            let vars = |pairs: &[(&str, &str)]| {
                loco_rs::task::Vars::from_cli_args(
                    pairs
                        .iter()
                        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                        .collect(),
                )
            };
            let task = Some("storage_orphans".to_string());
            // Younger than the default hour: it may be an upload being recorded.
            run_task::<App>(&ctx, task.as_ref(), &vars(&[]))
                .await
                .unwrap();
            assert!(orphan.exists(), "a young file is left alone");
            for bad in ["-1", "soon"] {
                let refused =
                    run_task::<App>(&ctx, task.as_ref(), &vars(&[("min_age_minutes", bad)])).await;
                assert!(refused.is_err(), "min_age_minutes:{bad} is refused");
            }
            assert!(orphan.exists(), "a refused run removes nothing");
            run_task::<App>(
                &ctx,
                task.as_ref(),
                &vars(&[("min_age_minutes", "0"), ("dry_run", "true")]),
            )
            .await
            .unwrap();
            assert!(orphan.exists(), "a dry run removes nothing");
            tokio::time::sleep(Duration::from_millis(20)).await;
            run_task::<App>(&ctx, task.as_ref(), &vars(&[("min_age_minutes", "0")]))
                .await
                .unwrap();
            assert!(!orphan.exists(), "the orphan is removed");
            assert_eq!(
                stored_files(&ctx, &ann).await,
                kept,
                "a document's file stays"
            );
            let doc = res.json::<Value>();
            let download = get(
                &server,
                &ann,
                &format!("/api/documents/{}/download", doc["id"].as_str().unwrap()),
            )
            .await;
            assert_eq!(download.status_code(), 200);
        },
    )
    .await;
}

#[tokio::test]
async fn a_json_array_where_an_object_is_expected_is_refused_and_changes_nothing() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor_of(&server, &ann, "Array Co").await;
        let doc: Value = upload(&server, &ann, &id, &UploadSpec::pdf("w9"))
            .await
            .json();
        let doc_id = doc["id"].as_str().unwrap();
        let (h, v) = bearer(&ann.token);
        let res = server
            .put(&format!("/api/documents/{doc_id}"))
            .add_header(h.clone(), v.clone())
            .json(&json!(["coi", "general_liability"]))
            .await;
        assert_envelope(&res, 400, "invalid_body");
        let after: Value = get(&server, &ann, &format!("/api/documents/{doc_id}"))
            .await
            .json();
        assert_eq!(after["documentType"], "w9");
        assert_eq!(after["coiType"], Value::Null);

        for body in [
            json!(["Array Co 2", "a@b.co", "plumbing"]),
            json!("x"),
            json!(7),
        ] {
            let res = server
                .post("/api/vendors")
                .add_header(h.clone(), v.clone())
                .json(&body)
                .await;
            assert_envelope(&res, 400, "invalid_body");
        }
        let vendors: Vec<Value> = get(&server, &ann, "/api/vendors").await.json();
        assert_eq!(vendors.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn file_names_lose_bidirectional_controls_and_extensions_come_from_the_last_component() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor_of(&server, &ann, "Names Co").await;
        let disguised = UploadSpec {
            file_name: "invoice\u{202E}fdp.exe.pdf",
            ..UploadSpec::pdf("other")
        };
        let res = upload(&server, &ann, &id, &disguised).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        assert_eq!(res.json::<Value>()["fileName"], "invoicefdp.exe.pdf");

        for name in ["../.pdf", ".pdf", "./etc/passwd"] {
            let spec = UploadSpec {
                file_name: name,
                ..UploadSpec::pdf("other")
            };
            let res = upload(&server, &ann, &id, &spec).await;
            let body = assert_envelope(&res, 422, "file_type_mismatch");
            let message = body["message"].as_str().unwrap();
            assert!(message.contains("needs an extension"), "{name}: {message}");
            assert!(!message.contains("passwd"), "{name}: {message}");
        }
        assert_eq!(stored_files(&ctx, &ann).await.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn private_answers_are_never_cached() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor_of(&server, &ann, "Cache Co").await;
        for path in [
            "/api/auth/me".to_string(),
            "/api/vendors".to_string(),
            format!("/api/vendors/{id}"),
            "/api/documents".to_string(),
            "/api/dashboard/stats".to_string(),
            "/api/vendors/NOPE0000".to_string(),
        ] {
            let res = get(&server, &ann, &path).await;
            assert_eq!(res.header("cache-control"), "no-store", "{path}");
        }
        let res = server.get("/api/vendors").await;
        assert_eq!(res.status_code(), 401);
        assert_eq!(res.header("cache-control"), "no-store");
    })
    .await;
}

/// Counts the events at ERROR, and the debug events that say a request was refused.
#[derive(Clone, Default)]
struct LevelCounter {
    errors: Arc<AtomicUsize>,
    refused: Arc<AtomicUsize>,
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for LevelCounter {
    fn on_event(
        &self,
        event: &tracing::Event<'_>,
        _ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        if *event.metadata().level() == tracing::Level::ERROR {
            self.errors.fetch_add(1, Ordering::SeqCst);
        }
        if *event.metadata().level() == tracing::Level::DEBUG
            && event.metadata().target().starts_with("vendorwatch")
        {
            self.refused.fetch_add(1, Ordering::SeqCst);
        }
    }
}

#[tokio::test]
async fn client_errors_are_not_logged_as_errors() {
    use tracing_subscriber::layer::SubscriberExt;
    let counter = LevelCounter::default();
    let subscriber = tracing_subscriber::registry().with(counter.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let (h, v) = bearer(&ann.token);
        let before = counter.errors.load(Ordering::SeqCst);
        assert_eq!(server.get("/api/vendors").await.status_code(), 401);
        assert_eq!(
            get(&server, &ann, "/api/vendors/NOPE0000")
                .await
                .status_code(),
            404
        );
        let res = server
            .post("/api/vendors")
            .add_header(h.clone(), v.clone())
            .json(&json!({}))
            .await;
        assert_eq!(res.status_code(), 422);
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&json!([]))
            .await;
        assert_eq!(res.status_code(), 400);
        assert_eq!(
            counter.errors.load(Ordering::SeqCst) - before,
            0,
            "a client's mistake is no fault of ours"
        );
        assert!(
            counter.refused.load(Ordering::SeqCst) >= 4,
            "each refusal is logged at debug"
        );
    })
    .await;
}

#[tokio::test]
async fn nul_characters_are_a_422_naming_their_field_before_the_database() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor_of(&server, &ann, "Nul Co").await;
        let (h, v) = bearer(&ann.token);
        let res = server
            .post("/api/vendors")
            .add_header(h.clone(), v.clone())
            .json(&json!({"name": "Pipe\u{0}Works", "email": "p@w.co", "serviceType": "plumbing"}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert!(body["errors"]["name"].is_array(), "{body}");
        let res = server
            .post("/api/vendors/renewal-requests")
            .add_header(h.clone(), v.clone())
            .json(&json!({"ids": [id.clone(), "\u{0}"]}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert!(body["errors"]["ids[1]"].is_array(), "{body}");
        for (path, field) in [
            ("/api/vendors?q=%00".to_string(), "q"),
            ("/api/documents?status=all&q=a%00b".to_string(), "q"),
            (format!("/api/vendors/{id}%00"), "path"),
            (
                "/api/validate-company-key?key=%00%00%00%00%00%00%00%00".to_string(),
                "key",
            ),
        ] {
            let res = get(&server, &ann, &path).await;
            let body = assert_envelope(&res, 422, "validation_failed");
            assert!(body["errors"][field].is_array(), "{path}: {body}");
        }
        let spec = UploadSpec {
            notes: Some("signed\u{0}"),
            ..UploadSpec::pdf("w9")
        };
        let res = upload(&server, &ann, &id, &spec).await;
        assert_envelope(&res, 422, "validation_failed");
        // Notes longer than the document's `maxLength` (5000) are refused as the update does.
        let long = "n".repeat(5001);
        let spec = UploadSpec {
            notes: Some(&long),
            ..UploadSpec::pdf("w9")
        };
        let res = upload(&server, &ann, &id, &spec).await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert!(body["errors"]["notes"].is_array(), "{body}");
        assert!(stored_files(&ctx, &ann).await.is_empty());
        let vendors: Vec<Value> = get(&server, &ann, "/api/vendors").await.json();
        assert_eq!(vendors.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn a_bad_token_is_not_logged_as_an_error() {
    use tracing_subscriber::layer::SubscriberExt;
    let counter = LevelCounter::default();
    let subscriber = tracing_subscriber::registry().with(counter.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    with_app(|server, _ctx| async move {
        let (h, v) = bearer("not.a.token");
        let res = server.get("/api/vendors").add_header(h, v).await;
        assert_envelope(&res, 401, "unauthorized");
        assert_eq!(counter.errors.load(Ordering::SeqCst), 0);
    })
    .await;
}

#[tokio::test]
async fn bodies_carry_only_their_known_fields_in_their_documented_forms() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor_of(&server, &ann, "Known Co").await;
        let (h, v) = bearer(&ann.token);
        let res = server
            .post("/api/vendors")
            .add_header(h.clone(), v.clone())
            .json(&json!({"name": "Extra Co", "email": "e@x.co", "serviceType": "other", "isAdmin": true}))
            .await;
        assert_envelope(&res, 400, "invalid_body");
        let long_email = format!("a@{}.com", vec!["b".repeat(60); 5].join("."));
        assert!(long_email.len() > 254);
        let res = server
            .post("/api/vendors")
            .add_header(h.clone(), v.clone())
            .json(&json!({"name": "Long Co", "email": long_email, "serviceType": "other"}))
            .await;
        assert_envelope(&res, 422, "validation_failed");
        let res = server
            .post("/api/auth/register")
            .json(&json!({"name": "Bo Bo", "email": long_email, "password": "secret-pass"}))
            .await;
        assert_envelope(&res, 422, "validation_failed");
        assert_eq!(
            get(&server, &ann, "/api/vendors").await.json::<Vec<Value>>().len(),
            1
        );

        let doc: Value = upload(&server, &ann, &id, &UploadSpec::pdf("w9")).await.json();
        let doc_id = doc["id"].as_str().unwrap();
        for date in ["2026-12-31garbage", "31/12/2026", "2026-02-30"] {
            let res = server
                .put(&format!("/api/documents/{doc_id}"))
                .add_header(h.clone(), v.clone())
                .json(&json!({"expirationDate": date}))
                .await;
            assert_envelope(&res, 422, "validation_failed");
        }
        let res = server
            .put(&format!("/api/documents/{doc_id}"))
            .add_header(h.clone(), v.clone())
            .json(&json!({"coiType": "AAA"}))
            .await;
        assert_envelope(&res, 422, "validation_failed");
        for path in [
            "/api/vendors?limit=9223372036854775808",
            "/api/documents?offset=9223372036854775808",
        ] {
            assert_envelope(&get(&server, &ann, path).await, 400, "bad_request");
        }
        let res = server
            .put(&format!("/api/documents/{doc_id}"))
            .add_header(h.clone(), v.clone())
            .json(&json!({"expirationDate": "2027-03-01T10:00:00Z"}))
            .await;
        assert_eq!(res.json::<Value>()["expirationDate"], "2027-03-01");

        let form = UploadSpec::pdf("other")
            .form()
            .add_text("vendorId", id.clone());
        let res = server
            .post(&format!("/api/vendors/{id}/documents"))
            .add_header(h.clone(), v.clone())
            .multipart(form)
            .await;
        assert_eq!(res.status_code(), 201, "vendorId is taken and ignored");
        let form = UploadSpec::pdf("w9").form().add_text("uploadedBy", "someone else");
        let res = server
            .post(&format!("/api/vendors/{id}/documents"))
            .add_header(h, v)
            .multipart(form)
            .await;
        assert_envelope(&res, 400, "invalid_upload");
        assert_eq!(stored_files(&ctx, &ann).await.len(), 2);
    })
    .await;
}
