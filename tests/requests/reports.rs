//! The Professional plan's reports: refused on Free, built from one snapshot a day (a day
//! without one is reported missing), the vendors that are not compliant and why, expirations
//! ahead, vendor responsiveness, and every report as CSV.

use axum_test::multipart::{MultipartForm, Part};
use chrono::Duration;
use sea_orm::{
    ActiveModelTrait, ActiveValue, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter,
};
use serde_json::{json, Value};
use vendorwatch::{
    app::App,
    models::{
        _entities::{
            documents, organizations, reminder_deliveries, reminders, report_snapshots, users,
        },
        documents::today,
    },
};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, in_days, make_professional, org_of, register,
    upload, with_app, UploadSpec,
};

const REPORTS: [&str; 4] = [
    "/api/reports/compliance",
    "/api/reports/expirations",
    "/api/reports/non-compliant",
    "/api/reports/responsiveness",
];

#[tokio::test]
async fn reports_are_refused_on_free_and_without_a_token() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Free", Some("Free Co")).await;
        for path in REPORTS {
            let body = assert_envelope(&get(&server, &ann, path).await, 402, "plan_required");
            assert!(body["message"]
                .as_str()
                .unwrap()
                .contains("Professional plan"));
            assert_envelope(&server.get(path).await, 401, "unauthorized");
            let bad = get(&server, &ann, &format!("{path}?format=xml")).await;
            assert_envelope(&bad, 422, "validation_failed");
        }
        assert_eq!(
            report_snapshots::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            0,
            "nothing recorded"
        );
    })
    .await;
}

#[tokio::test]
async fn the_trend_has_one_snapshot_a_day_and_says_which_days_have_none() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Trend", Some("Trend Co")).await;
        let org = make_professional(&ctx, &ann).await;
        create_vendor(&server, &ann, "No Papers").await;
        let day = today();
        let mut active: organizations::ActiveModel = org.clone().into();
        active.created_at = ActiveValue::Set((chrono::Utc::now() - Duration::days(4)).into());
        active.update(&ctx.db).await.unwrap();
        let earlier = report_snapshots::ActiveModel {
            organization_id: ActiveValue::Set(org.id),
            day: ActiveValue::Set(day - Duration::days(3)),
            vendors_current: ActiveValue::Set(1),
            vendors_expiring_soon: ActiveValue::Set(0),
            vendors_expired: ActiveValue::Set(0),
            vendors_missing: ActiveValue::Set(1),
            documents_current: ActiveValue::Set(2),
            documents_expiring_soon: ActiveValue::Set(0),
            documents_expired: ActiveValue::Set(0),
            created_at: ActiveValue::Set(chrono::Utc::now().into()),
            updated_at: ActiveValue::Set(chrono::Utc::now().into()),
            ..Default::default()
        };
        earlier.insert(&ctx.db).await.unwrap();

        let first: Value = get(&server, &ann, "/api/reports/compliance?days=30")
            .await
            .json();
        let second: Value = get(&server, &ann, "/api/reports/compliance").await.json();
        assert_eq!(
            first, second,
            "opening it again the same day changes nothing"
        );
        assert_eq!(
            report_snapshots::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            1,
            "reading the report writes nothing: today's point is figured, not recorded"
        );
        let points = first["points"].as_array().unwrap();
        assert_eq!(points.len(), 2);
        assert_eq!(points[1]["date"], day.to_string());
        assert_eq!(points[1]["vendorsMissing"], 1);
        assert_eq!(points[1]["complianceRate"], 0.0);
        assert_eq!(points[0]["complianceRate"], 50.0);
        let missing: Vec<String> = [4, 2, 1]
            .iter()
            .map(|d| (day - Duration::days(*d)).to_string())
            .collect();
        assert_eq!(
            first["missingDays"],
            json!(missing),
            "no numbers invented for days without a snapshot"
        );
        assert_eq!(
            first["rate"],
            json!({"current": 0.0, "start": 50.0, "change": -50.0})
        );

        for bad in ["days=7", "format=xml"] {
            let res = get(&server, &ann, &format!("/api/reports/compliance?{bad}")).await;
            assert_envelope(&res, 422, "validation_failed");
        }
        let csv = get(&server, &ann, "/api/reports/compliance?format=csv").await;
        assert!(csv
            .header("content-type")
            .to_str()
            .unwrap()
            .starts_with("text/csv"));
        assert!(
            csv.text().starts_with("\u{feff}Date,Vendors Current,"),
            "{}",
            csv.text()
        );
    })
    .await;
}

