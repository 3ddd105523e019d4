//! With no SMTP server configured, emails are written to the outbox folder as .eml files.

use loco_rs::config::Config;
use serde_json::json;

use crate::support::{register, with_app_config};

#[tokio::test]
async fn without_smtp_a_reset_email_is_written_to_the_outbox() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = dir.path().to_path_buf();
    let edit = {
        let outbox = outbox.clone();
        move |config: &mut Config| {
            config.mailer = None;
            config.settings.as_mut().unwrap()["mail"]["outbox_dir"] =
                json!(outbox.display().to_string());
        }
    };
    with_app_config(edit, |server, ctx| async move {
        assert!(ctx.mailer.is_none(), "no mail transport configured");
        let ann = register(&server, "Ann Lee", None).await;
        let res = server
            .post("/api/auth/forgot")
            .json(&json!({"email": ann.email}))
            .await;
        assert_eq!(res.status_code(), 200);
        let files: Vec<_> = std::fs::read_dir(&outbox)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].extension().unwrap(), "eml");
        let eml = std::fs::read_to_string(&files[0]).unwrap();
        assert!(eml.contains(&format!("To: {}", ann.email)));
        assert!(eml.contains("Subject: Reset your Vendorwatch password"));
        assert!(eml.contains("multipart/alternative"));
        assert!(eml.contains("text/html"));
    })
    .await;
    drop(dir);
}
