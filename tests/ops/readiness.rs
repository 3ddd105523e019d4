//! `/_health` answers while the process lives; `/_readiness` names the database, the queue and
//! the file storage, and is 503 while one of them does not answer.

use serde_json::json;

use crate::support::with_app_config;

#[tokio::test]
async fn health_is_the_process_and_readiness_names_each_dependency() {
    with_app_config(
        |_| {},
        |server, _ctx| async move {
            for path in ["/_ping", "/_health"] {
                let res = server.get(path).await;
                assert_eq!(res.status_code(), 200, "{path}");
                assert_eq!(res.json::<serde_json::Value>(), json!({"ok": true}));
            }
            let res = server.get("/_readiness").await;
            assert_eq!(res.status_code(), 200, "{}", res.text());
            let body: serde_json::Value = res.json();
            assert_eq!(body["ok"], true);
            assert_eq!(body["checks"]["database"], "ok");
            assert_eq!(body["checks"]["storage"], "ok");
            // The tests run jobs in the foreground: no queue to ask.
            assert_eq!(body["checks"]["queue"], "not_configured");
        },
    )
    .await;
}

#[tokio::test]
async fn readiness_is_503_naming_the_storage_that_does_not_answer() {
    // An S3 endpoint nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let edit = move |config: &mut loco_rs::config::Config| {
        config.settings.as_mut().unwrap()["storage"] = json!({
            "kind": "s3",
            "local_dir": "unused",
            "s3": {"bucket": "vendorwatch-test", "region": "us-east-1", "endpoint": endpoint,
                   "access_key_id": "test", "secret_access_key": "test"}
        });
    };
    with_app_config(edit, |server, _ctx| async move {
        let res = server.get("/_readiness").await;
        assert_eq!(res.status_code(), 503, "{}", res.text());
        let body: serde_json::Value = res.json();
        assert_eq!(body["ok"], false);
        assert_eq!(body["checks"]["storage"], "unavailable");
        assert_eq!(body["checks"]["database"], "ok");
        // Still alive: a restart would not help.
        assert_eq!(server.get("/_health").await.status_code(), 200);
    })
    .await;
}