#[tokio::test]
async fn the_daily_task_takes_one_snapshot_per_organization_however_often_it_runs() {
    with_app(|server, ctx| async move {
        register(&server, "Ann One", Some("One Co")).await;
        register(&server, "Bob Two", Some("Two Co")).await;
        for _ in 0..2 {
            loco_rs::boot::run_task::<App>(
                &ctx,
                Some(&"report_snapshots".to_string()),
                &loco_rs::task::Vars::default(),
            )
            .await
            .unwrap();
        }
        assert_eq!(
            report_snapshots::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            2
        );
    })
    .await;
}

#[tokio::test]
async fn non_compliant_vendors_come_with_their_reasons_and_filters() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Why", Some("Why Co")).await;
        let mallory = register(&server, "Mallory Why", Some("Other Co")).await;
        make_professional(&ctx, &ann).await;
        make_professional(&ctx, &mallory).await;
        create_vendor(&server, &mallory, "Their Vendor").await;
        let bare = create_vendor(&server, &ann, "Bare Plumbing").await;
        let (h, v) = bearer(&ann.token);
        let mut body = crate::support::vendor_body("Fresh Electric");
        body["serviceType"] = json!("electrical");
        body["requiredDocuments"] = json!(["w9"]);
        let fresh = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&body)
            .await
            .json::<Value>();
        let mut w9 = UploadSpec::pdf("w9");
        w9.expiration_date = Some(in_days(10));
        assert_eq!(
            upload(&server, &ann, fresh["id"].as_str().unwrap(), &w9)
                .await
                .status_code(),
            201
        );

        let rows: Value = get(&server, &ann, "/api/reports/non-compliant")
            .await
            .json();
        let names: Vec<&str> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            vec!["Bare Plumbing", "Fresh Electric"],
            "only this organization's, by name"
        );
        assert_eq!(rows[0]["id"], bare["id"]);
        assert_eq!(rows[0]["status"], "missing");
        assert!(
            rows[0]["reasons"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r == "W-9 Form is missing"),
            "{rows}"
        );
        assert_eq!(rows[1]["status"], "expiring_soon");
        let reason = rows[1]["reasons"][0].as_str().unwrap();
        assert!(
            reason.starts_with("W-9 Form expires on") && reason.ends_with("(in 10 days)"),
            "{reason}"
        );

        let electrical: Value = get(
            &server,
            &ann,
            "/api/reports/non-compliant?serviceType=electrical",
        )
        .await
        .json();
        assert_eq!(electrical.as_array().unwrap().len(), 1);
        let missing: Value = get(&server, &ann, "/api/reports/non-compliant?status=missing")
            .await
            .json();
        assert_eq!(missing.as_array().unwrap().len(), 1);
        assert_envelope(
            &get(&server, &ann, "/api/reports/non-compliant?status=current").await,
            422,
            "validation_failed",
        );
        let csv = get(&server, &ann, "/api/reports/non-compliant?format=csv")
            .await
            .text();
        assert!(csv.starts_with("\u{feff}Vendor,Company Key,Service Type,Status,Reasons"));
        assert!(!csv.contains("Their Vendor"));

        let weeks: Value = get(&server, &ann, "/api/reports/expirations").await.json();
        let weeks = weeks["weeks"].as_array().unwrap();
        assert_eq!(weeks.len(), 12);
        assert_eq!(weeks[1]["count"], 1, "10 days ahead is in the second week");
        assert_eq!(weeks[1]["vendors"][0]["name"], "Fresh Electric");
        assert_eq!(
            weeks
                .iter()
                .map(|w| w["count"].as_u64().unwrap())
                .sum::<u64>(),
            1
        );
    })
    .await;
}

