//! What every response shares: the error envelope, security headers, the single-page
//! fallback and the `OpenAPI` document.

use std::collections::BTreeSet;

use axum::{body::Body, http::Request, routing::get, Router};
use loco_rs::boot::list_endpoints;
use serde_json::Value;
use tower::ServiceExt;
use vendorwatch::{app::App, errors, infra::security_headers::CONTENT_SECURITY_POLICY};

use crate::support::{assert_envelope, with_app};

#[tokio::test]
async fn unknown_api_paths_answer_a_json_404_never_the_app() {
    with_app(|server, _ctx| async move {
        for path in ["/api/nope", "/api/vendors/abc/unknown/deep", "/api"] {
            let res = server.get(path).await;
            assert_envelope(&res, 404, "not_found");
            assert!(!res.text().contains("spa-shell"), "{path} served the app");
        }
        let res = server.post("/api/nope").await;
        assert_envelope(&res, 404, "not_found");
    })
    .await;
}

#[tokio::test]
async fn a_wrong_method_is_a_405_envelope() {
    with_app(|server, _ctx| async move {
        let res = server.get("/api/auth/login").await;
        assert_envelope(&res, 405, "method_not_allowed");
        let res = server.delete("/api/auth/me").await;
        assert_envelope(&res, 405, "method_not_allowed");
    })
    .await;
}

#[tokio::test]
async fn app_routes_get_the_single_page_app() {
    with_app(|server, _ctx| async move {
        for path in ["/", "/login", "/vendors/abc/edit", "/no/such/page"] {
            let res = server.get(path).await;
            assert_eq!(res.status_code(), 200, "{path}");
            assert!(res.text().contains("spa-shell"), "{path} is the app shell");
        }
    })
    .await;
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    with_app(|server, _ctx| async move {
        for path in ["/", "/vendors/abc", "/api/auth/me", "/api/openapi.json"] {
            let res = server.get(path).await;
            let csp = res.header("content-security-policy");
            assert_eq!(csp.to_str().unwrap(), CONTENT_SECURITY_POLICY, "{path}");
            assert_eq!(res.header("x-content-type-options"), "nosniff", "{path}");
            assert!(res.maybe_header("referrer-policy").is_some(), "{path}");
            assert!(
                res.maybe_header("x-request-id").is_some(),
                "{path} has a request id"
            );
            assert!(
                res.maybe_header("strict-transport-security").is_none(),
                "HSTS only in production"
            );
        }
        for directive in [
            "script-src 'self'",
            "object-src 'none'",
            "base-uri",
            "frame-ancestors",
        ] {
            assert!(CONTENT_SECURITY_POLICY.contains(directive), "{directive}");
        }
        assert!(!CONTENT_SECURITY_POLICY.contains("unsafe-eval"));
        assert!(!CONTENT_SECURITY_POLICY.contains("script-src 'self' 'unsafe-inline'"));
    })
    .await;
}

#[tokio::test]
async fn the_openapi_document_lists_every_api_route() {
    with_app(|server, ctx| async move {
        let res = server.get("/api/openapi.json").await;
        assert_eq!(res.status_code(), 200);
        let doc: Value = res.json();
        assert!(doc["openapi"].as_str().unwrap().starts_with("3."));

        let documented: BTreeSet<String> = doc["paths"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(path, ops)| {
                ops.as_object()
                    .unwrap()
                    .keys()
                    .map(move |method| format!("{} {path}", method.to_uppercase()))
            })
            .collect();
        let served: BTreeSet<String> = list_endpoints::<App>(&ctx)
            .into_iter()
            .filter(|r| r.uri.starts_with("/api") && !r.uri.contains("{*") && r.uri != "/api/")
            .flat_map(|r| {
                let uri = r.uri.clone();
                r.actions
                    .into_iter()
                    .filter(|m| *m != axum::http::Method::HEAD)
                    .map(move |m| format!("{m} {uri}"))
            })
            .collect();
        assert!(!served.is_empty());
        assert_eq!(documented, served, "the document and the router disagree");
    })
    .await;
}

#[tokio::test]
async fn a_panic_in_an_api_handler_becomes_a_500_envelope_without_details() {
    async fn boom() -> &'static str {
        panic!("secret internal detail")
    }
    let router = Router::new()
        .route("/api/boom", get(boom))
        .layer(tower_http::catch_panic::CatchPanicLayer::new())
        .layer(axum::middleware::from_fn(errors::api_envelope));
    let res = router
        .oneshot(Request::get("/api/boom").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), 500);
    let body = axum::body::to_bytes(res.into_body(), 10_000).await.unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["error"], "internal_error");
    assert!(!body.to_string().contains("secret internal detail"));
}

