//! Reading certificates with AI (docs/product.md, "Reading certificates with AI"), against an
//! OpenAI-shaped server of the tests' own that answers only from the text it is sent
//! (`tests/support/openai.rs`), with ACORD-25-like PDFs made by the tests
//! (`tests/support/certificates.rs`). The test config runs jobs in the foreground, so a reading
//! is done before the upload (or the call) answers.

use std::time::Duration;

use base64::Engine as _;

use loco_rs::{app::AppContext, TestServer};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::models::_entities::extractions;

use crate::support::{
    assert_envelope, bearer, certificates, create_vendor, get, openai,
    openai::{Answer, OpenAiFake},
    other_org, register, upload, with_app, with_app_config, Account, UploadSpec,
};

async fn with_ai<F, Fut>(allowance: u64, test: F)
where
    F: FnOnce(TestServer, AppContext, OpenAiFake) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    with_ai_reading(allowance, false, test).await;
}

/// With AI configured against the fake, the Free plan's month allowance, and whether the model
/// reads images.
async fn with_ai_reading<F, Fut>(allowance: u64, vision: bool, test: F)
where
    F: FnOnce(TestServer, AppContext, OpenAiFake) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let fake = OpenAiFake::start().await;
    let for_config = fake.clone();
    with_app_config(
        move |config| {
            openai::configure(config, &for_config);
            let settings = config.settings.as_mut().unwrap();
            settings["plans"]["free"]["ai_readings_per_month"] = json!(allowance);
            settings["ai"]["vision"] = json!(vision);
        },
        |server, ctx| test(server, ctx, fake),
    )
    .await;
}

async fn send(
    server: &TestServer,
    account: &Account,
    method: &str,
    path: &str,
    body: Value,
) -> axum_test::TestResponse {
    let (h, v) = bearer(&account.token);
    match method {
        "POST" => server.post(path),
        "PUT" => server.put(path),
        _ => server.get(path),
    }
    .add_header(h, v)
    .json(&body)
    .await
}

/// Uploads `bytes` as a COI of `vendor`; returns the document's id.
async fn upload_coi(
    server: &TestServer,
    account: &Account,
    vendor: &str,
    bytes: Vec<u8>,
) -> String {
    let spec = UploadSpec {
        coi_type: Some("general_liability"),
        bytes,
        ..UploadSpec::pdf("coi")
    };
    let res = upload(server, account, vendor, &spec).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json::<Value>()["id"].as_str().unwrap().to_string()
}

async fn extraction(server: &TestServer, account: &Account, doc: &str) -> Value {
    let res = get(server, account, &format!("/api/documents/{doc}/extraction")).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    res.json()
}

async fn readings(ctx: &AppContext) -> u64 {
    extractions::Entity::find().count(&ctx.db).await.unwrap()
}

/// Granite Builders LLC, made a vendor of `owner` that must carry $2M general liability each
/// occurrence with additional insured, and $1M automobile; returns its key.
async fn site_trades_vendor(server: &TestServer, owner: &Account) -> String {
    let vendor = create_vendor(server, owner, "Granite Builders LLC").await;
    let key = vendor["id"].as_str().unwrap();
    let set = send(
        server,
        owner,
        "POST",
        "/api/requirement-sets",
        json!({"name": "Site trades", "lines": [
            {"line": "general_liability", "minimums": {"eachOccurrence": "$2M"},
             "additionalInsured": true},
            {"line": "automobile", "minimums": {"combinedSingleLimit": "$1M"}}
        ]}),
    )
    .await;
    assert_eq!(set.status_code(), 201, "{}", set.text());
    let res = send(
        server,
        owner,
        "POST",
        "/api/vendors/requirement-set",
        json!({"ids": [key], "requirementSetId": set.json::<Value>()["id"]}),
    )
    .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    key.to_string()
}