#[tokio::test]
async fn responsiveness_shows_when_a_vendor_answered_a_renewal_request() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Ask", Some("Ask Co")).await;
        make_professional(&ctx, &ann).await;
        let quick = create_vendor(&server, &ann, "Quick Vendor").await;
        let slow = create_vendor(&server, &ann, "Slow Vendor").await;
        let ids = json!({"ids": [quick["id"], slow["id"]]});
        let (h, v) = bearer(&ann.token);
        let res = server
            .post("/api/vendors/renewal-requests")
            .add_header(h, v)
            .json(&ids)
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        portal_upload(&server, &quick).await;

        let rows: Value = get(&server, &ann, "/api/reports/responsiveness")
            .await
            .json();
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), 2);
        let answer = |name: &str| {
            rows.iter()
                .find(|r| r["vendorName"] == name)
                .unwrap()
                .clone()
        };
        assert!(answer("Quick Vendor")["uploadedAt"].is_string());
        assert_eq!(answer("Quick Vendor")["daysToUpload"], 0);
        assert_eq!(answer("Slow Vendor")["uploadedAt"], Value::Null);
        let csv = get(&server, &ann, "/api/reports/responsiveness?format=csv")
            .await
            .text();
        assert_eq!(csv.lines().count(), 3);
    })
    .await;
}

/// The reminder emails to vendors count as requests too (not those to the organization's own
/// users), each named by the document it was about; another organization's requests and the
/// vendors never asked stay out.
#[tokio::test]
async fn responsiveness_counts_reminder_emails_and_only_the_organizations_vendors() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Mail", Some("Mail Co")).await;
        make_professional(&ctx, &ann).await;
        let emailed = create_vendor(&server, &ann, "Emailed Vendor").await;
        let asked = create_vendor(&server, &ann, "Asked Vendor").await;
        create_vendor(&server, &ann, "Never Asked").await;
        let coi = UploadSpec {
            coi_type: Some("general_liability"),
            expiration_date: Some(in_days(20)),
            ..UploadSpec::pdf("coi")
        };
        let res = upload(&server, &ann, emailed["id"].as_str().unwrap(), &coi).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let pid = uuid::Uuid::parse_str(res.json::<Value>()["id"].as_str().unwrap()).unwrap();
        let document = documents::Entity::find()
            .filter(documents::Column::Pid.eq(pid))
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        let sent_at = chrono::Utc::now().fixed_offset() - Duration::hours(50);
        record_reminder_emails(&ctx, &document, sent_at).await;
        let (h, v) = bearer(&ann.token);
        let res = server
            .post("/api/vendors/renewal-requests")
            .add_header(h, v)
            .json(&json!({"ids": [asked["id"]]}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let bob = register(&server, "Bob Mail", Some("Other Mail Co")).await;
        make_professional(&ctx, &bob).await;
        let his = create_vendor(&server, &bob, "His Vendor").await;
        let (h, v) = bearer(&bob.token);
        let res = server
            .post("/api/vendors/renewal-requests")
            .add_header(h, v)
            .json(&json!({"ids": [his["id"]]}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        portal_upload(&server, &emailed).await;

        let rows: Value = get(&server, &ann, "/api/reports/responsiveness")
            .await
            .json();
        let seen: Vec<(&str, &str, &str, &Value)> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["vendorName"].as_str().unwrap(),
                    r["vendorId"].as_str().unwrap(),
                    r["documentLabel"].as_str().unwrap(),
                    &r["daysToUpload"],
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "Asked Vendor",
                    asked["id"].as_str().unwrap(),
                    "Documents requested",
                    &Value::Null
                ),
                (
                    "Emailed Vendor",
                    emailed["id"].as_str().unwrap(),
                    "General Liability",
                    &json!(2)
                ),
            ],
            "newest first; the organization's own reminder and Bob's request left out"
        );
    })
    .await;
}

/// A vendor's upload through the portal (a W-9), as the vendor would make it.
async fn portal_upload(server: &axum_test::TestServer, vendor: &Value) {
    let form = MultipartForm::new()
        .add_text("companyKey", vendor["id"].as_str().unwrap())
        .add_text("documentType", "w9")
        .add_part(
            "file",
            Part::bytes(crate::fixtures::pdf())
                .file_name("w9.pdf")
                .mime_type("application/pdf"),
        );
    let res = server
        .post("/api/vendor-upload-document")
        .multipart(form)
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
}