#[tokio::test]
async fn public_config_names_the_support_contact_and_the_plans() {
    with_app(|server, _ctx| async move {
        let res = server.get("/api/config").await;
        assert_eq!(res.status_code(), 200);
        let body: Value = res.json();
        assert_eq!(body["supportEmail"], "support@vendorwatch.app");
        assert_eq!(body["plans"]["free"]["vendorLimit"], 2);
        assert_eq!(body["plans"]["free"]["documentsPerVendor"], 10);
        assert_eq!(body["plans"]["professional"]["vendorLimit"], 25);
        assert_eq!(body["plans"]["professional"]["priceCents"], 2900);
    })
    .await;
}

#[tokio::test]
async fn production_adds_hsts() {
    let router = vendorwatch::infra::security_headers::apply(
        Router::new().route("/", get(|| async { "ok" })),
        true,
    );
    let res = router
        .oneshot(Request::get("/").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(
        res.headers().get("strict-transport-security").unwrap(),
        "max-age=31536000; includeSubDomains"
    );
    assert_eq!(
        res.headers().get("x-content-type-options").unwrap(),
        "nosniff"
    );
    let production = std::fs::read_to_string("config/production.yaml").unwrap();
    assert!(
        production.contains("hsts: true"),
        "production turns HSTS on"
    );
}

#[tokio::test]
async fn built_assets_are_cached_a_year_gzipped_and_pages_revalidated() {
    with_app(|server, _ctx| async move {
        let asset = server
            .get("/assets/app-3f9a1c.js")
            .add_header(
                axum::http::header::ACCEPT_ENCODING,
                axum::http::HeaderValue::from_static("gzip, deflate, br"),
            )
            .await;
        assert_eq!(asset.status_code(), 200);
        assert_eq!(
            asset.header("cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(
            asset.header("content-encoding"),
            "gzip",
            "the build's .gz copy"
        );
        // One address, two bodies: shared caches are told to keep them apart.
        assert!(asset
            .header("vary")
            .to_str()
            .unwrap()
            .to_ascii_lowercase()
            .contains("accept-encoding"));
        let plain = server.get("/assets/app-3f9a1c.js").await;
        assert!(plain.maybe_header("vary").is_some());
        assert!(plain.maybe_header("content-encoding").is_none());
        assert!(plain.text().contains("vendorwatch test asset"));
        for path in ["/", "/dashboard", "/vendors/abc"] {
            let page = server.get(path).await;
            assert_eq!(page.header("cache-control"), "no-cache", "{path}");
        }
        let missing = server.get("/assets/app-missing.js").await;
        assert_ne!(
            missing
                .maybe_header("cache-control")
                .map(|v| v.to_str().unwrap().to_string()),
            Some("public, max-age=31536000, immutable".to_string()),
            "a missing asset is never cached for a year"
        );
        let api = server.get("/api/openapi.json").await;
        assert_ne!(
            api.header("cache-control"),
            "public, max-age=31536000, immutable"
        );
    })
    .await;
}

/// A component's schema when `schema` names one, else `schema` itself.
fn resolved<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    schema["$ref"]
        .as_str()
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
        .map_or(schema, |name| &doc["components"]["schemas"][name])
}

/// The parameter `name` of an operation.
fn parameter<'a>(doc: &'a Value, path: &str, method: &str, name: &str) -> &'a Value {
    doc["paths"][path][method]["parameters"]
        .as_array()
        .and_then(|params| params.iter().find(|p| p["name"] == name))
        .unwrap_or_else(|| panic!("{method} {path} documents `{name}`"))
}

/// A property of the request body of an operation, as its content type `content_type` has it.
fn body_property<'a>(doc: &'a Value, path: &str, content_type: &str, name: &str) -> &'a Value {
    let body = resolved(
        doc,
        &doc["paths"][path]["post"]["requestBody"]["content"][content_type]["schema"],
    );
    &body["properties"][name]
}

