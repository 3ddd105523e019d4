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

#[tokio::test]
async fn without_smtp_the_weekly_summary_in_the_outbox_has_its_unsubscribe_headers() {
    use loco_rs::bgworker::BackgroundWorker;
    use vendorwatch::workers::weekly_summary::{WeeklySummaryArgs, WeeklySummaryWorker};
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
        let ann = register(&server, "Ann Weekly", Some("Outbox Weekly Co")).await;
        let org = crate::support::make_professional(&ctx, &ann).await;
        WeeklySummaryWorker::build(&ctx)
            .perform(WeeklySummaryArgs {
                organization_id: org.id,
                day: None,
            })
            .await
            .unwrap();
        let files: Vec<_> = std::fs::read_dir(&outbox)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        let eml = std::fs::read_to_string(&files[0]).unwrap();
        assert!(
            eml.contains("\r\nList-Unsubscribe: <http://localhost:5150/unsubscribe/"),
            "{eml}"
        );
        assert!(
            eml.contains("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"),
            "{eml}"
        );
        assert!(
            eml.contains("\r\nReply-To: support@vendorwatch.app\r\n"),
            "{eml}"
        );
    })
    .await;
    drop(dir);
}
