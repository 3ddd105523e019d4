use serde_json::{json, Value};

use crate::{
    fixtures,
    support::{
        assert_envelope, bearer, create_vendor, get, in_days, other_org, register, stored_files,
        upload, with_app, Account, UploadSpec,
    },
};

fn coi(days: i64) -> UploadSpec<'static> {
    UploadSpec {
        file_name: "GL certificate.pdf",
        bytes: fixtures::pdf(),
        document_type: "coi",
        coi_type: Some("general_liability"),
        expiration_date: Some(in_days(days)),
        notes: Some("Policy 42"),
    }
}

async fn vendor(server: &loco_rs::TestServer, account: &Account) -> String {
    create_vendor(server, account, "Acme Plumbing").await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn a_coi_expiring_in_ten_days_is_expiring_soon_with_three_reminders() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let res = upload(&server, &ann, &id, &coi(10)).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let doc: Value = res.json();
        assert_eq!(doc["status"], "expiring_soon");
        assert_eq!(doc["documentType"], "coi");
        assert_eq!(doc["coiType"], "general_liability");
        assert_eq!(doc["notes"], "COI Type: General Liability - Policy 42");
        assert_eq!(doc["vendorId"], id.as_str());
        assert_eq!(doc["vendor"], "Acme Plumbing");
        assert_eq!(doc["fileName"], "GL certificate.pdf");
        assert_eq!(doc["contentType"], "application/pdf");
        assert_eq!(doc["size"], fixtures::pdf().len());
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["source"], "user");
        assert_eq!(doc["expirationDate"], in_days(10));

        let v: Value = get(&server, &ann, &format!("/api/vendors/{id}"))
            .await
            .json();
        assert_eq!(v["documentStatus"], "expiring_soon");
        assert_eq!(v["slots"][1]["status"], "expiring_soon");
        assert_eq!(v["slots"][1]["documentId"], doc["id"]);

        let reminders: Vec<Value> = get(&server, &ann, "/api/reminders").await.json();
        let dates: Vec<&str> = reminders
            .iter()
            .map(|r| r["reminderDate"].as_str().unwrap())
            .collect();
        assert_eq!(dates, [in_days(0), in_days(3), in_days(10)]);
        assert!(reminders
            .iter()
            .all(|r| r["sent"] == false && r["sentAt"].is_null()));
        assert_eq!(reminders[0]["document"]["vendorId"], id.as_str());
        assert_eq!(reminders[0]["document"]["status"], "expiring_soon");
    })
    .await;
}

#[tokio::test]
async fn renewing_a_coi_makes_the_new_one_current_and_keeps_the_old_as_history() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let old: Value = upload(&server, &ann, &id, &coi(10)).await.json();
        let new: Value = upload(&server, &ann, &id, &coi(400)).await.json();
        assert_eq!(new["version"], 2);
        assert_eq!(new["status"], "current");

        let v: Value = get(&server, &ann, &format!("/api/vendors/{id}"))
            .await
            .json();
        assert_eq!(v["documentStatus"], "current");
        assert_eq!(v["documentCount"], 1);
        assert_eq!(v["slots"][1]["documentId"], new["id"]);

        let shown: Value = get(
            &server,
            &ann,
            &format!("/api/documents/{}", new["id"].as_str().unwrap()),
        )
        .await
        .json();
        assert_eq!(shown["history"].as_array().unwrap().len(), 1);
        assert_eq!(shown["history"][0]["id"], old["id"]);
        assert_eq!(shown["history"][0]["isCurrent"], false);

        let all: Vec<Value> = get(&server, &ann, &format!("/api/vendors/{id}/documents"))
            .await
            .json();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0]["id"], new["id"], "current first");
        let current: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert_eq!(current.len(), 1);

        let reminders: Vec<Value> = get(&server, &ann, "/api/reminders").await.json();
        assert_eq!(reminders.len(), 3);
        assert!(
            reminders.iter().all(|r| r["document"]["id"] == new["id"]),
            "the old COI's reminders are gone"
        );
    })
    .await;
}

