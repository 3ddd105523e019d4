//! The figures the database keeps per vendor (`vendor_figures`, migration
//! `m20261204_000001_vendor_figures`) that the dashboard, the compliance report's today and the
//! weekly summary count: after every kind of write (the API's, bulk calls, and plain SQL, which
//! no application code watches) they equal the figures counted from the documents themselves,
//! with one row per vendor; and on `PostgreSQL` two transactions refreshing one vendor at once
//! leave what both committed.

use loco_rs::app::AppContext;
use sea_orm::{ConnectionTrait, DatabaseBackend, TransactionTrait};
use serde_json::{json, Value};
use vendorwatch::models::{
    vendor_figures::{self, OrganizationFigures},
    vendors::VendorCounts,
};

use crate::support::{
    bearer, in_days, make_professional, org_of, register, rows, upload, vendor_body, with_app,
    Account, UploadSpec,
};

/// The kept figures of each organization equal the counted ones, and the table has one row per
/// vendor; returns the first organization's.
async fn kept_as_counted(ctx: &AppContext, orgs: &[i64], after: &str) -> OrganizationFigures {
    let today = chrono::Utc::now().date_naive();
    let mut first = None;
    for &org in orgs {
        let kept = vendor_figures::of_organization(&ctx.db, org, today)
            .await
            .unwrap();
        let counted = vendor_figures::counted(&ctx.db, org, today).await.unwrap();
        assert_eq!(kept, counted, "after {after}: organization {org}");
        first.get_or_insert(kept);
    }
    let count = |sql: &'static str| async move {
        rows(&ctx.db, sql).await[0].try_get::<i64>("", "n").unwrap()
    };
    assert_eq!(
        count("SELECT COUNT(*) AS n FROM vendor_figures").await,
        count("SELECT COUNT(*) AS n FROM vendors").await,
        "after {after}: one row per vendor"
    );
    first.unwrap()
}

async fn vendor_requiring(
    server: &loco_rs::TestServer,
    account: &Account,
    name: &str,
    slots: &[&str],
) -> String {
    let mut body = vendor_body(name);
    body["requiredDocuments"] = json!(slots);
    let (h, v) = bearer(&account.token);
    let res = server
        .post("/api/vendors")
        .add_header(h, v)
        .json(&body)
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json::<Value>()["id"].as_str().unwrap().to_string()
}

/// Uploads a document dated `days` from today (none: no date); returns its id.
async fn document(
    server: &loco_rs::TestServer,
    account: &Account,
    vendor: &str,
    kind: (&'static str, Option<&'static str>),
    days: Option<i64>,
) -> String {
    let spec = UploadSpec {
        coi_type: kind.1,
        expiration_date: days.map(in_days),
        ..UploadSpec::pdf(kind.0)
    };
    let res = upload(server, account, vendor, &spec).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json::<Value>()["id"].as_str().unwrap().to_string()
}

const W9: (&str, Option<&str>) = ("w9", None);
const GENERAL: (&str, Option<&str>) = ("coi", Some("general_liability"));

