//! The vendor list and the dashboard figures are kept per organization (`src/infra/answer_cache.rs`)
//! under `organizations.data_version`, which database triggers raise on every write to the
//! organization's vendors and documents. A kept answer must never outlive a write, whichever
//! way the write came: through this server, or straight to the database (a worker, another
//! server process, an operator).

use std::sync::atomic::{AtomicI32, Ordering as AtomicOrdering};

use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};
use serde_json::{json, Value};
use vendorwatch::{
    infra::answer_cache::{AnswerCache, Question},
    models::{compliance::Status, vendors::VendorQuery},
};

use crate::support::{
    bearer, create_vendor, get, make_professional, org_of, other_org, register, upload,
    vendor_body, with_app, UploadSpec,
};

async fn sql(ctx: &loco_rs::app::AppContext, statement: &str, key: &str) {
    let backend = ctx.db.get_database_backend();
    let placeholder = if backend == DatabaseBackend::Postgres {
        "$1"
    } else {
        "?"
    };
    ctx.db
        .execute_raw(Statement::from_sql_and_values(
            backend,
            statement.replace("$key", placeholder),
            [key.into()],
        ))
        .await
        .unwrap();
}

#[tokio::test]
async fn kept_answers_follow_every_write_to_the_organizations_vendors_and_documents() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let key = create_vendor(&server, &ann, "Cache Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let list = || async {
            get(&server, &ann, "/api/vendors")
                .await
                .json::<Vec<Value>>()
        };
        let stats = || async {
            get(&server, &ann, "/api/dashboard/stats")
                .await
                .json::<Value>()
        };
        let missing = || async {
            get(&server, &ann, "/api/vendors?status=missing")
                .await
                .json::<Vec<Value>>()
                .len()
        };
        // Asked twice: the second answer is the kept one.
        for _ in 0..2 {
            assert_eq!(list().await[0]["name"], "Cache Co");
            assert_eq!(stats().await["nonCompliantVendors"], 1);
            assert_eq!(missing().await, 1);
        }

        // A vendor renamed behind the server's back.
        sql(
            &ctx,
            "UPDATE vendors SET name = 'Renamed Co' WHERE key = $key",
            &key,
        )
        .await;
        assert_eq!(list().await[0]["name"], "Renamed Co");

        // A document uploaded through the API: the vendor is compliant.
        let res = upload(&server, &ann, &key, &UploadSpec::pdf("w9")).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        assert_eq!(list().await[0]["documentCount"], 1);
        assert_eq!(stats().await["compliantVendors"], 1);
        assert_eq!(missing().await, 0);

        // One document expired, then deleted, straight in the database.
        sql(
            &ctx,
            "UPDATE documents SET expiration_date = '2020-01-01' WHERE document_type = 'w9' \
             AND vendor_id = (SELECT id FROM vendors WHERE key = $key)",
            &key,
        )
        .await;
        assert_eq!(list().await[0]["documentStatus"], "expired");
        assert_eq!(stats().await["nonCompliantVendors"], 1);
        sql(
            &ctx,
            "DELETE FROM documents WHERE document_type = 'w9' \
             AND vendor_id = (SELECT id FROM vendors WHERE key = $key)",
            &key,
        )
        .await;
        assert_eq!(list().await[0]["documentCount"], 0);
        assert_eq!(missing().await, 1);

        // A second vendor, then the first deleted, through the API.
        create_vendor(&server, &ann, "Second Co").await;
        assert_eq!(list().await.len(), 2);
        assert_eq!(stats().await["totalVendors"], 2);
        let (h, v) = crate::support::bearer(&ann.token);
        let res = server
            .delete(&format!("/api/vendors/{key}"))
            .add_header(h, v)
            .await;
        assert!(res.status_code().is_success(), "{}", res.text());
        let names: Vec<Value> = list().await.iter().map(|v| v["name"].clone()).collect();
        assert_eq!(names, ["Second Co"]);
        assert_eq!(stats().await["totalVendors"], 1);
    })
    .await;
}