#[tokio::test]
async fn other_documents_never_supersede_each_other() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        upload(&server, &ann, &id, &UploadSpec::pdf("other")).await;
        upload(&server, &ann, &id, &UploadSpec::pdf("other")).await;
        let current: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert_eq!(current.len(), 2);
        assert!(current
            .iter()
            .all(|d| d["version"] == 1 && d["isCurrent"] == true));
    })
    .await;
}

#[tokio::test]
async fn download_streams_the_exact_bytes_and_view_is_inline_and_sandboxed() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let mut spec = UploadSpec::pdf("w9");
        spec.file_name = "Zoë W-9.pdf";
        let doc: Value = upload(&server, &ann, &id, &spec).await.json();
        let doc_id = doc["id"].as_str().unwrap();

        let res = get(&server, &ann, &format!("/api/documents/{doc_id}/download")).await;
        assert_eq!(res.status_code(), 200);
        assert_eq!(res.as_bytes().to_vec(), fixtures::pdf());
        assert_eq!(res.header("content-type"), "application/pdf");
        assert_eq!(res.header("x-content-type-options"), "nosniff");
        let disposition = res
            .header("content-disposition")
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            disposition.starts_with("attachment; filename=\"Zo_ W-9.pdf\""),
            "{disposition}"
        );
        assert!(
            disposition.contains("filename*=UTF-8''Zo%C3%AB%20W%2D9%2Epdf"),
            "{disposition}"
        );

        let res = get(&server, &ann, &format!("/api/documents/{doc_id}/view")).await;
        assert_eq!(res.status_code(), 200);
        assert_eq!(res.as_bytes().to_vec(), fixtures::pdf());
        assert!(res
            .header("content-disposition")
            .to_str()
            .unwrap()
            .starts_with("inline"));
        assert!(res
            .header("content-security-policy")
            .to_str()
            .unwrap()
            .starts_with("sandbox"));

        let mallory = other_org(&server).await;
        assert_envelope(
            &get(
                &server,
                &mallory,
                &format!("/api/documents/{doc_id}/download"),
            )
            .await,
            404,
            "not_found",
        );
        assert_envelope(
            &get(&server, &mallory, &format!("/api/documents/{doc_id}/view")).await,
            404,
            "not_found",
        );
        assert_envelope(
            &get(&server, &mallory, &format!("/api/documents/{doc_id}")).await,
            404,
            "not_found",
        );
    })
    .await;
}