/// A reminder about `document` sent at `sent_at` to its vendor and to the organization's user,
/// recorded as the reminder sweep records its emails.
async fn record_reminder_emails(
    ctx: &loco_rs::app::AppContext,
    document: &documents::Model,
    sent_at: chrono::DateTime<chrono::FixedOffset>,
) {
    let reminder = reminders::ActiveModel {
        pid: ActiveValue::Set(uuid::Uuid::new_v4()),
        reminder_date: ActiveValue::Set(sent_at.date_naive()),
        offset_days: ActiveValue::Set(30),
        sent_at: ActiveValue::Set(Some(sent_at)),
        organization_id: ActiveValue::Set(document.organization_id),
        document_id: ActiveValue::Set(document.id),
        created_at: ActiveValue::Set(sent_at),
        updated_at: ActiveValue::Set(sent_at),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await
    .unwrap();
    for (kind, recipient) in [
        ("vendor", "vendor@example.com"),
        ("organization", "ann@example.com"),
    ] {
        reminder_deliveries::ActiveModel {
            kind: ActiveValue::Set(kind.to_string()),
            recipient: ActiveValue::Set(recipient.to_string()),
            reminder_id: ActiveValue::Set(reminder.id),
            created_at: ActiveValue::Set(sent_at),
            updated_at: ActiveValue::Set(sent_at),
            ..Default::default()
        }
        .insert(&ctx.db)
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn a_user_turns_the_weekly_summary_off_and_on() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Prefs", Some("Prefs Co")).await;
        let (h, v) = bearer(&ann.token);
        let me: Value = get(&server, &ann, "/api/auth/me").await.json();
        assert_eq!(me["weeklySummary"], true, "on by default");
        let res = server
            .put("/api/account/preferences")
            .add_header(h.clone(), v.clone())
            .json(&json!({"weeklySummary": false}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["weeklySummary"], false);
        let me: Value = get(&server, &ann, "/api/auth/me").await.json();
        assert_eq!(me["weeklySummary"], false);
        assert_envelope(
            &server
                .put("/api/account/preferences")
                .json(&json!({"weeklySummary": true}))
                .await,
            401,
            "unauthorized",
        );
        let bad = server
            .put("/api/account/preferences")
            .add_header(h, v)
            .json(&json!({"weeklySummary": "yes"}))
            .await;
        assert_envelope(&bad, 400, "invalid_body");
        let (h, v) = bearer(&ann.token);
        let null = server
            .put("/api/account/preferences")
            .add_header(h.clone(), v.clone())
            .json(&json!({"reminderEmails": false, "weeklySummary": null}))
            .await;
        assert_envelope(&null, 400, "invalid_body");
        let me: Value = get(&server, &ann, "/api/auth/me").await.json();
        assert_eq!(me["weeklySummary"], false, "a bad request changed nothing");
        assert_eq!(me["reminderEmails"], true, "a bad request changed nothing");
        let res = server
            .put("/api/account/preferences")
            .add_header(h, v)
            .json(&json!({"reminderEmails": false}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["reminderEmails"], false);
        assert_eq!(
            res.json::<Value>()["weeklySummary"],
            false,
            "left as it was"
        );
    })
    .await;
}

/// Two vendors short of a set (one expiring, one whose documents are all current): the
/// non-compliant report and its CSV name their gaps.
async fn gaps_in_the_report(
    server: &loco_rs::TestServer,
    ann: &crate::support::Account,
    vendor: &Value,
) {
    // Two vendors short of a set: one expiring, one whose documents are all current.
    let covered = create_vendor(server, ann, "Covered Co").await;
    let covered_key = covered["id"].as_str().unwrap();
    let res = upload(server, ann, covered_key, &UploadSpec::pdf("w9")).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let (h, v) = bearer(&ann.token);
    let set: Value = server
        .post("/api/requirement-sets")
        .add_header(h.clone(), v.clone())
        .json(&json!({"name": "Drivers", "lines": [{"line": "automobile"}]}))
        .await
        .json();
    let res = server
        .post("/api/vendors/requirement-set")
        .add_header(h, v)
        .json(&json!({"ids": [vendor["id"], covered_key], "requirementSetId": set["id"]}))
        .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    let report: Vec<Value> = get(server, ann, "/api/reports/non-compliant").await.json();
    let named: Vec<(&str, &str, &Value)> = report
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
                &r["gaps"],
            )
        })
        .collect();
    let gap = json!(["No automobile liability on file."]);
    assert_eq!(
        named,
        [
            ("Covered Co", "current", &gap),
            ("Soon Expiring", "expiring_soon", &gap)
        ],
        "a current vendor is listed for its gaps alone"
    );
    let csv = get(server, ann, "/api/reports/non-compliant?format=csv")
        .await
        .text();
    assert!(csv.contains("No automobile liability on file."), "{csv}");

    // Waived for the expiring vendor: listed still (for its date), the gap with its waiver.
    let (h, v) = bearer(&ann.token);
    let res = server
        .post(&format!(
            "/api/vendors/{}/waivers",
            vendor["id"].as_str().unwrap()
        ))
        .add_header(h, v)
        .json(&json!({"line": "automobile", "kind": "missing_line",
            "reason": "No vehicles on site", "until": "2099-12-31"}))
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let report: Vec<Value> = get(server, ann, "/api/reports/non-compliant").await.json();
    let soon = report
        .iter()
        .find(|r| r["name"] == "Soon Expiring")
        .unwrap();
    assert_eq!(soon["gaps"], json!([]));
    assert_eq!(
        soon["waived"],
        json!([
            "No automobile liability on file. Waived by Ann Weekly until \
            Dec 31, 2099: No vehicles on site"
        ])
    );
    let csv = get(server, ann, "/api/reports/non-compliant?format=csv")
        .await
        .text();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with("Reasons,Gaps,Waived Gaps"),
        "{csv}"
    );
    assert!(csv.contains("Waived by Ann Weekly"), "{csv}");
}