#[tokio::test]
async fn a_write_raises_its_own_organizations_version_only() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let mallory = other_org(&server).await;
        create_vendor(&server, &mallory, "Mallory Co").await;
        // Both lists asked and kept.
        assert_eq!(
            get(&server, &ann, "/api/vendors")
                .await
                .json::<Vec<Value>>()
                .len(),
            0
        );
        assert_eq!(
            get(&server, &mallory, "/api/vendors")
                .await
                .json::<Vec<Value>>()
                .len(),
            1
        );
        let (ann_before, mallory_before) = (
            org_of(&ctx, &ann).await.data_version,
            org_of(&ctx, &mallory).await.data_version,
        );

        create_vendor(&server, &ann, "Ann Co").await;
        assert!(org_of(&ctx, &ann).await.data_version > ann_before);
        assert_eq!(org_of(&ctx, &mallory).await.data_version, mallory_before);
        let names =
            |list: Vec<Value>| -> Vec<Value> { list.iter().map(|v| v["name"].clone()).collect() };
        assert_eq!(
            names(get(&server, &ann, "/api/vendors").await.json()),
            ["Ann Co"]
        );
        assert_eq!(
            names(get(&server, &mallory, "/api/vendors").await.json()),
            ["Mallory Co"]
        );
    })
    .await;
}

/// After a change to one vendor (`organizations.changed_vendor_id`), the list kept under the
/// version before is carried forward with that vendor read again, when the change leaves it
/// where the list had it; otherwise the list is computed whole. Either way the answer is,
/// byte for byte, the one computed from the rows.
#[tokio::test]
async fn a_kept_list_is_carried_past_one_vendors_change_when_its_place_holds() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        make_professional(&ctx, &ann).await;
        let mut keys = Vec::new();
        for name in ["Alpha Co", "Bravo Co", "Charlie Co"] {
            let vendor = create_vendor(&server, &ann, name).await;
            keys.push(vendor["id"].as_str().unwrap().to_string());
        }
        let res = upload(&server, &ann, &keys[1], &UploadSpec::pdf("w9")).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let cache = AnswerCache::from_context(&ctx);
        let org = org_of(&ctx, &ann).await.id;
        // Asks `path` and checks its body is the computed answer to `question`; says whether
        // the answer was carried forward.
        let ask = |path: &'static str, question: Question| {
            let (server, ctx, ann, cache) = (&server, &ctx, &ann, &cache);
            async move {
                let carried = cache.carried_forward();
                let res = get(server, ann, path).await;
                assert_eq!(res.status_code(), 200, "{}", res.text());
                let today = chrono::Utc::now().date_naive();
                let computed = question.compute(&ctx.db, org, today).await.unwrap();
                assert_eq!(
                    String::from_utf8_lossy(res.as_bytes()),
                    String::from_utf8_lossy(computed.body()),
                    "{path}: the answer is the computed one"
                );
                cache.carried_forward() - carried
            }
        };
        let all = || Question::VendorList(VendorQuery::default());
        let missing = || {
            Question::VendorList(VendorQuery {
                status: Some(Status::Missing),
                ..VendorQuery::default()
            })
        };
        assert_eq!(ask("/api/vendors", all()).await, 0, "computed first");
        assert_eq!(ask("/api/vendors?status=missing", missing()).await, 0);

        // Bravo's notes edited through the API: carried. The missing vendors' list does not
        // hold Bravo (it has its W-9): computed.
        let (h, v) = bearer(&ann.token);
        let mut body = vendor_body("Bravo Co");
        body["notes"] = json!("Gate code 4411, a longer note than before");
        let res = server
            .put(&format!("/api/vendors/{}", keys[1]))
            .add_header(h.clone(), v.clone())
            .json(&body)
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(ask("/api/vendors", all()).await, 1, "carried past the edit");
        assert_eq!(ask("/api/vendors?status=missing", missing()).await, 0);

        // A W-9 uploaded for Charlie, after Bravo in the body: carried again, from the carried
        // answer (Charlie's object now lies further along it). Charlie leaves the missing
        // vendors' list: computed.
        let res = upload(&server, &ann, &keys[2], &UploadSpec::pdf("w9")).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        assert_eq!(
            ask("/api/vendors", all()).await,
            1,
            "carried past the upload"
        );
        assert_eq!(ask("/api/vendors?status=missing", missing()).await, 0);

        // Its document deleted straight in the database: carried.
        sql(
            &ctx,
            "DELETE FROM documents WHERE vendor_id = (SELECT id FROM vendors WHERE key = $key)",
            &keys[2],
        )
        .await;
        assert_eq!(
            ask("/api/vendors", all()).await,
            1,
            "carried past the delete"
        );

        // Alpha renamed to the end of the name order: computed, in the new order.
        sql(
            &ctx,
            "UPDATE vendors SET name = 'Zulu Co' WHERE key = $key",
            &keys[0],
        )
        .await;
        assert_eq!(ask("/api/vendors", all()).await, 0, "computed after a move");
        let names: Vec<Value> = get(&server, &ann, "/api/vendors")
            .await
            .json::<Vec<Value>>()
            .iter()
            .map(|v| v["name"].clone())
            .collect();
        assert_eq!(names, ["Bravo Co", "Charlie Co", "Zulu Co"]);

        // Every vendor changed in one statement: several raises, so nothing is kept under the
        // version before the last: computed.
        let all_notes =
            format!("UPDATE vendors SET notes = 'Every one' WHERE organization_id = {org}");
        ctx.db.execute_unprepared(&all_notes).await.unwrap();
        assert_eq!(ask("/api/vendors", all()).await, 0, "computed after many");

        // A vendor added: computed (the raise names no vendor).
        create_vendor(&server, &ann, "Delta Co").await;
        assert_eq!(
            ask("/api/vendors", all()).await,
            0,
            "computed after an insert"
        );
    })
    .await;
}

