use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::models::{_entities::vendors, organizations, users};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, other_org, register, upload, vendor_body,
    with_app, Account, UploadSpec,
};

async fn vendor_count(ctx: &loco_rs::app::AppContext) -> u64 {
    vendors::Entity::find().count(&ctx.db).await.unwrap()
}

#[tokio::test]
async fn adding_a_vendor_generates_an_eight_character_key_and_starts_missing() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", Some("Acme")).await;
        let v = create_vendor(&server, &ann, "Bright Plumbing").await;
        let key = v["id"].as_str().unwrap();
        assert_eq!(v["companyKey"], key);
        assert_eq!(key.len(), 8);
        assert!(key.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(v["documentStatus"], "missing");
        assert_eq!(v["documentCount"], 0);
        assert_eq!(v["serviceType"], "plumbing");
        assert_eq!(v["zipCode"], "62701");
        let slots: Vec<&str> = v["slots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["slot"].as_str().unwrap())
            .collect();
        assert_eq!(
            slots,
            [
                "w9",
                "coi_general_liability",
                "coi_workers_comp",
                "coi_automobile",
                "sales_tax",
                "vendor_agreement",
                "other"
            ]
        );
        assert!(v["slots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["status"] == "missing"));
        assert_eq!(v["requiredDocuments"].as_array().unwrap().len(), 6);
        let activity: Value = get(&server, &ann, "/api/activity-logs").await.json();
        assert_eq!(activity[0]["activityType"], "vendor_created");
        assert!(activity[0]["description"]
            .as_str()
            .unwrap()
            .contains("Bright Plumbing"));
    })
    .await;
}

#[tokio::test]
async fn a_key_sent_by_the_form_is_used_once_across_all_organizations() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let mut body = vendor_body("Keyed Vendor");
        body["companyKey"] = json!("Ab3dE6gH");
        let (h, v) = bearer(&ann.token);
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&body)
            .await;
        assert_eq!(res.status_code(), 201);
        assert_eq!(res.json::<Value>()["id"], "Ab3dE6gH");

        let other = other_org(&server).await;
        let (h, v) = bearer(&other.token);
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&body)
            .await;
        assert_envelope(&res, 409, "company_key_taken");
        assert_eq!(vendor_count(&ctx).await, 1);
    })
    .await;
}

#[tokio::test]
async fn vendor_forms_refuse_each_bad_field_and_create_nothing() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let (h, v) = bearer(&ann.token);
        let res = server.post("/api/vendors").add_header(h.clone(), v.clone()).json(&json!({})).await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert_eq!(body["errors"]["name"][0], "Vendor name is required");
        assert_eq!(body["errors"]["email"][0], "Contact email is required");
        assert_eq!(body["errors"]["serviceType"][0], "Service type is required");

        let res = server
            .post("/api/vendors")
            .add_header(h.clone(), v.clone())
            .json(&json!({"name": "X", "email": "nope", "serviceType": "astrology", "companyKey": "abc-123!",
                "requiredDocuments": ["w9", "passport"]}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert_eq!(body["errors"]["email"][0], "Invalid email address");
        assert!(body["errors"]["serviceType"].is_array());
        assert!(body["errors"]["companyKey"].is_array());
        assert!(body["errors"]["requiredDocuments"].is_array());

        let res = server.post("/api/vendors").add_header(h, v).text("not json").await;
        assert_eq!(res.status_code(), 400);
        assert_eq!(vendor_count(&ctx).await, 0);
    })
    .await;
}

#[tokio::test]
async fn the_third_vendor_on_free_is_a_402_and_professional_allows_more() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        create_vendor(&server, &ann, "One").await;
        create_vendor(&server, &ann, "Two").await;
        let (h, v) = bearer(&ann.token);
        let res = server.post("/api/vendors").add_header(h.clone(), v.clone()).json(&vendor_body("Three")).await;
        let body = assert_envelope(&res, 402, "plan_limit");
        assert_eq!(body["message"], "Free accounts are limited to 2 vendors maximum.");
        assert_eq!(vendor_count(&ctx).await, 2);

        let status: Value = get(&server, &ann, "/api/payment-status").await.json();
        assert_eq!(status, json!({"plan": "free", "currentVendorCount": 2, "vendorLimit": 2, "documentLimitPerVendor": 10,
                "billingEnabled": false, "renewsAt": null, "cancelAt": null, "paymentProblem": null}));

        let user = users::Model::find_by_email(&ctx.db, &ann.email).await.unwrap();
        let org = user.organization(&ctx.db).await.unwrap();
        sea_orm::IntoActiveModel::into_active_model(org).set_plan(&ctx.db, organizations::Plan::Professional).await.unwrap();
        let res = server.post("/api/vendors").add_header(h, v).json(&vendor_body("Three")).await;
        assert_eq!(res.status_code(), 201);
        let status: Value = get(&server, &ann, "/api/payment-status").await.json();
        assert_eq!(status["vendorLimit"], 25);
        assert_eq!(status["documentLimitPerVendor"], Value::Null);
    })
    .await;
}

