//! The organization-wide lists: documents, activity, reminders, dashboard stats.

use serde_json::{json, Value};

use crate::support::{
    create_vendor, get, in_days, other_org, register, upload, with_app, UploadSpec,
};

#[tokio::test]
async fn documents_list_filters_by_status_type_and_text() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "List Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mut w9 = UploadSpec::pdf("w9");
        w9.file_name = "w9-2026.pdf";
        upload(&server, &ann, &id, &w9).await;
        let mut expired = UploadSpec::pdf("sales_tax");
        expired.expiration_date = Some(in_days(-3));
        upload(&server, &ann, &id, &expired).await;
        let mut soon = UploadSpec::pdf("coi");
        soon.coi_type = Some("automobile");
        soon.expiration_date = Some(in_days(20));
        upload(&server, &ann, &id, &soon).await;

        let res = get(&server, &ann, "/api/documents").await;
        assert_eq!(res.header("x-total-count"), "3");
        let by = |q: &str| {
            let server = &server;
            let ann = &ann;
            let q = q.to_string();
            async move {
                get(server, ann, &format!("/api/documents?{q}"))
                    .await
                    .json::<Vec<Value>>()
            }
        };
        assert_eq!(by("status=expired").await[0]["documentType"], "sales_tax");
        assert_eq!(by("status=expiring_soon").await[0]["coiType"], "automobile");
        assert_eq!(by("status=current").await[0]["documentType"], "w9");
        assert_eq!(by("type=coi").await.len(), 1);
        assert_eq!(by("q=W9-2026").await.len(), 1);
        assert_eq!(by("q=automobile").await.len(), 1);
        assert_eq!(by("q=100%25").await.len(), 0, "LIKE wildcards are literal");
        assert_eq!(
            get(&server, &ann, "/api/documents?type=passport")
                .await
                .status_code(),
            422
        );
        assert_eq!(
            get(&server, &ann, "/api/documents?limit=2")
                .await
                .json::<Vec<Value>>()
                .len(),
            2
        );
    })
    .await;
}

#[tokio::test]
async fn activity_log_is_newest_first_filterable_and_limited() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Log Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        upload(&server, &ann, &id, &UploadSpec::pdf("w9")).await;
        upload(&server, &ann, &id, &UploadSpec::pdf("vendor_agreement")).await;

        let res = get(&server, &ann, "/api/activity-logs?limit=2").await;
        assert_eq!(res.header("x-total-count"), "3");
        let two: Vec<Value> = res.json();
        assert_eq!(two.len(), 2);
        assert_eq!(two[0]["activityType"], "document_uploaded");
        assert!(two[0]["description"]
            .as_str()
            .unwrap()
            .contains("Vendor Agreement"));
        assert!(two[0]["description"].as_str().unwrap().contains("Log Co"));
        assert_eq!(two[0]["vendorId"], id.as_str());
        assert!(two[0]["createdAt"].as_str().unwrap().contains('T'));

        let uploads: Vec<Value> = get(&server, &ann, "/api/activity-logs?type=document_uploaded")
            .await
            .json();
        assert_eq!(uploads.len(), 2);
        let searched: Vec<Value> = get(&server, &ann, "/api/activity-logs?q=w9%20form")
            .await
            .json();
        assert_eq!(searched.len(), 1);
        assert_eq!(
            get(&server, &ann, "/api/activity-logs?type=party")
                .await
                .status_code(),
            422
        );
    })
    .await;
}

#[tokio::test]
async fn dashboard_stats_count_vendors_by_status_and_chart_documents() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let good = create_vendor(&server, &ann, "Good Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let soon = create_vendor(&server, &ann, "Soon Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mut w9 = UploadSpec::pdf("w9");
        w9.expiration_date = Some(in_days(200));
        upload(&server, &ann, &good, &w9).await;
        let mut coi = UploadSpec::pdf("coi");
        coi.coi_type = Some("general_liability");
        coi.expiration_date = Some(in_days(15));
        upload(&server, &ann, &soon, &coi).await;
        // Another organization's vendor and document count nowhere in Ann's figures.
        let bob = register(&server, "Bob Other", None).await;
        let theirs = create_vendor(&server, &bob, "Other Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        upload(&server, &bob, &theirs, &coi).await;

        let stats: Value = get(&server, &ann, "/api/dashboard/stats").await.json();
        assert_eq!(stats["totalVendors"], 2);
        assert_eq!(stats["compliantVendors"], 1);
        assert_eq!(stats["expiringVendors"], 1);
        assert_eq!(stats["nonCompliantVendors"], 0);
        assert_eq!(
            stats["documentsByStatus"],
            json!({"current": 1, "expiringSoon": 1, "expired": 0, "missing": 10}),
            "each vendor requests 6 documents by default and has one"
        );
        let spans: Vec<u64> = stats["upcomingExpirations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["count"].as_u64().unwrap())
            .collect();
        assert_eq!(spans, [0, 1, 0, 0, 0, 0], "the COI expires on day 15");
        let weeks = stats["expirationsNext90Days"].as_array().unwrap();
        assert_eq!(weeks.len(), 13);
        assert_eq!(weeks[2]["count"], 1, "the COI expires in the third week");
        assert_eq!(
            weeks
                .iter()
                .map(|w| w["count"].as_u64().unwrap())
                .sum::<u64>(),
            1
        );

        let mallory = other_org(&server).await;
        let theirs: Value = get(&server, &mallory, "/api/dashboard/stats").await.json();
        assert_eq!(theirs["totalVendors"], 0);
        assert!(get(&server, &mallory, "/api/reminders")
            .await
            .json::<Vec<Value>>()
            .is_empty());
        assert!(get(&server, &mallory, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());
    })
    .await;
}