#[tokio::test]
async fn the_kept_figures_follow_every_write() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Kept", Some("Kept Co")).await;
        make_professional(&ctx, &ann).await;
        let bob = register(&server, "Bob Kept", Some("Other Kept Co")).await;
        let orgs = [org_of(&ctx, &ann).await.id, org_of(&ctx, &bob).await.id];
        let both = ["w9", "coi_general_liability"];
        let first = vendor_requiring(&server, &ann, "A Co", &both).await;
        let second = vendor_requiring(&server, &ann, "B Co", &both).await;
        let third = vendor_requiring(&server, &ann, "C Co", &both).await;
        let his = vendor_requiring(&server, &bob, "His Co", &["w9"]).await;
        let kept = kept_as_counted(&ctx, &orgs, "the vendors' creation").await;
        assert_eq!((kept.vendors.missing, kept.missing_required), (3, 6));

        document(&server, &ann, &first, W9, Some(400)).await;
        document(&server, &ann, &second, GENERAL, Some(-3)).await;
        let c_w9 = document(&server, &ann, &third, W9, None).await;
        document(&server, &bob, &his, W9, Some(5)).await;
        let kept = kept_as_counted(&ctx, &orgs, "the uploads").await;
        let counts = |current, expiring_soon, expired, missing| VendorCounts {
            total: 3,
            current,
            expiring_soon,
            expired,
            missing,
        };
        assert_eq!(kept.vendors, counts(2, 0, 1, 0));
        assert_eq!(kept.missing_required, 3, "each lacks one of its two");

        // A new version replaces the current one.
        document(&server, &ann, &first, W9, Some(10)).await;
        let kept = kept_as_counted(&ctx, &orgs, "a new version").await;
        assert_eq!(kept.vendors, counts(1, 1, 1, 0));

        let (h, v) = bearer(&ann.token);
        let mut body = vendor_body("B Co");
        body["requiredDocuments"] = json!(["coi_general_liability"]);
        let res = server
            .put(&format!("/api/vendors/{second}"))
            .add_header(h.clone(), v.clone())
            .json(&body)
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let kept = kept_as_counted(&ctx, &orgs, "a change of required documents").await;
        assert_eq!(kept.missing_required, 2);

        let res = server
            .delete(&format!("/api/documents/{c_w9}"))
            .add_header(h.clone(), v.clone())
            .await;
        assert!(res.status_code().is_success(), "{}", res.text());
        let kept = kept_as_counted(&ctx, &orgs, "a document's deletion").await;
        assert_eq!(kept.vendors, counts(0, 1, 1, 1));
        assert_eq!(kept.missing_required, 3);

        let res = server
            .post("/api/vendors/bulk-delete")
            .add_header(h.clone(), v.clone())
            .json(&json!({"ids": [first]}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        kept_as_counted(&ctx, &orgs, "a bulk deletion").await;
        let res = server
            .delete(&format!("/api/vendors/{second}"))
            .add_header(h, v)
            .await;
        assert!(res.status_code().is_success(), "{}", res.text());
        let kept = kept_as_counted(&ctx, &orgs, "a vendor's deletion").await;
        assert_eq!(kept.vendors.total, 1);

        // Writes no application code sees: a document moved to another vendor, made not
        // current, its date changed; required documents written as text.
        let sql = [
            format!(
                "UPDATE documents SET vendor_id = (SELECT id FROM vendors WHERE key = '{third}'), \
                 organization_id = {} WHERE vendor_id = (SELECT id FROM vendors WHERE key = '{his}')",
                orgs[0]
            ),
            "UPDATE documents SET expiration_date = NULL".to_string(),
            format!("UPDATE vendors SET required_documents = '[\"w9\", \"nonsense\"]' WHERE key = '{his}'"),
            "UPDATE documents SET is_current = FALSE".to_string(),
        ];
        for statement in sql {
            ctx.db.execute_unprepared(&statement).await.unwrap();
            kept_as_counted(&ctx, &orgs, &statement).await;
        }
    })
    .await;
}

/// A vendor's change and a change of one of its documents committing at once, on `PostgreSQL`
/// (`SQLite` has one writer at a time). Both raise the organization's data version and refresh
/// the vendor's figures at their commit, each locking the organization's row and the vendor's
/// figures; taken in different orders, the two would deadlock (seen so while the vendors'
/// figures trigger fired before their data version's), so every transaction takes the
/// organization's first. Here the document's transaction holds the organization's row while the
/// vendor's commits; then the document's commits, and the figures are what both committed.
#[tokio::test]
async fn a_vendor_and_its_document_committing_at_once_neither_deadlock_nor_lose_a_figure() {
    with_app(|server, ctx| async move {
        if ctx.db.get_database_backend() != DatabaseBackend::Postgres {
            return;
        }
        let ann = register(&server, "Ann Race", Some("Race Co")).await;
        make_professional(&ctx, &ann).await;
        let org = org_of(&ctx, &ann).await.id;
        let key = vendor_requiring(&server, &ann, "Race Vendor", &["w9"]).await;
        let w9 = document(&server, &ann, &key, W9, Some(400)).await;
        let kept = kept_as_counted(&ctx, &[org], "the upload").await;
        assert_eq!((kept.vendors.current, kept.missing_required), (1, 0));

        let document_change = ctx.db.begin().await.unwrap();
        document_change
            .execute_unprepared("SET CONSTRAINTS documents_data_version IMMEDIATE")
            .await
            .unwrap();
        document_change
            .execute_unprepared(&format!(
                "UPDATE documents SET is_current = FALSE WHERE pid = '{w9}'"
            ))
            .await
            .unwrap();
        let db = ctx.db.clone();
        let vendor_change = tokio::spawn(async move {
            let txn = db.begin().await.unwrap();
            txn.execute_unprepared(&format!(
                "UPDATE vendors SET required_documents = '[\"w9\", \"sales_tax\"]' \
                 WHERE key = '{key}'"
            ))
            .await
            .unwrap();
            txn.commit().await
        });
        // Time for the vendor's commit to reach the organization's row and wait there (if it is
        // late, the test passes without testing the order: never the other way round).
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        document_change.commit().await.unwrap();
        vendor_change.await.unwrap().unwrap();
        let kept = kept_as_counted(&ctx, &[org], "both commits").await;
        assert_eq!((kept.vendors.missing, kept.missing_required), (1, 2));
    })
    .await;
}