#[tokio::test]
async fn an_uploaded_certificate_is_read_and_a_person_confirms_it_into_gaps() {
    with_ai(10, |server, _ctx, fake| async move {
        let owner = register(&server, "Olive Owner", Some("Harbor Property Group")).await;
        let key = &site_trades_vendor(&server, &owner).await;
        let config: Value = server.get("/api/config").await.json();
        assert_eq!(config["aiReading"], true);
        assert_eq!(config["plans"]["free"]["aiReadingsPerMonth"], 10);
        let doc = upload_coi(&server, &owner, key, certificates::granite().pdf()).await;
        let requests = fake.requests();
        assert_eq!(requests.len(), 1, "one reading on upload");
        let prompt = requests[0]["messages"][1]["content"].as_str().unwrap();
        assert!(
            prompt.contains("POLICY GL-4431-09") && prompt.contains("EACH OCCURRENCE $ 1,000,000"),
            "the PDF's own text goes to the model: {prompt}"
        );
        assert_eq!(
            requests[0]["response_format"]["json_schema"]["name"],
            "certificate"
        );

        let read = extraction(&server, &owner, &doc).await;
        assert_eq!(read["status"], "done", "{read}");
        let suggestion = &read["suggestion"];
        assert_eq!(suggestion["insured"], "Granite Builders LLC");
        assert_eq!(suggestion["certificateDate"], "2026-03-15");
        assert_eq!(suggestion["certificateHolder"], "Harbor Property Group");
        let gl = &suggestion["lines"][0];
        assert_eq!(gl["line"], "general_liability");
        assert_eq!(gl["policyNumber"], "GL-4431-09");
        assert_eq!(gl["insurer"], "Hartford Fire Insurance Co");
        assert_eq!(gl["naic"], "19682");
        assert_eq!(gl["effectiveDate"], "2026-01-01");
        assert_eq!(gl["expirationDate"], "2027-01-01");
        assert_eq!(gl["limits"]["eachOccurrence"], 1_000_000);
        assert_eq!(gl["limits"]["generalAggregate"], 2_000_000);
        assert_eq!(gl["additionalInsured"], true);
        assert_eq!(
            suggestion["lines"][1]["limits"]["combinedSingleLimit"],
            1_000_000
        );
        assert_eq!(read["confidence"]["insured"], 0.95);
        assert_eq!(read["confidence"]["lines[0].policyNumber"], 0.5);
        assert_eq!(
            read["confidence"]["certificateDate"], 0.5,
            "03/15/2026 is in the text"
        );
        assert_eq!(read["confidence"]["lines[0].additionalInsured"], 0.5);
        assert_eq!(read["model"], format!("{}-2024-07-18", openai::MODEL));
        assert!(read["costUsd"].as_f64().unwrap() > 0.0, "{read}");
        assert_eq!(read["notes"], json!([]));
        assert_eq!(
            read["checks"],
            json!([]),
            "its insured, its holder, this year"
        );

        // Nothing is written until a person accepts it.
        let shown: Value = get(&server, &owner, &format!("/api/documents/{doc}"))
            .await
            .json();
        assert!(shown["coverage"].is_null(), "{shown}");
        let before: Value = get(&server, &owner, &format!("/api/vendors/{key}"))
            .await
            .json();
        assert_eq!(before["gaps"][0]["kind"], "missing_line");

        let mut accepted = suggestion.clone();
        accepted["confirmed"] = json!(true);
        let res = send(
            &server,
            &owner,
            "PUT",
            &format!("/api/documents/{doc}/coverage"),
            accepted,
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["coverage"]["source"], "confirmed");
        let after: Value = get(&server, &owner, &format!("/api/vendors/{key}"))
            .await
            .json();
        let messages: Vec<&str> = after["gaps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["message"].as_str().unwrap())
            .collect();
        assert_eq!(
            messages,
            ["General liability each occurrence is $1,000,000; $2,000,000 is required."],
            "the gaps follow from what was read"
        );
    })
    .await;
}

#[tokio::test]
async fn another_certificate_reads_as_its_own_text_says() {
    with_ai(10, |server, ctx, _fake| async move {
        let owner = register(&server, "Olive Owner", Some("Bayview Offices")).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let mut cert = certificates::granite();
        cert.insured = "Someone Else Holdings";
        cert.lines.truncate(1);
        cert.lines[0].limits = vec![("EACH OCCURRENCE", "500,000")];
        cert.lines[0].additional_insured = false;
        let doc = upload_coi(&server, &owner, vendor["id"].as_str().unwrap(), cert.pdf()).await;
        let read = extraction(&server, &owner, &doc).await;
        let suggestion = &read["suggestion"];
        assert_eq!(suggestion["insured"], "Someone Else Holdings");
        assert_eq!(suggestion["lines"].as_array().unwrap().len(), 1);
        assert_eq!(
            suggestion["lines"][0]["limits"],
            json!({"eachOccurrence": 500_000})
        );
        assert_eq!(suggestion["lines"][0]["additionalInsured"], false);
        assert_eq!(
            read["checks"],
            json!([
                "The certificate names Someone Else Holdings, not Granite Builders LLC.",
                "The certificate holder is Harbor Property Group, not Bayview Offices."
            ])
        );

        // The admin area's month: this reading and what it cost.
        let ops = register(&server, "Olga Ops", None).await;
        crate::support::make_admin(&ctx, &ops).await;
        let stats: Value = get(&server, &ops, "/api/admin/content-stats").await.json();
        assert_eq!(stats["readingsThisMonth"], 1);
        assert_eq!(stats["readingCostThisMonth"], read["costUsd"]);
    })
    .await;
}

#[tokio::test]
async fn what_cannot_be_read_says_why_and_can_be_tried_again() {
    with_ai(10, |server, _ctx, fake| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap();

        // A scan, and a model that does not read images: unavailable, in words, no AI call.
        let scan = upload_coi(&server, &owner, key, certificates::scanned_pdf()).await;
        let read = extraction(&server, &owner, &scan).await;
        assert_eq!(read["status"], "unavailable");
        assert!(
            read["reason"].as_str().unwrap().contains("no text layer"),
            "{read}"
        );
        assert_eq!(fake.requests().len(), 0);

        // An answer that is not the asked-for JSON.
        fake.script([Answer::Text("Sure! Here is the certificate.".into())]);
        let doc = upload_coi(&server, &owner, key, certificates::granite().pdf()).await;
        let read = extraction(&server, &owner, &doc).await;
        assert_eq!(read["status"], "failed");
        assert!(
            read["reason"]
                .as_str()
                .unwrap()
                .starts_with("The AI answer could not be read"),
            "{read}"
        );

        // A model answering too late (the timeout is 1 s).
        fake.script([Answer::Slow(Duration::from_secs(3))]);
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/documents/{doc}/extract"),
            json!({}),
        )
        .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        let read = extraction(&server, &owner, &doc).await;
        assert_eq!(read["status"], "failed");
        assert_eq!(
            read["reason"],
            "The AI service did not answer within 1 seconds"
        );

        // Tried again by hand: read.
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/documents/{doc}/extract"),
            json!({}),
        )
        .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        let job = res.json::<Value>()["jobId"].clone();
        let read = extraction(&server, &owner, &doc).await;
        assert_eq!(
            (read["status"].clone(), read["jobId"].clone()),
            (json!("done"), job)
        );
    })
    .await;
}

