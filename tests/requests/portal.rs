//! The vendor upload portal: valid, empty, malformed and unknown keys; every upload rule; the
//! rate limit; nothing revealed beyond the vendor's name, the client's name and the list.

use std::collections::BTreeSet;

use axum_test::multipart::{MultipartForm, Part};
use loco_rs::app::AppContext;
use serde_json::{json, Value};

use crate::{
    fixtures,
    support::{
        assert_envelope, create_vendor, get, in_days, other_org, register, stored_files, with_app,
        Account,
    },
};

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

fn form(
    key: &str,
    document_type: &str,
    coi: Option<&str>,
    date: Option<String>,
    file: Option<(&str, Vec<u8>)>,
) -> MultipartForm {
    let mut f = MultipartForm::new()
        .add_text("companyKey", key)
        .add_text("documentType", document_type);
    if let Some(c) = coi {
        f = f.add_text("coiType", c);
    }
    if let Some(d) = date {
        f = f.add_text("expirationDate", d);
    }
    if let Some((name, bytes)) = file {
        f = f.add_part(
            "file",
            Part::bytes(bytes)
                .file_name(name)
                .mime_type("application/pdf"),
        );
    }
    f
}

#[tokio::test]
async fn a_valid_key_reveals_only_names_and_the_requested_documents() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", Some("Acme Property Group")).await;
        let v = create_vendor(&server, &ann, "Bright Plumbing").await;
        let key = v["id"].as_str().unwrap();
        let res = server.get(&format!("/api/validate-company-key?key={key}")).await;
        assert_eq!(res.status_code(), 200);
        let body: Value = res.json();
        assert_eq!(keys(&body), ["clientName", "companyName", "corrections", "requiredDocuments", "valid"].map(String::from).into());
        assert_eq!(body["corrections"], json!([]), "no requirement set, nothing to correct");
        assert_eq!(body["valid"], true);
        assert_eq!(body["companyName"], "Bright Plumbing");
        assert_eq!(body["clientName"], "Acme Property Group");
        let docs = body["requiredDocuments"].as_array().unwrap();
        assert_eq!(docs.len(), 6);
        for d in docs {
            assert_eq!(keys(d), ["coiType", "documentType", "label", "slot", "uploaded"].map(String::from).into());
            assert_eq!(d["uploaded"], false);
        }
        assert_eq!(docs[1], json!({"slot": "coi_general_liability", "documentType": "coi", "coiType": "general_liability",
            "label": "Certificate of Insurance (General Liability)", "uploaded": false}));
        let text = res.text();
        assert!(!text.contains('@'), "no email address leaks: {text}");
        assert!(!text.contains(&ann.email));
    })
    .await;
}

#[tokio::test]
async fn empty_malformed_and_unknown_keys_are_refused_alike() {
    with_app(|server, _ctx| async move {
        for path in [
            "/api/validate-company-key",
            "/api/validate-company-key?key=",
            "/api/validate-company-key?key=%20",
        ] {
            let res = server.get(path).await;
            let body = assert_envelope(&res, 400, "company_key_required");
            assert_eq!(body["message"], "Company key is required");
            assert_eq!(body["valid"], false);
        }
        let unknown = server.get("/api/validate-company-key?key=Zz9Zz9Zz").await;
        let unknown_body = assert_envelope(&unknown, 404, "company_key_not_found");
        assert_eq!(unknown_body["valid"], false);
        let malformed = server
            .get("/api/validate-company-key?key=abc%27%20OR%201%3D1")
            .await;
        assert_eq!(
            assert_envelope(&malformed, 404, "company_key_not_found"),
            unknown_body,
            "malformed looks like unknown"
        );
    })
    .await;
}

#[tokio::test]
async fn guessing_keys_is_rate_limited_and_the_limit_resets() {
    with_app(|server, _ctx| async move {
        // config/test.yaml: 5 checks per 2 seconds.
        for _ in 0..5 {
            assert_eq!(
                server
                    .get("/api/validate-company-key?key=Zz9Zz9Zz")
                    .await
                    .status_code(),
                404
            );
        }
        let res = server.get("/api/validate-company-key?key=Zz9Zz9Zz").await;
        assert_envelope(&res, 429, "rate_limited");
        let wait: u64 = res.header("retry-after").to_str().unwrap().parse().unwrap();
        assert!((1..=2).contains(&wait));
        let res = server
            .post("/api/vendor-upload-document")
            .multipart(form("Zz9Zz9Zz", "w9", None, None, None))
            .await;
        assert_envelope(&res, 429, "rate_limited");
        tokio::time::sleep(std::time::Duration::from_millis(wait * 1000 + 200)).await;
        assert_eq!(
            server
                .get("/api/validate-company-key?key=Zz9Zz9Zz")
                .await
                .status_code(),
            404,
            "the limit reset"
        );
    })
    .await;
}