#[tokio::test]
async fn vendors_list_filters_by_text_and_status_and_pages_with_a_total() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let a = create_vendor(&server, &ann, "Alpha Electric").await;
        create_vendor(&server, &ann, "Beta Cleaning").await;
        let mut spec = UploadSpec::pdf("w9");
        spec.expiration_date = Some(crate::support::in_days(400));
        assert_eq!(
            upload(&server, &ann, a["id"].as_str().unwrap(), &spec)
                .await
                .status_code(),
            201
        );

        let res = get(&server, &ann, "/api/vendors").await;
        assert_eq!(res.header("x-total-count"), "2");
        let all: Vec<Value> = res.json();
        assert_eq!(all.len(), 2);

        let found: Vec<Value> = get(&server, &ann, "/api/vendors?q=ALPHA").await.json();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0]["name"], "Alpha Electric");

        let current: Vec<Value> = get(&server, &ann, "/api/vendors?status=current")
            .await
            .json();
        assert_eq!(current.len(), 1);
        assert_eq!(current[0]["documentStatus"], "current");
        let missing: Vec<Value> = get(&server, &ann, "/api/vendors?status=missing")
            .await
            .json();
        assert_eq!(missing[0]["name"], "Beta Cleaning");

        let res = get(&server, &ann, "/api/vendors?limit=1&offset=1").await;
        assert_eq!(res.header("x-total-count"), "2");
        assert_eq!(res.json::<Vec<Value>>().len(), 1);

        assert_envelope(
            &get(&server, &ann, "/api/vendors?status=purple").await,
            422,
            "validation_failed",
        );
    })
    .await;
}

#[tokio::test]
async fn showing_a_vendor_includes_its_current_documents() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let v = create_vendor(&server, &ann, "Gamma HVAC").await;
        let id = v["id"].as_str().unwrap();
        upload(&server, &ann, id, &UploadSpec::pdf("w9")).await;
        let shown: Value = get(&server, &ann, &format!("/api/vendors/{id}"))
            .await
            .json();
        assert_eq!(shown["documents"].as_array().unwrap().len(), 1);
        assert_eq!(shown["documents"][0]["documentType"], "w9");
        assert_eq!(shown["slots"][0]["status"], "current");
        assert_eq!(shown["documentStatus"], "current");
    })
    .await;
}

#[tokio::test]
async fn editing_a_vendor_keeps_its_key_and_logs_it() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let v = create_vendor(&server, &ann, "Delta Security").await;
        let id = v["id"].as_str().unwrap().to_string();
        let mut body = vendor_body("Delta Security Group");
        body["companyKey"] = json!("ZZZZZZZZ");
        body["serviceType"] = json!("security");
        body["requiredDocuments"] = json!(["w9", "coi_general_liability"]);
        let (h, hv) = bearer(&ann.token);
        let res = server
            .put(&format!("/api/vendors/{id}"))
            .add_header(h.clone(), hv.clone())
            .json(&body)
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let updated: Value = res.json();
        assert_eq!(updated["id"], id.as_str());
        assert_eq!(updated["name"], "Delta Security Group");
        assert_eq!(
            updated["requiredDocuments"],
            json!(["w9", "coi_general_liability"])
        );

        let res = server
            .put(&format!("/api/vendors/{id}"))
            .add_header(h, hv)
            .json(&json!({"name": "", "email": "bad", "serviceType": "security"}))
            .await;
        assert_envelope(&res, 422, "validation_failed");
        let shown: Value = get(&server, &ann, &format!("/api/vendors/{id}"))
            .await
            .json();
        assert_eq!(
            shown["name"], "Delta Security Group",
            "a refused edit changes nothing"
        );

        let log: Vec<Value> = get(&server, &ann, "/api/activity-logs?type=vendor_updated")
            .await
            .json();
        assert_eq!(log.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn deleting_a_vendor_removes_its_documents_files_and_reminders() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let v = create_vendor(&server, &ann, "Echo Landscaping").await;
        let id = v["id"].as_str().unwrap();
        let mut spec = UploadSpec::pdf("coi");
        spec.coi_type = Some("general_liability");
        spec.expiration_date = Some(crate::support::in_days(60));
        assert_eq!(upload(&server, &ann, id, &spec).await.status_code(), 201);
        assert_eq!(crate::support::stored_files(&ctx, &ann).await.len(), 1);
        assert_eq!(
            get(&server, &ann, "/api/reminders")
                .await
                .json::<Vec<Value>>()
                .len(),
            3
        );

        let (h, hv) = bearer(&ann.token);
        let res = server
            .delete(&format!("/api/vendors/{id}"))
            .add_header(h, hv)
            .await;
        assert_eq!(res.status_code(), 204);
        assert_envelope(
            &get(&server, &ann, &format!("/api/vendors/{id}")).await,
            404,
            "not_found",
        );
        assert!(
            crate::support::stored_files(&ctx, &ann).await.is_empty(),
            "files removed"
        );
        assert!(get(&server, &ann, "/api/reminders")
            .await
            .json::<Vec<Value>>()
            .is_empty());
        assert!(get(&server, &ann, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());
        let log: Vec<Value> = get(&server, &ann, "/api/activity-logs?type=vendor_deleted")
            .await
            .json();
        assert!(log[0]["description"]
            .as_str()
            .unwrap()
            .contains("Echo Landscaping"));
    })
    .await;
}

