//! Writes that race each other, as many clients send them at once (found by `scripts/load`
//! on `PostgreSQL`): one vendor's uploads, edits and deletion take turns, so a slot has one
//! current version, a plan's limits hold, and a vendor deleted meanwhile is a 404 that leaves
//! no row and no file.

use std::future::IntoFuture;

use futures_util::future::join_all;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{json, Value};

use crate::support::{
    bearer, create_vendor, get, make_professional, register, stored_files, upload, vendor_body,
    with_app, Account, UploadSpec,
};

#[tokio::test]
async fn ten_uploads_to_one_slot_at_once_leave_one_current_version() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Race Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let spec = UploadSpec::pdf("w9");
        let answers = join_all((0..10).map(|_| upload(&server, &ann, &id, &spec))).await;
        for res in &answers {
            assert_eq!(res.status_code(), 201, "{}", res.text());
        }
        let current: Vec<Value> = get(&server, &ann, "/api/documents?type=w9").await.json();
        assert_eq!(current.len(), 1, "one current W-9: {current:?}");
        assert_eq!(current[0]["version"], 10);
        let all: Vec<Value> = get(&server, &ann, &format!("/api/vendors/{id}/documents"))
            .await
            .json();
        let mut versions: Vec<i64> = all.iter().map(|d| d["version"].as_i64().unwrap()).collect();
        versions.sort_unstable();
        assert_eq!(versions, (1..=10).collect::<Vec<_>>());
    })
    .await;
}

#[tokio::test]
async fn vendors_and_documents_added_at_once_stay_within_the_plan() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let (h, v) = bearer(&ann.token);
        let creates = join_all((0..6).map(|i| {
            server
                .post("/api/vendors")
                .add_header(h.clone(), v.clone())
                .json(&vendor_body(&format!("Rush {i}")))
                .into_future()
        }))
        .await;
        let codes: Vec<u16> = creates.iter().map(|r| r.status_code().as_u16()).collect();
        assert_eq!(codes.iter().filter(|c| **c == 201).count(), 2, "{codes:?}");
        assert_eq!(codes.iter().filter(|c| **c == 402).count(), 4, "{codes:?}");
        let vendors: Vec<Value> = get(&server, &ann, "/api/vendors").await.json();
        assert_eq!(vendors.len(), 2, "Free: 2 vendors");

        // "Other" documents do not replace each other: twelve at once, ten kept.
        let id = vendors[0]["id"].as_str().unwrap().to_string();
        let spec = UploadSpec::pdf("other");
        let answers = join_all((0..12).map(|_| upload(&server, &ann, &id, &spec))).await;
        let codes: Vec<u16> = answers.iter().map(|r| r.status_code().as_u16()).collect();
        assert_eq!(codes.iter().filter(|c| **c == 201).count(), 10, "{codes:?}");
        assert_eq!(codes.iter().filter(|c| **c == 402).count(), 2, "{codes:?}");
        let docs: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert_eq!(docs.len(), 10, "Free: 10 documents per vendor");
    })
    .await;
}

#[tokio::test]
async fn edits_and_uploads_racing_a_deletion_are_404s_and_leave_nothing() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let (h, v) = bearer(&ann.token);
        for round in 0..3 {
            let id = create_vendor(&server, &ann, &format!("Doomed {round}")).await["id"]
                .as_str()
                .unwrap()
                .to_string();
            let spec = UploadSpec::pdf("other");
            let uploads = join_all((0..4).map(|_| upload(&server, &ann, &id, &spec)));
            let edits = join_all((0..4).map(|i| {
                server
                    .put(&format!("/api/vendors/{id}"))
                    .add_header(h.clone(), v.clone())
                    .json(&vendor_body(&format!("Renamed {i}")))
                    .into_future()
            }));
            let delete = server
                .delete(&format!("/api/vendors/{id}"))
                .add_header(h.clone(), v.clone())
                .into_future();
            let (uploads, edits, deleted) = tokio::join!(uploads, edits, delete);
            assert_eq!(deleted.status_code(), 204, "{}", deleted.text());
            for res in uploads.iter().chain(edits.iter()) {
                let code = res.status_code().as_u16();
                assert!([200, 201, 404].contains(&code), "{code}: {}", res.text());
            }
            let vendor = get(&server, &ann, &format!("/api/vendors/{id}")).await;
            assert_eq!(vendor.status_code(), 404);
        }
        // Files are removed once the deletion commits; give that a moment.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(get(&server, &ann, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());
        assert_eq!(
            stored_files(&ctx, &ann).await,
            Vec::<std::path::PathBuf>::new()
        );
    })
    .await;
}

