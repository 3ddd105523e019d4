//! Each organization's "today" is its date in its own time zone (docs/product.md, "Time
//! zones"): asked at sign-up, changeable on the Account page, and read by statuses, the
//! dashboard (and its kept answer) and the reports. The app's clock is fixed per test
//! (`vendorwatch::infra::clock::Clock`) to stand at chosen instants.

use chrono::{DateTime, TimeZone, Utc};
use loco_rs::{app::AppContext, TestServer};
use serde_json::{json, Value};
use vendorwatch::infra::clock::Clock;

use crate::support::{
    assert_envelope, bearer, count_orgs, count_users, create_vendor, email, get, upload, with_app,
    Account, UploadSpec, PASSWORD,
};

fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
}

fn stand_at(ctx: &AppContext, now: DateTime<Utc>) {
    ctx.shared_store.insert(Clock::fixed(now));
}

/// Registers with the browser's time zone `zone`.
async fn register_in(server: &TestServer, zone: &str) -> Account {
    let email = email("zone");
    let res = server
        .post("/api/auth/register")
        .json(
            &json!({"name": "Zoe Zone", "email": email, "password": PASSWORD,
            "company": "Zone Co", "timeZone": zone}),
        )
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let body: Value = res.json();
    assert_eq!(body["user"]["timeZone"], zone);
    Account {
        token: body["token"].as_str().unwrap().to_string(),
        user: body["user"].clone(),
        email,
    }
}

/// A vendor with one COI expiring on `date`; returns the document's id.
async fn coi_expiring(server: &TestServer, account: &Account, date: &str) -> String {
    let vendor = create_vendor(server, account, "Coast Plumbing").await;
    let spec = UploadSpec {
        coi_type: Some("general_liability"),
        expiration_date: Some(date.to_string()),
        ..UploadSpec::pdf("coi")
    };
    let res = upload(server, account, vendor["id"].as_str().unwrap(), &spec).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json::<Value>()["id"].as_str().unwrap().to_string()
}

async fn status(server: &TestServer, account: &Account, doc: &str) -> String {
    let res = get(server, account, &format!("/api/documents/{doc}")).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    res.json::<Value>()["status"].as_str().unwrap().to_string()
}

async fn expired_on_dashboard(server: &TestServer, account: &Account) -> Value {
    get(server, account, "/api/dashboard/stats")
        .await
        .json::<Value>()["documentsByStatus"]["expired"]
        .clone()
}

#[tokio::test]
async fn los_angeles_sees_a_certificate_expire_at_its_own_midnight() {
    with_app(|server, ctx| async move {
        let la = register_in(&server, "America/Los_Angeles").await;
        let utc = register_in(&server, "UTC").await;
        let la_doc = coi_expiring(&server, &la, "2027-04-01").await;
        let utc_doc = coi_expiring(&server, &utc, "2027-04-01").await;

        // 00:30 UTC on April 1 is 17:30 on March 31 in Los Angeles (PDT).
        stand_at(&ctx, at(2027, 4, 1, 0, 30));
        assert_eq!(status(&server, &utc, &utc_doc).await, "expired");
        assert_eq!(
            status(&server, &la, &la_doc).await,
            "expiring_soon",
            "in Los Angeles it is still March 31"
        );
        assert_eq!(expired_on_dashboard(&server, &la).await, 0);
        let listed = get(&server, &la, "/api/documents?status=expired").await;
        assert_eq!(listed.json::<Vec<Value>>().len(), 0);

        // 07:30 UTC, the same UTC day, is 00:30 on April 1 in Los Angeles: the kept dashboard
        // answer of 06:59 turns over at Los Angeles' midnight.
        stand_at(&ctx, at(2027, 4, 1, 6, 59));
        assert_eq!(expired_on_dashboard(&server, &la).await, 0, "23:59 local");
        stand_at(&ctx, at(2027, 4, 1, 7, 30));
        assert_eq!(status(&server, &la, &la_doc).await, "expired");
        assert_eq!(expired_on_dashboard(&server, &la).await, 1, "00:30 local");
        let listed = get(&server, &la, "/api/documents?status=expired").await;
        assert_eq!(listed.json::<Vec<Value>>().len(), 1);
    })
    .await;
}