#[tokio::test]
async fn editing_a_document_replaces_its_reminders_and_refuses_bad_input() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let doc: Value = upload(&server, &ann, &id, &coi(10)).await.json();
        let path = format!("/api/documents/{}", doc["id"].as_str().unwrap());
        let (h, v) = bearer(&ann.token);

        let res = server
            .put(&path)
            .add_header(h.clone(), v.clone())
            .json(&json!({"expirationDate": in_days(100), "notes": "renewed early"}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let updated: Value = res.json();
        assert_eq!(updated["status"], "current");
        assert_eq!(
            updated["notes"],
            "COI Type: General Liability - renewed early"
        );
        let dates: Vec<String> = get(&server, &ann, "/api/reminders")
            .await
            .json::<Vec<Value>>()
            .iter()
            .map(|r| r["reminderDate"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(dates, [in_days(70), in_days(93), in_days(100)]);

        for bad in [
            json!({"expirationDate": "31/12/2026"}),
            json!({"documentType": "passport"}),
            json!({"coiType": "pets"}),
        ] {
            let res = server
                .put(&path)
                .add_header(h.clone(), v.clone())
                .json(&bad)
                .await;
            assert_envelope(&res, 422, "validation_failed");
        }
        let mallory = other_org(&server).await;
        let (mh, mv) = bearer(&mallory.token);
        let res = server
            .put(&path)
            .add_header(mh, mv)
            .json(&json!({"notes": "mine"}))
            .await;
        assert_envelope(&res, 404, "not_found");
        let shown: Value = get(&server, &ann, &path).await.json();
        assert_eq!(
            shown["notes"], "COI Type: General Liability - renewed early",
            "nothing changed"
        );
        assert_eq!(shown["expirationDate"], in_days(100));
        let log: Vec<Value> = get(&server, &ann, "/api/activity-logs?type=document_updated")
            .await
            .json();
        assert_eq!(log.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn deleting_the_current_version_removes_its_file_and_restores_the_previous_one() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let old: Value = upload(&server, &ann, &id, &coi(10)).await.json();
        let new: Value = upload(&server, &ann, &id, &coi(400)).await.json();
        assert_eq!(stored_files(&ctx, &ann).await.len(), 2);

        let mallory = other_org(&server).await;
        let (mh, mv) = bearer(&mallory.token);
        let res = server
            .delete(&format!("/api/documents/{}", new["id"].as_str().unwrap()))
            .add_header(mh, mv)
            .await;
        assert_envelope(&res, 404, "not_found");
        assert_eq!(stored_files(&ctx, &ann).await.len(), 2);

        let (h, v) = bearer(&ann.token);
        let res = server
            .delete(&format!("/api/documents/{}", new["id"].as_str().unwrap()))
            .add_header(h, v)
            .await;
        assert_eq!(res.status_code(), 204);
        assert_eq!(stored_files(&ctx, &ann).await.len(), 1, "its file is gone");
        let current: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert_eq!(current.len(), 1);
        assert_eq!(
            current[0]["id"], old["id"],
            "the previous version is current again"
        );
        let reminders: Vec<Value> = get(&server, &ann, "/api/reminders").await.json();
        assert_eq!(reminders.len(), 3, "with its reminders back");
        let log: Vec<Value> = get(&server, &ann, "/api/activity-logs?type=document_deleted")
            .await
            .json();
        assert_eq!(log.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn the_eleventh_current_document_on_free_is_a_402() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        for _ in 0..10 {
            assert_eq!(
                upload(&server, &ann, &id, &UploadSpec::pdf("other"))
                    .await
                    .status_code(),
                201
            );
        }
        let res = upload(&server, &ann, &id, &UploadSpec::pdf("other")).await;
        let body = assert_envelope(&res, 402, "plan_limit");
        assert_eq!(
            body["message"],
            "Free accounts are limited to 10 documents per vendor."
        );
        assert_eq!(
            stored_files(&ctx, &ann).await.len(),
            10,
            "the refused file was not kept"
        );
    })
    .await;
}

#[tokio::test]
async fn upload_fields_are_required_with_the_spec_messages() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let (h, v) = bearer(&ann.token);
        let res = server
            .post(&format!("/api/vendors/{id}/documents"))
            .add_header(h, v)
            .multipart(axum_test::multipart::MultipartForm::new().add_text("documentType", "w9"))
            .await;
        assert_eq!(
            assert_envelope(&res, 422, "validation_failed")["message"],
            "Please select a file to upload"
        );

        let mut spec = UploadSpec::pdf("");
        let res = upload(&server, &ann, &id, &spec).await;
        assert_eq!(
            assert_envelope(&res, 422, "validation_failed")["message"],
            "Please select a document type"
        );

        spec.document_type = "coi";
        let res = upload(&server, &ann, &id, &spec).await;
        assert_eq!(
            assert_envelope(&res, 422, "validation_failed")["message"],
            "Please select an insurance type for the COI"
        );

        spec.coi_type = Some("automobile");
        spec.expiration_date = Some("tomorrow".into());
        let res = upload(&server, &ann, &id, &spec).await;
        assert_envelope(&res, 422, "validation_failed");
        assert!(stored_files(&ctx, &ann).await.is_empty());
        assert!(get(&server, &ann, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());
    })
    .await;
}

#[tokio::test]
async fn notes_written_the_old_way_still_name_the_coi_type() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let mut spec = coi(200);
        spec.coi_type = None;
        spec.notes = Some("COI Type: workers_comp");
        let doc: Value = upload(&server, &ann, &id, &spec).await.json();
        assert_eq!(doc["coiType"], "workers_comp");
        assert_eq!(doc["notes"], "COI Type: Workers Compensation");
    })
    .await;
}