#[tokio::test]
async fn readings_stop_at_the_plans_month_allowance() {
    with_ai(2, |server, ctx, fake| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap();
        let doc = upload_coi(&server, &owner, key, certificates::granite().pdf()).await;
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/documents/{doc}/extract"),
            json!({}),
        )
        .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        assert_eq!(fake.requests().len(), 2);

        let before = readings(&ctx).await;
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/documents/{doc}/extract"),
            json!({}),
        )
        .await;
        let body = assert_envelope(&res, 402, "plan_limit");
        assert_eq!(
            body["message"],
            "The Free plan reads 2 certificates with AI a month, and this month's are used. \
             Enter the coverage by hand, or upgrade for more."
        );
        assert_eq!(readings(&ctx).await, before, "nothing changed");

        // On upload past the allowance: no AI call, the reason on the document.
        let later = upload_coi(&server, &owner, key, certificates::granite().pdf()).await;
        assert_eq!(fake.requests().len(), 2);
        let read = extraction(&server, &owner, &later).await;
        assert_eq!(read["status"], "unavailable");
        assert_eq!(read["reason"], body["message"]);
    })
    .await;
}

#[tokio::test]
async fn readings_refuse_viewers_other_organizations_and_other_documents() {
    with_ai(10, |server, ctx, fake| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap();
        let doc = upload_coi(&server, &owner, key, certificates::granite().pdf()).await;
        let calls = fake.requests().len();
        let before = readings(&ctx).await;
        let extract = format!("/api/documents/{doc}/extract");

        let viewer = super::team::join(&server, &ctx, &owner, "Vic Viewer", "viewer").await;
        assert_envelope(
            &send(&server, &viewer, "POST", &extract, json!({})).await,
            403,
            "forbidden_role",
        );
        assert_eq!(
            extraction(&server, &viewer, &doc).await["status"],
            "done",
            "a viewer sees it"
        );

        let other = other_org(&server).await;
        assert_envelope(
            &send(&server, &other, "POST", &extract, json!({})).await,
            404,
            "not_found",
        );
        assert_envelope(
            &get(&server, &other, &format!("/api/documents/{doc}/extraction")).await,
            404,
            "not_found",
        );
        assert_envelope(&server.post(&extract).await, 401, "unauthorized");

        let w9 = upload(&server, &owner, key, &UploadSpec::pdf("w9")).await;
        let w9 = w9.json::<Value>()["id"].as_str().unwrap().to_string();
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/documents/{w9}/extract"),
            json!({}),
        )
        .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert_eq!(
            body["errors"]["documentType"][0],
            "Only certificates of insurance are read with AI."
        );
        assert_envelope(
            &get(&server, &owner, &format!("/api/documents/{w9}/extraction")).await,
            404,
            "not_found",
        );
        assert_eq!(readings(&ctx).await, before, "nothing changed");
        assert_eq!(fake.requests().len(), calls, "no AI call");
    })
    .await;
}