#[tokio::test]
async fn portal_uploads_follow_the_portal_rules_and_leave_nothing_when_refused() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let key = create_vendor(&server, &ann, "Rules Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let pdf = || Some(("coi.pdf", fixtures::pdf()));
        let cases = [
            (
                form(&key, "coi", Some("general_liability"), None, pdf()),
                422,
                "Expiration date is required for Certificate of Insurance (General Liability)",
            ),
            (
                form(&key, "coi", Some("automobile"), Some(in_days(-2)), pdf()),
                422,
                "The expiration date cannot be in the past.",
            ),
            (
                form(&key, "w9", None, None, None),
                422,
                "Please select a document file",
            ),
            (
                form(&key, "", None, None, pdf()),
                422,
                "Please select a document type",
            ),
            (
                form(&key, "w9", None, None, Some(("setup.pdf", fixtures::exe()))),
                415,
                "",
            ),
            (
                form(&key, "w9", None, None, Some(("empty.pdf", vec![]))),
                422,
                "The file is empty.",
            ),
            (
                form(
                    &key,
                    "w9",
                    None,
                    None,
                    Some(("w9.pdf", fixtures::pdf_user_password_aes256())),
                ),
                422,
                "This PDF is password-protected. Please upload it without a password (open it, \
                 then save or print it as a new PDF).",
            ),
            (
                form(
                    &key,
                    "w9",
                    None,
                    None,
                    Some(("w9.docx", fixtures::plain_zip())),
                ),
                415,
                "",
            ),
        ];
        for (f, status, message) in cases {
            let res = server
                .post("/api/vendor-upload-document")
                .multipart(f)
                .await;
            assert_eq!(res.status_code(), status, "{}", res.text());
            if !message.is_empty() {
                assert_eq!(res.json::<Value>()["message"], message);
            }
        }
        let res = server
            .post("/api/vendor-upload-document")
            .multipart(form("Nope1234", "w9", None, None, pdf()))
            .await;
        assert_envelope(&res, 404, "company_key_not_found");
        assert!(stored_files(&ctx, &ann).await.is_empty());
        assert!(get(&server, &ann, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());
        assert_eq!(
            ctx.mailer.as_ref().unwrap().deliveries().count,
            0,
            "a refused upload tells nobody"
        );
    })
    .await;
}

#[tokio::test]
async fn a_portal_upload_lands_in_the_clients_vendor_and_nowhere_else() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", Some("Acme Property Group")).await;
        let key = create_vendor(&server, &ann, "Bright Plumbing").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mallory = other_org(&server).await;

        let res = server
            .post("/api/vendor-upload-document")
            .multipart(
                form(
                    &key,
                    "coi",
                    Some("workers_comp"),
                    Some(in_days(20)),
                    Some(("wc.pdf", fixtures::pdf())),
                )
                .add_text("notes", "Policy WC-9"),
            )
            .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let body: Value = res.json();
        assert_eq!(
            keys(&body),
            ["companyName", "document"].map(String::from).into()
        );
        assert_eq!(body["companyName"], "Bright Plumbing");
        assert_eq!(
            keys(&body["document"]),
            [
                "coiType",
                "documentType",
                "expirationDate",
                "fileName",
                "id",
                "status"
            ]
            .map(String::from)
            .into()
        );
        assert_eq!(body["document"]["status"], "expiring_soon");

        let docs: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0]["source"], "vendor_portal");
        assert_eq!(
            docs[0]["notes"],
            "COI Type: Workers Compensation - Policy WC-9"
        );
        let vendor: Value = get(&server, &ann, &format!("/api/vendors/{key}"))
            .await
            .json();
        assert_eq!(vendor["slots"][2]["status"], "expiring_soon");
        assert_eq!(
            get(&server, &ann, "/api/reminders")
                .await
                .json::<Vec<Value>>()
                .len(),
            3
        );
        let log: Vec<Value> = get(&server, &ann, "/api/activity-logs?type=document_uploaded")
            .await
            .json();
        assert!(log[0]["description"]
            .as_str()
            .unwrap()
            .ends_with("uploaded through the vendor portal"));
        assert_eq!(log[0]["source"], "vendor_portal");
        assert_eq!(
            log[0]["actor"],
            Value::Null,
            "no person of the organization"
        );

        assert_only_the_client_hears_of_it(&server, &ctx, &ann, &mallory).await;

        let check: Value = server
            .get(&format!("/api/validate-company-key?key={key}"))
            .await
            .json();
        assert_eq!(
            slot_uploaded(&check, "coi_workers_comp"),
            false,
            "expiring soon: the portal asks for a renewal"
        );
        let res = server
            .post("/api/vendor-upload-document")
            .multipart(form(
                &key,
                "w9",
                None,
                None,
                Some(("w9.pdf", fixtures::pdf())),
            ))
            .await;
        assert_eq!(res.status_code(), 201);
        let check: Value = server
            .get(&format!("/api/validate-company-key?key={key}"))
            .await
            .json();
        assert_eq!(slot_uploaded(&check, "w9"), true);
    })
    .await;
}