#[tokio::test]
async fn the_weekly_summary_goes_once_a_week_to_each_user_who_wants_it() {
    use loco_rs::bgworker::BackgroundWorker;
    use vendorwatch::workers::weekly_summary::{WeeklySummaryArgs, WeeklySummaryWorker};
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Weekly", Some("Weekly Co")).await;
        let bob = register(&server, "Bob Free", Some("Free Weekly Co")).await;
        let org = make_professional(&ctx, &ann).await;
        let vendor = create_vendor(&server, &ann, "Soon Expiring").await;
        let mut spec = UploadSpec::pdf("w9");
        spec.expiration_date = Some(in_days(3));
        assert_eq!(
            upload(&server, &ann, vendor["id"].as_str().unwrap(), &spec)
                .await
                .status_code(),
            201
        );
        gaps_in_the_report(&server, &ann, &vendor).await;

        let quiet = users::ActiveModel {
            email: ActiveValue::Set("quiet@example.com".into()),
            password: ActiveValue::Set("unused".into()),
            name: ActiveValue::Set("Quiet Member".into()),
            role: ActiveValue::Set("user".into()),
            organization_id: ActiveValue::Set(org.id),
            weekly_summary: ActiveValue::Set(false),
            ..Default::default()
        };
        quiet.insert(&ctx.db).await.unwrap();
        let bob_org = org_of(&ctx, &bob).await;

        let worker = WeeklySummaryWorker::build(&ctx);
        for _ in 0..2 {
            worker
                .perform(WeeklySummaryArgs {
                    organization_id: org.id,
                    day: None,
                })
                .await
                .unwrap();
            worker
                .perform(WeeklySummaryArgs {
                    organization_id: bob_org.id,
                    day: None,
                })
                .await
                .unwrap();
        }
        let messages = ctx.mailer.as_ref().unwrap().deliveries().messages;
        assert_eq!(
            messages.len(),
            1,
            "one email, to the one Professional user who wants it: {messages:#?}"
        );
        assert!(messages[0].contains(&format!("To: {}", ann.email)));
        let parts = crate::support::email_parts(&messages[0]);
        assert!(
            parts.contains("Weekly compliance summary for Weekly Co"),
            "{parts}"
        );
        assert!(
            parts.contains("Soon Expiring: W9 Form"),
            "the week's expirations are listed: {parts}"
        );
        assert!(
            parts.contains("Short of their insurance requirements")
                && parts.contains("Covered Co: No automobile liability on file."),
            "the vendors with gaps are named: {parts}"
        );
    })
    .await;
}