/// An edit that read the vendor before a deletion committed and writes after it: a 404 that
/// writes nothing (on `SQLite` the update itself finds no row; on `PostgreSQL` the locked
/// re-read does).
#[tokio::test]
async fn an_edit_saved_after_its_vendor_was_deleted_is_not_found_and_writes_nothing() {
    use axum::response::IntoResponse;
    use sea_orm::PaginatorTrait;
    use vendorwatch::models::{
        _entities::{activities, vendors},
        activities::Actor,
        users,
    };
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let key = create_vendor(&server, &ann, "Gone Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let read = vendors::Entity::find()
            .filter(vendors::Column::Key.eq(&key))
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        let (h, v) = bearer(&ann.token);
        let deleted = server
            .delete(&format!("/api/vendors/{key}"))
            .add_header(h, v)
            .await;
        assert_eq!(deleted.status_code(), 204);
        let entries = activities::Entity::find().count(&ctx.db).await.unwrap();
        let form = serde_json::from_value::<vendorwatch::models::vendors::VendorFields>(
            vendor_body("Renamed"),
        )
        .unwrap()
        .validate()
        .unwrap();
        let user = users::Model::find_by_email(&ctx.db, &ann.email)
            .await
            .unwrap();
        let err = read
            .update_from(&ctx.db, &form, &Actor::user(&user))
            .await
            .unwrap_err();
        let res = vendorwatch::errors::ApiError::from(err).into_response();
        assert_eq!(res.status(), 404);
        assert!(vendors::Entity::find()
            .filter(vendors::Column::Key.eq(&key))
            .one(&ctx.db)
            .await
            .unwrap()
            .is_none());
        assert_eq!(
            activities::Entity::find().count(&ctx.db).await.unwrap(),
            entries,
            "no activity entry"
        );
    })
    .await;
}

/// Two bulk deletions of the same rows, sent in opposite orders, at once: one deletes them all
/// and the other finds them gone (404). Without a fixed locking order each could hold one
/// vendor and wait for the other's, and `PostgreSQL` would cancel one as a deadlock (a 500).
#[tokio::test]
async fn bulk_deletions_in_opposite_orders_take_turns() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        make_professional(&ctx, &ann).await;
        for round in 0..4 {
            let mut vendors = Vec::new();
            let mut docs = Vec::new();
            for i in 0..3 {
                let id = create_vendor(&server, &ann, &format!("Pair {round}-{i}")).await["id"]
                    .as_str()
                    .unwrap()
                    .to_string();
                let res = upload(&server, &ann, &id, &UploadSpec::pdf("other")).await;
                assert_eq!(res.status_code(), 201, "{}", res.text());
                docs.push(res.json::<Value>()["id"].as_str().unwrap().to_string());
                vendors.push(id);
            }
            for (path, ids) in [
                ("/api/documents/bulk-delete", &docs),
                ("/api/vendors/bulk-delete", &vendors),
            ] {
                let backwards: Vec<String> = ids.iter().rev().cloned().collect();
                let (one, two) = tokio::join!(
                    bulk_delete(&server, &ann, path, ids),
                    bulk_delete(&server, &ann, path, &backwards)
                );
                let mut codes = [one.0, two.0];
                codes.sort_unstable();
                assert_eq!(codes, [200, 404], "{path}: {} / {}", one.1, two.1);
            }
        }
        assert!(get(&server, &ann, "/api/vendors")
            .await
            .json::<Vec<Value>>()
            .is_empty());
    })
    .await;
}

async fn bulk_delete(
    server: &loco_rs::TestServer,
    account: &Account,
    path: &str,
    ids: &[String],
) -> (u16, String) {
    let (h, v) = bearer(&account.token);
    let res = server
        .post(path)
        .add_header(h, v)
        .json(&json!({ "ids": ids }))
        .await;
    (res.status_code().as_u16(), res.text())
}

/// A committed vendor import's CSV: `rows` vendors named after `tag`, each with its own email.
fn import_csv(tag: &str, rows: usize) -> String {
    use std::fmt::Write;
    let local = tag.to_lowercase().replace(' ', "-");
    let mut csv = String::from("Name,Email,Service Type\n");
    for i in 0..rows {
        writeln!(csv, "{tag} {i},{local}-{i}@example.com,plumbing").unwrap();
    }
    csv
}

