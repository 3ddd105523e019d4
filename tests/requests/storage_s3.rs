//! Documents on S3-compatible storage: a real S3 API (moto's server, started by the test
//! command) behind Loco's storage.

use std::path::Path;

use serde_json::{json, Value};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, register, service_env, upload, with_app_config,
    UploadSpec,
};

#[tokio::test]
async fn documents_round_trip_through_s3_and_leave_nothing_when_refused_or_deleted() {
    let Some(endpoint) = service_env("TEST_S3_ENDPOINT", "the S3 storage tests") else {
        return;
    };
    let bucket = std::env::var("TEST_S3_BUCKET").unwrap_or_else(|_| "vendorwatch-test".to_string());
    let edit = move |config: &mut loco_rs::config::Config| {
        let settings = config.settings.as_mut().unwrap();
        settings["storage"] = json!({
            "kind": "s3",
            "local_dir": "unused",
            "s3": {"bucket": bucket, "region": "us-east-1", "endpoint": endpoint,
                   "access_key_id": "test", "secret_access_key": "test"}
        });
    };
    with_app_config(edit, |server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Cloud Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();

        let refused = UploadSpec {
            file_name: "setup.pdf",
            bytes: crate::fixtures::exe(),
            ..UploadSpec::pdf("w9")
        };
        assert_envelope(
            &upload(&server, &ann, &id, &refused).await,
            415,
            "unsupported_file_type",
        );

        let res = upload(&server, &ann, &id, &UploadSpec::pdf("w9")).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let doc: Value = res.json();
        let doc_id = doc["id"].as_str().unwrap();
        let download = get(&server, &ann, &format!("/api/documents/{doc_id}/download")).await;
        assert_eq!(download.as_bytes().to_vec(), crate::fixtures::pdf());

        let user = vendorwatch::models::users::Model::find_by_email(&ctx.db, &ann.email)
            .await
            .unwrap();
        let org = user.organization(&ctx.db).await.unwrap();
        let prefix = format!("documents/{}/", org.pid);
        let objects = ctx.storage.list(Path::new(&prefix), true).await.unwrap();
        let files: Vec<_> = objects.iter().filter(|e| !e.is_dir).collect();
        assert_eq!(
            files.len(),
            1,
            "only the accepted file is in the bucket: {objects:?}"
        );

        let (h, v) = bearer(&ann.token);
        assert_eq!(
            server
                .delete(&format!("/api/documents/{doc_id}"))
                .add_header(h, v)
                .await
                .status_code(),
            204
        );
        let objects = ctx
            .storage
            .list(Path::new(&prefix), true)
            .await
            .unwrap_or_default();
        assert!(
            objects.iter().all(|e| e.is_dir),
            "the object is gone: {objects:?}"
        );
    })
    .await;
}
