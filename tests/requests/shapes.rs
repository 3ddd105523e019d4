//! The shapes of the answers outside clients rely on (the `OpenAPI` document), as insta
//! snapshots: ids, keys, tokens, instants and dates that depend on today are redacted,
//! everything else is as sent.

use insta::assert_json_snapshot;
use serde_json::Value;

use crate::support::{create_vendor, get, in_days, register, upload, with_app, UploadSpec};

#[tokio::test]
async fn the_answers_of_the_main_screens_keep_their_shape() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", Some("Lee Supplies")).await;
        let me: Value = get(&server, &ann, "/api/auth/me").await.json();
        assert_json_snapshot!("user", me, { ".id" => "[id]", ".email" => "[email]" });

        let vendor = create_vendor(&server, &ann, "Pipe Works").await;
        let id = vendor["id"].as_str().unwrap().to_string();
        assert_json_snapshot!("vendor", vendor, {
            ".id" => "[key]", ".companyKey" => "[key]",
            ".createdAt" => "[instant]", ".updatedAt" => "[instant]",
        });

        let mut coi = UploadSpec::pdf("coi");
        coi.coi_type = Some("general_liability");
        coi.expiration_date = Some(in_days(20));
        coi.notes = Some("Policy 42");
        let doc: Value = upload(&server, &ann, &id, &coi).await.json();
        assert_json_snapshot!("document", doc, {
            ".id" => "[id]", ".vendorId" => "[key]", ".uploadedAt" => "[instant]",
            ".expirationDate" => "[today+20]",
        });

        let stats: Value = get(&server, &ann, "/api/dashboard/stats").await.json();
        assert_json_snapshot!("dashboard_stats", stats, {
            ".expirationsNext90Days[].weekStart" => "[date]",
            ".upcomingExpirations[].start" => "[date]",
            ".upcomingExpirations[].end" => "[date]",
        });

        let activity: Value = get(&server, &ann, "/api/activity-logs").await.json();
        assert_json_snapshot!("activity_logs", activity, {
            "[].id" => "[id]", "[].createdAt" => "[instant]", "[].vendorId" => "[key]",
            "[].documentId" => "[id]", "[].actor.id" => "[id]",
        });

        let reminders: Value = get(&server, &ann, "/api/reminders").await.json();
        assert_json_snapshot!("reminders", reminders, {
            "[].id" => "[id]", "[].reminderDate" => "[date]",
            "[].document.id" => "[id]", "[].document.vendorId" => "[key]",
            "[].document.expirationDate" => "[today+20]",
        });

        let portal: Value = server
            .get(&format!("/api/validate-company-key?key={id}"))
            .await
            .json();
        assert_json_snapshot!("portal_vendor", portal);
    })
    .await;
}