async fn import(server: &loco_rs::TestServer, account: &Account, csv: &str) -> (u16, Value) {
    let (h, v) = bearer(&account.token);
    let res = server
        .post("/api/vendors/import")
        .add_header(h, v)
        .json(&json!({ "csv": csv, "commit": true }))
        .await;
    let status = res.status_code().as_u16();
    (
        status,
        serde_json::from_str(&res.text()).unwrap_or(Value::Null),
    )
}

/// What the answers of imports sent at once say they created, checked against what exists:
/// each answer is a 200 telling its count or a refusal that created nothing, the sum is the
/// vendors there are, within `limit`, and no email was imported twice. Returns that count.
async fn imports_at_once_add_up(
    server: &loco_rs::TestServer,
    ctx: &loco_rs::app::AppContext,
    account: &Account,
    csvs: &[String],
    limit: u64,
) -> u64 {
    let answers = join_all(csvs.iter().map(|csv| import(server, account, csv))).await;
    let mut said = 0;
    for (status, body) in &answers {
        match status {
            200 => said += body["created"].as_u64().unwrap(),
            402 => assert_eq!(body["error"], "plan_limit", "{body}"),
            _ => panic!("{status}: {body}"),
        }
    }
    let org = crate::support::org_of(ctx, account).await;
    let vendors = vendorwatch::models::vendors::Entity::find()
        .filter(vendorwatch::models::vendors::vendors::Column::OrganizationId.eq(org.id))
        .all(&ctx.db)
        .await
        .unwrap();
    let codes: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        vendors.len() as u64,
        said,
        "what the answers said: {codes:?}"
    );
    assert!(said <= limit, "{said} vendors, the plan allows {limit}");
    let emails: std::collections::HashSet<&str> =
        vendors.iter().map(|v| v.email.as_str()).collect();
    assert_eq!(emails.len(), vendors.len(), "no email imported twice");
    said
}

#[tokio::test]
async fn vendor_imports_at_once_create_what_they_answer_within_the_plan() {
    with_app(|server, ctx| async move {
        // Free (2 vendors): six imports of three rows, two of them the same file.
        let ann = register(&server, "Ann Lee", None).await;
        let mut csvs: Vec<String> = (0..5)
            .map(|i| import_csv(&format!("Free {i}"), 3))
            .collect();
        csvs.push(csvs[0].clone());
        let count = imports_at_once_add_up(&server, &ctx, &ann, &csvs, 2).await;
        assert_eq!(count, 2, "the imports filled the plan, no more");

        // Professional (25): four imports of ten rows, more than the plan holds together.
        let bob = register(&server, "Bob Lee", Some("Pro Co")).await;
        make_professional(&ctx, &bob).await;
        let csvs: Vec<String> = (0..4)
            .map(|i| import_csv(&format!("Pro {i}"), 10))
            .collect();
        let count = imports_at_once_add_up(&server, &ctx, &bob, &csvs, 25).await;
        assert_eq!(count, 25, "the imports filled the plan, no more");
    })
    .await;
}

#[tokio::test]
async fn a_vendor_added_during_an_import_is_counted_once_against_the_plan() {
    with_app(|server, ctx| async move {
        for round in 0..4 {
            let ann = register(&server, &format!("Ann Round {round}"), None).await;
            let (h, v) = bearer(&ann.token);
            let csv = import_csv(&format!("Round {round}"), 2);
            let single = server
                .post("/api/vendors")
                .add_header(h, v)
                .json(&vendor_body(&format!("Single {round}")))
                .into_future();
            let ((status, body), added) = tokio::join!(import(&server, &ann, &csv), single);
            assert_eq!(status, 200, "{body}");
            let added = match added.status_code().as_u16() {
                201 => 1,
                402 => 0,
                other => panic!("{other}: {}", added.text()),
            };
            let created = body["created"].as_u64().unwrap();
            let org = crate::support::org_of(&ctx, &ann).await;
            let count = vendorwatch::models::vendors::Model::count_in_org(&ctx.db, org.id)
                .await
                .unwrap();
            assert_eq!(count, created + added, "round {round}: {body}");
            assert_eq!(count, 2, "round {round}: the plan's 2, whoever came first");
        }
    })
    .await;
}
