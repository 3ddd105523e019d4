//! Bodies past a route's limit: a 413 `payload_too_large` whose sentence states that route's
//! own limit, the same number that refused it (`controllers/body_limit.rs`), and nothing done.

use axum::http::{header, HeaderValue};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::json;
use vendorwatch::{
    controllers::{body_limit::BodyLimit, keywords::UPLOAD_BODY_LIMIT},
    models::_entities::{keyword_ingests, vendors},
};

use crate::support::{
    assert_envelope, bearer, make_admin, register, upload, vendor_body, with_app, UploadSpec,
};

const JSON_413: &str = "The request body is too large. The limit is 2 MB.";

fn json_type() -> HeaderValue {
    HeaderValue::from_static("application/json")
}

#[tokio::test]
async fn a_json_body_past_the_app_limit_is_a_413_stating_2_mb() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let (h, v) = bearer(&ann.token);
        let limit = BodyLimit::JSON.max_bytes();

        // A JSON route: read through `ApiJson`, which used to answer a 400.
        let mut body = vendor_body("Big Co");
        body["notes"] = json!("x".repeat(limit));
        let res = server
            .post("/api/vendors")
            .add_header(h.clone(), v.clone())
            .json(&body)
            .await;
        let env = assert_envelope(&res, 413, "payload_too_large");
        assert_eq!(env["message"], JSON_413);
        assert_eq!(vendors::Entity::find().count(&ctx.db).await.unwrap(), 0);

        // Stripe's webhook reads raw bytes: its 413 said 10 MB. One byte over is refused, the
        // limit itself is read (and refused for its signature, not its size).
        let res = server
            .post("/api/webhooks/stripe")
            .add_header(header::CONTENT_TYPE, json_type())
            .bytes(vec![b' '; limit + 1].into())
            .await;
        let env = assert_envelope(&res, 413, "payload_too_large");
        assert_eq!(env["message"], JSON_413);
        let res = server
            .post("/api/webhooks/stripe")
            .add_header(header::CONTENT_TYPE, json_type())
            .bytes(vec![b' '; limit].into())
            .await;
        assert_ne!(res.status_code(), 413, "{}", res.text());

        // The one-off upgrade reads raw bytes too.
        let res = server
            .post("/api/upgrade-to-professional")
            .add_header(h, v)
            .add_header(header::CONTENT_TYPE, json_type())
            .bytes(vec![b' '; limit + 1].into())
            .await;
        let env = assert_envelope(&res, 413, "payload_too_large");
        assert_eq!(env["message"], JSON_413);
    })
    .await;
}

#[tokio::test]
async fn the_keyword_upload_refuses_a_50_mb_body_with_a_413_stating_its_8_mb() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let (h, v) = bearer(&ops.token);
        assert_eq!(UPLOAD_BODY_LIMIT.max_bytes(), 8 * 1024 * 1024);
        let mut body = br#"{"keywordData":[{"keyword":""#.to_vec();
        body.resize(50 * 1024 * 1024, b'x');
        body.extend_from_slice(br#""}]}"#);
        let res = server
            .post("/api/admin/keywords/upload")
            .add_header(h, v)
            .add_header(header::CONTENT_TYPE, json_type())
            .bytes(body.into())
            .await;
        let env = assert_envelope(&res, 413, "payload_too_large");
        assert_eq!(
            env["message"],
            "The request body is too large. The limit is 8 MB."
        );
        assert_eq!(
            keyword_ingests::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            0,
            "nothing queued"
        );
    })
    .await;
}

#[tokio::test]
async fn an_upload_past_10_mb_is_a_413_stating_10_mb() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = crate::support::create_vendor(&server, &ann, "Big Files").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        // A file just past 10 MB, and a body past the route's own limit.
        for size in [10 * 1024 * 1024 + 1, BodyLimit::Upload.max_bytes() + 1] {
            let mut bytes = crate::fixtures::pdf();
            bytes.resize(size, b' ');
            let spec = UploadSpec {
                file_name: "big.pdf",
                bytes,
                ..UploadSpec::pdf("w9")
            };
            let env = assert_envelope(
                &upload(&server, &ann, &id, &spec).await,
                413,
                "payload_too_large",
            );
            assert_eq!(env["message"], "The file is too large. The limit is 10 MB.");
        }
    })
    .await;
}