#[tokio::test]
async fn another_organizations_vendor_is_not_found_for_every_route_and_stays_unchanged() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let v = create_vendor(&server, &ann, "Foxtrot Cleaning").await;
        let id = v["id"].as_str().unwrap();
        let mallory: Account = other_org(&server).await;
        let (h, hv) = bearer(&mallory.token);

        assert_envelope(
            &get(&server, &mallory, &format!("/api/vendors/{id}")).await,
            404,
            "not_found",
        );
        assert_envelope(
            &get(&server, &mallory, &format!("/api/vendors/{id}/documents")).await,
            404,
            "not_found",
        );
        let res = server
            .put(&format!("/api/vendors/{id}"))
            .add_header(h.clone(), hv.clone())
            .json(&vendor_body("Hijacked"))
            .await;
        assert_envelope(&res, 404, "not_found");
        // Not found before the fields are checked: a refusal tells nothing of the vendor.
        let res = server
            .put(&format!("/api/vendors/{id}"))
            .add_header(h.clone(), hv.clone())
            .json(&json!({"name": "", "email": "bad"}))
            .await;
        assert_envelope(&res, 404, "not_found");
        let res = server
            .delete(&format!("/api/vendors/{id}"))
            .add_header(h.clone(), hv.clone())
            .await;
        assert_envelope(&res, 404, "not_found");
        let res = upload(&server, &mallory, id, &UploadSpec::pdf("w9")).await;
        assert_envelope(&res, 404, "not_found");
        assert!(get(&server, &mallory, "/api/vendors")
            .await
            .json::<Vec<Value>>()
            .is_empty());

        let shown: Value = get(&server, &ann, &format!("/api/vendors/{id}"))
            .await
            .json();
        assert_eq!(shown["name"], "Foxtrot Cleaning");
        assert_eq!(shown["documentCount"], 0);
        assert_eq!(vendor_count(&ctx).await, 1);
        assert!(get(&server, &mallory, "/api/activity-logs")
            .await
            .json::<Vec<Value>>()
            .is_empty());
    })
    .await;
}

#[tokio::test]
async fn every_tenant_route_needs_a_token() {
    with_app(|server, _ctx| async move {
        for (method, path) in [
            ("GET", "/api/vendors"),
            ("POST", "/api/vendors"),
            ("GET", "/api/vendors/Ab3dE6gH"),
            ("PUT", "/api/vendors/Ab3dE6gH"),
            ("DELETE", "/api/vendors/Ab3dE6gH"),
            ("GET", "/api/vendors/Ab3dE6gH/documents"),
            ("POST", "/api/vendors/Ab3dE6gH/documents"),
            ("GET", "/api/documents"),
            ("GET", "/api/documents/00000000-0000-0000-0000-000000000000"),
            ("PUT", "/api/documents/00000000-0000-0000-0000-000000000000"),
            (
                "DELETE",
                "/api/documents/00000000-0000-0000-0000-000000000000",
            ),
            (
                "GET",
                "/api/documents/00000000-0000-0000-0000-000000000000/download",
            ),
            (
                "GET",
                "/api/documents/00000000-0000-0000-0000-000000000000/view",
            ),
            ("GET", "/api/activity-logs"),
            ("GET", "/api/reminders"),
            ("GET", "/api/payment-status"),
            ("GET", "/api/dashboard/stats"),
        ] {
            let req = match method {
                "GET" => server.get(path),
                "POST" => server.post(path).json(&json!({})),
                "PUT" => server.put(path).json(&json!({})),
                _ => server.delete(path),
            };
            let res = req.await;
            assert_eq!(res.status_code(), 401, "{method} {path}");
            assert_eq!(
                res.json::<Value>()["error"],
                "unauthorized",
                "{method} {path}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn a_spoofed_x_user_id_or_user_id_parameter_never_reaches_another_tenant() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        create_vendor(&server, &ann, "Ann's Vendor").await;
        let bob = register(&server, "Bob Ng", None).await;
        let ann_id = ann.user["id"].as_str().unwrap();
        let (h, v) = bearer(&bob.token);
        let res = server
            .get(&format!("/api/vendors?user_id={ann_id}"))
            .add_header(h, v)
            .add_header(
                axum::http::HeaderName::from_static("x-user-id"),
                axum::http::HeaderValue::from_str(ann_id).unwrap(),
            )
            .await;
        assert_eq!(res.status_code(), 200);
        assert!(
            res.json::<Vec<Value>>().is_empty(),
            "Bob sees none of Ann's vendors"
        );
    })
    .await;
}