#[tokio::test]
async fn without_an_ai_key_reading_is_off_and_coverage_works_by_hand() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let doc = upload_coi(
            &server,
            &owner,
            vendor["id"].as_str().unwrap(),
            certificates::granite().pdf(),
        )
        .await;
        assert_eq!(readings(&ctx).await, 0, "no reading on upload");
        let config: Value = server.get("/api/config").await.json();
        assert_eq!(
            config["aiReading"], false,
            "the screens say AI reading is off"
        );
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/documents/{doc}/extract"),
            json!({}),
        )
        .await;
        assert_envelope(&res, 503, "ai_not_configured");
        let res = send(
            &server,
            &owner,
            "PUT",
            &format!("/api/documents/{doc}/coverage"),
            json!({"insured": "Granite Builders LLC", "lines": [
                {"line": "general_liability", "limits": {"eachOccurrence": "$1M"}}]}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["coverage"]["source"], "manual");
    })
    .await;
}

/// A COI uploaded through the portal with `key`.
async fn portal_upload(server: &TestServer, key: &str, bytes: Vec<u8>) -> Value {
    let form = axum_test::multipart::MultipartForm::new()
        .add_text("companyKey", key)
        .add_text("documentType", "coi")
        .add_text("coiType", "general_liability")
        .add_text("expirationDate", "2027-01-01")
        .add_part(
            "file",
            axum_test::multipart::Part::bytes(bytes)
                .file_name("certificate.pdf")
                .mime_type("application/pdf"),
        );
    let res = server
        .post("/api/vendor-upload-document")
        .multipart(form)
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json()
}

