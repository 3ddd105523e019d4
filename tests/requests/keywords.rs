//! Keyword uploads (admins only): every row checked before anything is queued, ingested by
//! background jobs in chunks of 100 (the test config runs jobs in the foreground), one keyword
//! whatever its case, a chunk ingested once however often its job runs, and suggestions.

use loco_rs::bgworker::BackgroundWorker;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::{
    models::_entities::{keyword_ingest_chunks, keywords},
    workers::keyword_chunk::{KeywordChunkArgs, KeywordChunkWorker},
};

use crate::support::{assert_envelope, bearer, make_admin, register, with_app};

fn rows(n: usize, prefix: &str) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"keyword": format!("{prefix} keyword {i}"), "searchVolume": 100_000 - i, "difficulty": (i % 100) + 1, "priority": "medium", "category": "Vendor Management"}))
        .collect()
}

#[tokio::test]
async fn only_an_admin_uploads_and_reads_keywords() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann User", None).await;
        let (h, v) = bearer(&ann.token);
        let body = json!({"keywordData": rows(3, "x")});
        assert_envelope(
            &server
                .post("/api/admin/keywords/upload")
                .add_header(h.clone(), v.clone())
                .json(&body)
                .await,
            403,
            "forbidden",
        );
        assert_envelope(
            &server.post("/api/admin/keywords/upload").json(&body).await,
            401,
            "unauthorized",
        );
        for path in [
            "/api/admin/keywords/count",
            "/api/admin/suggest-keywords",
            "/api/admin/keyword-ingests/1",
        ] {
            assert_envelope(
                &server.get(path).add_header(h.clone(), v.clone()).await,
                403,
                "forbidden",
            );
            assert_envelope(&server.get(path).await, 401, "unauthorized");
        }
        assert_eq!(keywords::Entity::find().count(&ctx.db).await.unwrap(), 0);
    })
    .await;
}

#[tokio::test]
async fn an_upload_is_ingested_in_chunks_once_and_never_doubles_a_keyword() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let (h, v) = bearer(&ops.token);
        let mut data = rows(250, "vendor");
        data.push(json!({"keyword": "  VENDOR keyword 3 ", "difficulty": 5}));
        data.push(json!({"keyword": "", "difficulty": 5}));
        data.push(json!({"searchVolume": 10}));
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h.clone(), v.clone())
            .json(&json!({"keywordData": data}))
            .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        let accepted: Value = res.json();
        assert_eq!(accepted["accepted"], 251);
        assert_eq!(accepted["dropped"], 2);
        assert_eq!(accepted["chunks"], 3);
        let progress: Value = server
            .get(&format!(
                "/api/admin/keyword-ingests/{}",
                accepted["ingestId"]
            ))
            .add_header(h.clone(), v.clone())
            .await
            .json();
        assert_eq!(progress["chunksDone"], 3);
        assert_eq!(progress["inserted"], 250);
        assert_eq!(
            progress["merged"], 1,
            "the same keyword in another case merges"
        );
        assert_eq!(progress["done"], true);
        let count: Value = server
            .get("/api/admin/keywords/count")
            .add_header(h.clone(), v.clone())
            .await
            .json();
        assert_eq!(count["count"], 250);

        // The same file again, and a chunk's job run twice: still 250.
        let again = server
            .post("/api/admin/keywords/upload")
            .add_header(h.clone(), v.clone())
            .json(&json!({"keywordData": rows(250, "vendor")}))
            .await;
        assert_eq!(again.status_code(), 202);
        let chunk = keyword_ingest_chunks::Entity::find()
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        KeywordChunkWorker::build(&ctx)
            .perform(KeywordChunkArgs { chunk_id: chunk.id })
            .await
            .unwrap();
        assert_eq!(keywords::Entity::find().count(&ctx.db).await.unwrap(), 250);

        let suggested: Value = server
            .get("/api/admin/suggest-keywords?count=4")
            .add_header(h, v)
            .await
            .json();
        assert_eq!(suggested.as_array().unwrap().len(), 4);
        assert_eq!(
            suggested[0], "vendor keyword 0",
            "highest search volume first"
        );
    })
    .await;
}