#[tokio::test]
async fn auckland_sees_its_day_roll_over_before_utc_does() {
    with_app(|server, ctx| async move {
        let auckland = register_in(&server, "Pacific/Auckland").await;
        let doc = coi_expiring(&server, &auckland, "2027-04-01").await;
        // 10:59 UTC on March 31 is 23:59 in Auckland (NZDT, +13); 11:00 UTC is its April 1.
        stand_at(&ctx, at(2027, 3, 31, 10, 59));
        assert_eq!(status(&server, &auckland, &doc).await, "expiring_soon");
        assert_eq!(expired_on_dashboard(&server, &auckland).await, 0);
        stand_at(&ctx, at(2027, 3, 31, 11, 0));
        assert_eq!(status(&server, &auckland, &doc).await, "expired");
        assert_eq!(expired_on_dashboard(&server, &auckland).await, 1);
    })
    .await;
}

#[tokio::test]
async fn sign_up_keeps_the_browsers_zone_and_refuses_an_unknown_one() {
    with_app(|server, ctx| async move {
        let (users, orgs) = (count_users(&ctx).await, count_orgs(&ctx).await);
        let res = server
            .post("/api/auth/register")
            .json(&json!({"name": "Bad Zone", "email": email("bad-zone"),
                "password": PASSWORD, "timeZone": "Mars/Olympus_Mons"}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert!(body["errors"]["timeZone"].is_array(), "{body}");
        assert_eq!(count_users(&ctx).await, users, "nobody created");
        assert_eq!(count_orgs(&ctx).await, orgs, "no organization created");

        // Without one (an older client), UTC; `me` says which.
        let plain = crate::support::register(&server, "No Zone", None).await;
        assert_eq!(plain.user["timeZone"], "UTC");
        let paris = register_in(&server, "Europe/Paris").await;
        let me: Value = get(&server, &paris, "/api/auth/me").await.json();
        assert_eq!(me["timeZone"], "Europe/Paris");
    })
    .await;
}

#[tokio::test]
async fn the_account_page_changes_the_organizations_zone() {
    with_app(|server, ctx| async move {
        let ann = register_in(&server, "UTC").await;
        let doc = coi_expiring(&server, &ann, "2027-04-01").await;
        stand_at(&ctx, at(2027, 4, 1, 0, 30));
        assert_eq!(status(&server, &ann, &doc).await, "expired");

        let res = server
            .put("/api/account/organization")
            .json(&json!({"timeZone": "America/Los_Angeles"}))
            .await;
        assert_envelope(&res, 401, "unauthorized");

        let (h, v) = bearer(&ann.token);
        let bad = server
            .put("/api/account/organization")
            .add_header(h.clone(), v.clone())
            .json(&json!({"timeZone": "America/Springfield"}))
            .await;
        let body = assert_envelope(&bad, 422, "validation_failed");
        assert!(body["errors"]["timeZone"].is_array(), "{body}");
        let missing = server
            .put("/api/account/organization")
            .add_header(h.clone(), v.clone())
            .json(&json!({}))
            .await;
        assert_eq!(missing.status_code(), 400, "{}", missing.text());
        let me: Value = get(&server, &ann, "/api/auth/me").await.json();
        assert_eq!(me["timeZone"], "UTC", "refusals changed nothing");

        let res = server
            .put("/api/account/organization")
            .add_header(h, v)
            .json(&json!({"timeZone": "America/Los_Angeles"}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["timeZone"], "America/Los_Angeles");
        assert_eq!(
            status(&server, &ann, &doc).await,
            "expiring_soon",
            "its day is Los Angeles' now"
        );

        // Another organization's zone is its own.
        let other = register_in(&server, "Asia/Tokyo").await;
        let me: Value = get(&server, &other, "/api/auth/me").await.json();
        assert_eq!(me["timeZone"], "Asia/Tokyo");
    })
    .await;
}