#[tokio::test]
async fn the_openapi_document_states_what_the_server_answers_and_takes() {
    use vendorwatch::controllers::openapi::{COMPANY_KEY, NOT_BLANK, NO_NUL};
    with_app(|server, _ctx| async move {
        let doc: Value = server.get("/api/openapi.json").await.json();

        // The expirations report is an object holding its weeks.
        let ok = &doc["paths"]["/api/reports/expirations"]["get"]["responses"]["200"]["content"];
        let report = resolved(&doc, &ok["application/json"]["schema"]);
        assert_eq!(report["type"], "object", "{report}");
        assert_eq!(report["properties"]["weeks"]["type"], "array", "{report}");
        assert_eq!(report["required"], serde_json::json!(["weeks"]), "{report}");

        // `?format=csv` answers CSV: the reports say so, as the exports do.
        for path in [
            "/api/reports/compliance",
            "/api/reports/expirations",
            "/api/reports/non-compliant",
            "/api/reports/responsiveness",
            "/api/vendors/export",
            "/api/documents/export",
        ] {
            let content = &doc["paths"][path]["get"]["responses"]["200"]["content"];
            assert!(content["text/csv"].is_object(), "{path}: {content}");
        }

        // A Stripe event without its signature is refused: the header is required.
        let signature = parameter(&doc, "/api/webhooks/stripe", "post", "Stripe-Signature");
        assert_eq!(signature["in"], "header");
        assert_eq!(signature["required"], true);

        // A compliance trend covers 30, 90 or 365 days.
        let days = parameter(&doc, "/api/reports/compliance", "get", "days");
        assert_eq!(
            days["schema"]["enum"],
            serde_json::json!([30, 90, 365]),
            "{days}"
        );
        let status = parameter(&doc, "/api/reports/non-compliant", "get", "status");
        assert!(
            !status["schema"]["enum"]
                .as_array()
                .unwrap()
                .contains(&"current".into()),
            "{status}"
        );

        // A bulk call names at least one id, none blank.
        let ids = &doc["components"]["schemas"]["BulkIds"]["properties"]["ids"];
        assert_eq!(ids["minItems"], 1, "{ids}");
        assert_eq!(resolved(&doc, &ids["items"])["pattern"], NOT_BLANK, "{ids}");
        assert_eq!(
            doc["components"]["schemas"]["BulkIds"]["required"],
            serde_json::json!(["ids"])
        );

        // A company key is 8 letters or digits, wherever a vendor gives one.
        assert_eq!(COMPANY_KEY, "^[A-Za-z0-9]{8}$");
        let key = parameter(&doc, "/api/validate-company-key", "get", "key");
        assert_eq!(key["schema"]["pattern"], COMPANY_KEY, "{key}");
        let form_key = body_property(
            &doc,
            "/api/vendor-upload-document",
            "multipart/form-data",
            "companyKey",
        );
        assert_eq!(form_key["pattern"], COMPANY_KEY, "{form_key}");

        // A form field is text or absent: never null (schemathesis would send "null" as text).
        for (path, field) in [
            ("/api/vendor-upload-document", "notes"),
            ("/api/vendor-upload-document", "expirationDate"),
            ("/api/vendor-upload-document", "coiType"),
            ("/api/vendors/{id}/documents", "notes"),
            ("/api/vendors/{id}/documents", "expirationDate"),
            ("/api/vendors/{id}/documents", "coiType"),
            ("/api/vendors/{id}/documents", "vendorId"),
        ] {
            let property = body_property(&doc, path, "multipart/form-data", field).to_string();
            assert!(
                !property.contains(r#""null""#),
                "{path} {field}: {property}"
            );
        }

        // No text a client sends may hold a NUL: the patterns say so.
        let vendor = &doc["components"]["schemas"]["VendorParams"]["properties"];
        assert_eq!(vendor["name"]["pattern"], NOT_BLANK, "{vendor}");
        assert_eq!(vendor["notes"]["pattern"], NO_NUL, "{vendor}");
        let q = parameter(&doc, "/api/vendors", "get", "q");
        assert_eq!(q["schema"]["pattern"], NO_NUL, "{q}");

        // A keyword row's cells: what the upload takes and nothing else.
        let row = &doc["components"]["schemas"]["KeywordRow"];
        assert_eq!(row["additionalProperties"], false, "{row}");
        assert_eq!(row["properties"]["keyword"]["maxLength"], 200, "{row}");
        assert_eq!(row["properties"]["category"]["maxLength"], 60, "{row}");
        let cell = &row["properties"]["difficulty"];
        let difficulty = resolved(&doc, cell["oneOf"].get(0).unwrap_or(cell));
        let kinds: Vec<&Value> = difficulty["anyOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{difficulty}"))
            .iter()
            .map(|s| &s["type"])
            .collect();
        assert_eq!(kinds, ["integer", "string", "null"], "{difficulty}");
        assert_eq!(difficulty["anyOf"][0]["minimum"], 1);
        assert_eq!(difficulty["anyOf"][0]["maximum"], 100);
        assert!(
            row["properties"]["priority"]["pattern"].is_string(),
            "{row}"
        );
    })
    .await;
}