#[tokio::test]
async fn a_known_keyword_merges_its_later_rows_and_keeps_its_first_spelling() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let (h, v) = bearer(&ops.token);
        let upload = |data: Value| {
            server
                .post("/api/admin/keywords/upload")
                .add_header(h.clone(), v.clone())
                .json(&json!({ "keywordData": data }))
        };
        let first = upload(json!([
            {"keyword": "Alpha Beta", "searchVolume": 100, "difficulty": 10, "priority": "low", "category": "One"},
            {"keyword": "Gamma", "searchVolume": 7, "difficulty": 70, "priority": "low", "category": "One"},
        ]))
        .await;
        assert_eq!(first.status_code(), 202, "{}", first.text());

        // Known now: two later rows of one keyword in one chunk, and one of another; a row
        // without a volume or difficulty keeps the stored one.
        let second = upload(json!([
            {"keyword": " ALPHA BETA ", "difficulty": 20, "priority": "high", "category": "Two"},
            {"keyword": "alpha beta", "searchVolume": 300, "priority": "medium", "category": "Three"},
            {"keyword": "GAMMA", "priority": "high", "category": "Two"},
            {"keyword": "Delta", "searchVolume": 1, "difficulty": 1, "priority": "low", "category": "One"},
        ]))
        .await;
        assert_eq!(second.status_code(), 202, "{}", second.text());
        let progress: Value = server
            .get(&format!(
                "/api/admin/keyword-ingests/{}",
                second.json::<Value>()["ingestId"]
            ))
            .add_header(h.clone(), v.clone())
            .await
            .json();
        assert_eq!((&progress["inserted"], &progress["merged"]), (&json!(1), &json!(3)));

        let stored = keywords::Entity::find().all(&ctx.db).await.unwrap();
        let by_key = |key: &str| stored.iter().find(|k| k.keyword_key == key).unwrap();
        assert_eq!(stored.len(), 3);
        let alpha = by_key("alpha beta");
        assert_eq!(alpha.keyword, "Alpha Beta", "the first spelling stays");
        assert_eq!(
            (alpha.search_volume, alpha.difficulty),
            (Some(300), Some(20))
        );
        assert_eq!(
            (alpha.priority.as_str(), alpha.category.as_str()),
            ("medium", "Three"),
            "the last row's"
        );
        assert!(alpha.updated_at > alpha.created_at);
        let gamma = by_key("gamma");
        assert_eq!(
            (gamma.search_volume, gamma.difficulty, gamma.priority.as_str()),
            (Some(7), Some(70), "high")
        );
    })
    .await;
}

#[tokio::test]
async fn a_bad_row_refuses_the_whole_upload_naming_it() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let (h, v) = bearer(&ops.token);
        let mut data = rows(3, "ok");
        data.push(json!({"keyword": "too hard", "difficulty": 101}));
        data.push(json!({"keyword": "odd", "priority": "urgent"}));
        data.push(json!({"keyword": "long", "category": "c".repeat(61)}));
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h.clone(), v.clone())
            .json(&json!({"keywordData": data}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert!(
            body["errors"]["keywordData[3].difficulty"].is_array(),
            "{body}"
        );
        assert!(
            body["errors"]["keywordData[4].priority"].is_array(),
            "{body}"
        );
        assert!(
            body["errors"]["keywordData[5].category"].is_array(),
            "{body}"
        );
        assert_eq!(
            keywords::Entity::find().count(&ctx.db).await.unwrap(),
            0,
            "nothing ingested"
        );
        assert_eq!(
            keyword_ingest_chunks::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            0,
            "nothing queued"
        );
        let fallback: Value = server
            .get("/api/admin/suggest-keywords")
            .add_header(h.clone(), v.clone())
            .await
            .json();
        assert_eq!(
            fallback.as_array().unwrap().len(),
            4,
            "the built-in set when there are no keywords"
        );
        assert_envelope(
            &server
                .get("/api/admin/suggest-keywords?count=0")
                .add_header(h.clone(), v.clone())
                .await,
            422,
            "validation_failed",
        );
        assert_envelope(
            &server
                .post("/api/admin/keywords/upload")
                .add_header(h, v)
                .json(&json!({"rows": []}))
                .await,
            400,
            "invalid_body",
        );
    })
    .await;
}