#[tokio::test]
async fn the_vendor_sees_and_corrects_what_was_read_of_its_own_upload_only() {
    with_ai(10, |server, ctx, _fake| async move {
        let owner = register(&server, "Olive Owner", Some("Harbor Property Group")).await;
        let key = site_trades_vendor(&server, &owner).await;
        let uploaded = portal_upload(&server, &key, certificates::granite().pdf()).await;
        let token = uploaded["readingToken"].as_str().unwrap().to_string();
        let doc = uploaded["document"]["id"].as_str().unwrap().to_string();
        let reading = format!("/api/portal/reading?token={token}");

        let read: Value = server.get(&reading).await.json();
        assert_eq!(read["status"], "done", "{read}");
        assert_eq!(read["suggestion"]["lines"][0]["policyNumber"], "GL-4431-09");
        assert_eq!(
            read["checks"],
            json!([]),
            "the organization's checks are its own"
        );

        // The vendor corrects the policy number: the organization sees the correction.
        let mut corrected = read["suggestion"].clone();
        corrected["lines"][0]["policyNumber"] = json!("GL-4431-10");
        let res = server.put(&reading).json(&corrected).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let seen = extraction(&server, &owner, &doc).await;
        assert_eq!(seen["suggestion"]["lines"][0]["policyNumber"], "GL-4431-10");
        assert_eq!(
            seen["notes"],
            json!(["Corrected by the vendor through the portal."])
        );
        let shown: Value = get(&server, &owner, &format!("/api/documents/{doc}"))
            .await
            .json();
        assert!(
            shown["coverage"].is_null(),
            "still for a person to accept: {shown}"
        );

        // Bad input names every problem and changes nothing.
        let before = extraction(&server, &owner, &doc).await;
        let res = server
            .put(&reading)
            .json(&json!({"lines": [{"line": "boat"},
                {"line": "automobile", "limits": {"combinedSingleLimit": "lots"}}]}))
            .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert!(body["errors"]["lines[0].line"].is_array(), "{body}");
        assert!(
            body["errors"]["lines[1].limits.combinedSingleLimit"].is_array(),
            "{body}"
        );
        assert_eq!(
            extraction(&server, &owner, &doc).await,
            before,
            "nothing changed"
        );

        // No other reading is reachable: a wrong, an empty or a signed-in document's token.
        let other = upload_coi(&server, &owner, &key, certificates::granite().pdf()).await;
        let stored = extractions::Entity::find().count(&ctx.db).await.unwrap();
        for bad in ["", "0000", &doc, &other, &token[..token.len() - 1]] {
            let path = format!("/api/portal/reading?token={bad}");
            assert_envelope(&server.get(&path).await, 404, "not_found");
            assert_envelope(&server.put(&path).json(&corrected).await, 404, "not_found");
        }
        assert_eq!(
            extractions::Entity::find().count(&ctx.db).await.unwrap(),
            stored
        );
        assert_eq!(
            extraction(&server, &owner, &other).await["suggestion"]["lines"][0]["policyNumber"],
            "GL-4431-09",
            "the other reading is untouched"
        );
        // A signed-in upload answers no token at all.
        let res = upload(
            &server,
            &owner,
            &key,
            &UploadSpec {
                coi_type: Some("general_liability"),
                bytes: certificates::granite().pdf(),
                ..UploadSpec::pdf("coi")
            },
        )
        .await;
        assert!(res.json::<Value>().get("readingToken").is_none());
    })
    .await;
}