/// Edits of several vendors at once, with reads of the list among them: each read shows every
/// vendor's edits answered before it was sent, whatever was carried forward on the way, and the
/// list at the end is, byte for byte, the one computed from the rows.
#[tokio::test]
async fn lists_carried_among_concurrent_edits_follow_every_edit() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        make_professional(&ctx, &ann).await;
        let names = ["Alpha Co", "Bravo Co", "Charlie Co", "Delta Co"];
        let mut keys = Vec::new();
        for name in names {
            let vendor = create_vendor(&server, &ann, name).await;
            keys.push(vendor["id"].as_str().unwrap().to_string());
        }
        // Each vendor's last edit answered (-1: none yet).
        let done: Vec<AtomicI32> = names.iter().map(|_| AtomicI32::new(-1)).collect();
        let (h, v) = bearer(&ann.token);
        let edits = keys.iter().enumerate().map(|(i, key)| {
            let (server, done, h, v) = (&server, &done, h.clone(), v.clone());
            async move {
                for n in 0..8 {
                    let mut body = vendor_body(names[i]);
                    body["notes"] = json!(format!("edit {n}"));
                    let res = server
                        .put(&format!("/api/vendors/{key}"))
                        .add_header(h.clone(), v.clone())
                        .json(&body)
                        .await;
                    assert_eq!(res.status_code(), 200, "{}", res.text());
                    done[i].store(n, AtomicOrdering::SeqCst);
                }
            }
        });
        let reads = (0..4).map(|_| async {
            for _ in 0..12 {
                let before: Vec<i32> = done
                    .iter()
                    .map(|d| d.load(AtomicOrdering::SeqCst))
                    .collect();
                let res = get(&server, &ann, "/api/vendors").await;
                assert_eq!(res.status_code(), 200, "{}", res.text());
                for (i, vendor) in res.json::<Vec<Value>>().iter().enumerate() {
                    let seen = vendor["notes"]
                        .as_str()
                        .and_then(|n| n.strip_prefix("edit "))
                        .map_or(-1, |n| n.parse::<i32>().unwrap());
                    assert!(
                        seen >= before[i],
                        "{}: edit {} was answered before the read, which shows {seen}",
                        names[i],
                        before[i]
                    );
                }
            }
        });
        futures_util::future::join(
            futures_util::future::join_all(edits),
            futures_util::future::join_all(reads),
        )
        .await;

        let res = get(&server, &ann, "/api/vendors").await;
        let org = org_of(&ctx, &ann).await.id;
        let today = chrono::Utc::now().date_naive();
        let computed = Question::VendorList(VendorQuery::default())
            .compute(&ctx.db, org, today)
            .await
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(res.as_bytes()),
            String::from_utf8_lossy(computed.body())
        );
        let notes: Vec<Value> = res
            .json::<Vec<Value>>()
            .iter()
            .map(|v| v["notes"].clone())
            .collect();
        assert_eq!(notes, ["edit 7", "edit 7", "edit 7", "edit 7"]);
    })
    .await;
}