#[tokio::test]
async fn an_upload_of_20000_rows_is_taken_and_one_more_is_refused() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let (h, v) = bearer(&ops.token);
        // Over axum's default 2 MB body limit: about 3 MB.
        let data = rows(
            20_000,
            "a rather long vendor compliance keyword phrase for the limit",
        );
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h.clone(), v.clone())
            .json(&json!({"keywordData": data}))
            .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        assert_eq!(res.json::<Value>()["chunks"], 200);
        let too_many = rows(20_001, "x");
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h, v)
            .json(&json!({"keywordData": too_many}))
            .await;
        assert_envelope(&res, 422, "validation_failed");
        assert_eq!(
            keywords::Entity::find().count(&ctx.db).await.unwrap(),
            20_000
        );
    })
    .await;
}

#[tokio::test]
async fn rows_the_document_forbids_are_refused_even_without_a_keyword() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let (h, v) = bearer(&ops.token);
        // Each was once taken (trimmed, signed, comma-separated or dropped unchecked).
        for (row, field) in [
            (json!({"keyword": "signed", "searchVolume": "-0"}), "searchVolume"),
            (json!({"keyword": "plus", "searchVolume": "+5"}), "searchVolume"),
            (json!({"keyword": "spaced", "searchVolume": " 5 "}), "searchVolume"),
            (json!({"keyword": "commas", "difficulty": "1,0"}), "difficulty"),
            (json!({"keyword": "zero", "difficulty": "050"}), "difficulty"),
            (json!({"keyword": "padded", "priority": " high "}), "priority"),
            (json!({"keyword": format!("  {}  ", "k".repeat(199))}), "keyword"),
            (json!({"keyword": "cat", "category": format!(" {} ", "c".repeat(59))}), "category"),
            (json!({"difficulty": 500}), "difficulty"),
            (json!({"keyword": "", "priority": "urgent"}), "priority"),
        ] {
            let res = server
                .post("/api/admin/keywords/upload")
                .add_header(h.clone(), v.clone())
                .json(&json!({"keywordData": [{"keyword": "fine"}, row]}))
                .await;
            let body = assert_envelope(&res, 422, "validation_failed");
            assert!(
                body["errors"][format!("keywordData[1].{field}")].is_array(),
                "{row}: {body}"
            );
        }
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h.clone(), v.clone())
            .json(&json!({"keywordData": [{"keyword": "extra", "volume": 5}]}))
            .await;
        assert_envelope(&res, 400, "invalid_body");
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h.clone(), v.clone())
            .json(&json!({"keywordData": [{"keyword": "nul\u{0}"}]}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert!(body["errors"]["keywordData[0].keyword"].is_array(), "{body}");
        assert_eq!(keywords::Entity::find().count(&ctx.db).await.unwrap(), 0);
        assert_eq!(
            keyword_ingest_chunks::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            0,
            "nothing queued"
        );
        // What the document allows is taken: numbers as text with commas, a priority in any case.
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h, v)
            .json(&json!({"keywordData": [
                {"keyword": " Fine ", "searchVolume": "1,200", "difficulty": "100", "priority": "HIGH", "category": ""},
                {"keyword": null, "searchVolume": null, "difficulty": null, "priority": null, "category": null},
            ]}))
            .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        let accepted: Value = res.json();
        assert_eq!((accepted["accepted"].as_u64(), accepted["dropped"].as_u64()), (Some(1), Some(1)));
    })
    .await;
}