#[tokio::test]
async fn a_scan_goes_as_images_to_a_model_that_reads_them() {
    with_ai_reading(10, true, |server, _ctx, fake| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap();
        let scan = upload_coi(&server, &owner, key, certificates::scanned_pdf()).await;
        let requests = fake.requests();
        assert_eq!(requests.len(), 1, "the scan went to the model");
        let parts = requests[0]["messages"][1]["content"].as_array().unwrap();
        assert_eq!(parts[0]["type"], "text");
        assert_eq!(parts[1]["type"], "image_url");
        let url = parts[1]["image_url"]["url"].as_str().unwrap();
        let jpeg = base64::engine::general_purpose::STANDARD.encode(crate::fixtures::jpeg());
        assert_eq!(
            url,
            format!("data:image/jpeg;base64,{jpeg}"),
            "the page's own JPEG"
        );
        assert_eq!(extraction(&server, &owner, &scan).await["status"], "done");
    })
    .await;
}

#[tokio::test]
async fn a_reading_whose_worker_died_is_failed_by_the_scheduler_and_can_be_asked_again() {
    use loco_rs::task::Task;
    use sea_orm::ConnectionTrait;
    use vendorwatch::tasks::content_schedule::ContentSchedule;
    with_ai(10, |server, ctx, _fake| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let doc = upload_coi(
            &server,
            &owner,
            vendor["id"].as_str().unwrap(),
            certificates::granite().pdf(),
        )
        .await;
        // As if its worker died an hour into the reading.
        let stalled = "UPDATE extractions SET status = 'running', \
            started_at = CURRENT_TIMESTAMP - INTERVAL '1 hour' WHERE status = 'done'";
        let stalled_sqlite = "UPDATE extractions SET status = 'running', \
            started_at = datetime('now', '-1 hour') WHERE status = 'done'";
        let sql = if ctx.db.get_database_backend() == sea_orm::DatabaseBackend::Postgres {
            stalled
        } else {
            stalled_sqlite
        };
        ctx.db.execute_unprepared(sql).await.unwrap();
        ContentSchedule
            .run(&ctx, &loco_rs::task::Vars::default())
            .await
            .unwrap();
        let read = extraction(&server, &owner, &doc).await;
        assert_eq!(read["status"], "failed");
        assert_eq!(
            read["reason"],
            "The reading stopped before it finished (its worker ended). Try again."
        );
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/documents/{doc}/extract"),
            json!({}),
        )
        .await;
        assert_eq!(res.status_code(), 202, "{}", res.text());
        assert_eq!(extraction(&server, &owner, &doc).await["status"], "done");
    })
    .await;
}

#[tokio::test]
async fn a_phone_photo_goes_as_a_jpeg_to_a_model_that_reads_images_and_says_why_otherwise() {
    let upload_photo = |server: TestServer, owner: Account| async move {
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let spec = UploadSpec {
            file_name: "certificate.heic",
            bytes: crate::fixtures::heic(),
            coi_type: Some("general_liability"),
            ..UploadSpec::pdf("coi")
        };
        let res = upload(&server, &owner, vendor["id"].as_str().unwrap(), &spec).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let doc = res.json::<Value>()["id"].as_str().unwrap().to_string();
        extraction(&server, &owner, &doc).await
    };
    with_ai_reading(10, true, |server, _ctx, fake| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let read = upload_photo(server, owner).await;
        assert_eq!(read["status"], "done", "{read}");
        let parts = fake.requests()[0]["messages"][1]["content"].clone();
        assert!(
            parts[1]["image_url"]["url"]
                .as_str()
                .unwrap()
                .starts_with("data:image/jpeg;base64,/9j/"),
            "the HEIC went as a JPEG"
        );
    })
    .await;
    with_ai_reading(10, false, |server, _ctx, fake| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let read = upload_photo(server, owner).await;
        assert_eq!(read["status"], "unavailable");
        assert!(
            read["reason"].as_str().unwrap().starts_with(
                "This certificate is a picture: the configured AI model does not read images"
            ),
            "{read}"
        );
        assert!(fake.requests().is_empty());
    })
    .await;
}