/// The client's users are told of the portal upload to "Bright Plumbing"; the other
/// organization (`mallory`) gets no email and sees no document or activity.
async fn assert_only_the_client_hears_of_it(
    server: &loco_rs::TestServer,
    ctx: &AppContext,
    ann: &Account,
    mallory: &Account,
) {
    let deliveries = ctx.mailer.as_ref().unwrap().deliveries();
    let to_ann: Vec<&String> = deliveries
        .messages
        .iter()
        .filter(|m| m.contains(&format!("To: {}", ann.email)))
        .collect();
    assert_eq!(to_ann.len(), 1, "the client's users are told");
    assert!(to_ann[0].contains("Bright Plumbing"));
    assert!(!deliveries
        .messages
        .iter()
        .any(|m| m.contains(&mallory.email)));

    assert!(get(server, mallory, "/api/documents")
        .await
        .json::<Vec<Value>>()
        .is_empty());
    assert!(get(server, mallory, "/api/activity-logs")
        .await
        .json::<Vec<Value>>()
        .is_empty());
}

/// Whether the portal's key check says the document of `slot` is uploaded.
fn slot_uploaded(check: &Value, slot: &str) -> Value {
    check["requiredDocuments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["slot"] == slot)
        .unwrap()["uploaded"]
        .clone()
}

async fn exhaust_key_checks(server: &loco_rs::TestServer, forwarded_for: &str) {
    for _ in 0..5 {
        let res = server
            .get("/api/validate-company-key?key=Zz9Zz9Zz")
            .add_header(
                axum::http::HeaderName::from_static("x-forwarded-for"),
                axum::http::HeaderValue::from_str(forwarded_for).unwrap(),
            )
            .await;
        assert_eq!(res.status_code(), 404);
    }
}

#[tokio::test]
async fn a_forwarded_address_is_ignored_unless_the_proxy_header_is_configured() {
    with_app(|server, _ctx| async move {
        exhaust_key_checks(&server, "10.0.0.1").await;
        let res = server
            .get("/api/validate-company-key?key=Zz9Zz9Zz")
            .add_header(
                axum::http::HeaderName::from_static("x-forwarded-for"),
                axum::http::HeaderValue::from_static("10.0.0.2"),
            )
            .await;
        assert_eq!(
            res.status_code(),
            429,
            "a made-up X-Forwarded-For does not buy new attempts"
        );
    })
    .await;
}

#[tokio::test]
async fn behind_a_configured_proxy_each_client_address_has_its_own_limit() {
    use loco_rs::controller::middleware::remote_ip::{ClientIpSource, RemoteIpMiddleware};
    let edit = |config: &mut loco_rs::config::Config| {
        config.server.middlewares.remote_ip = Some(RemoteIpMiddleware {
            enable: true,
            source: ClientIpSource::RightmostXForwardedFor,
        });
    };
    crate::support::with_app_config(edit, |server, _ctx| async move {
        exhaust_key_checks(&server, "203.0.113.7").await;
        let blocked = server
            .get("/api/validate-company-key?key=Zz9Zz9Zz")
            .add_header(
                axum::http::HeaderName::from_static("x-forwarded-for"),
                axum::http::HeaderValue::from_static("203.0.113.7"),
            )
            .await;
        assert_eq!(blocked.status_code(), 429);
        let other = server
            .get("/api/validate-company-key?key=Zz9Zz9Zz")
            .add_header(
                axum::http::HeaderName::from_static("x-forwarded-for"),
                axum::http::HeaderValue::from_static("203.0.113.8"),
            )
            .await;
        assert_eq!(
            other.status_code(),
            404,
            "another client behind the proxy is not blocked"
        );
    })
    .await;
}
