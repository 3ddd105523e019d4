//! Insurance requirements and certificate review (docs/product.md, "Requirements and gaps"):
//! requirement sets, a COI's coverage, gaps in words, waivers; every refusal changes nothing.

use loco_rs::TestServer;
use serde_json::{json, Value};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, other_org, register, upload, with_app, Account,
    UploadSpec,
};

pub(super) async fn send(
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
        "DELETE" => server.delete(path),
        _ => server.get(path),
    }
    .add_header(h, v)
    .json(&body)
    .await
}

/// The general contractor template, made a set of `account`'s organization.
pub(super) async fn contractor_set(server: &TestServer, account: &Account) -> Value {
    let templates: Vec<Value> = get(server, account, "/api/requirement-sets/templates")
        .await
        .json();
    assert_eq!(
        templates
            .iter()
            .map(|t| t["key"].as_str().unwrap())
            .collect::<Vec<_>>(),
        [
            "general-contractor",
            "professional-services",
            "low-risk-supplier"
        ]
    );
    let res = send(
        server,
        account,
        "POST",
        "/api/requirement-sets",
        json!({"name": "Contractors", "lines": templates[0]["lines"]}),
    )
    .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json()
}

/// A COI uploaded to `vendor` with `coverage` entered; returns the document's id.
async fn certificate(
    server: &TestServer,
    account: &Account,
    vendor: &str,
    coverage: Value,
) -> String {
    let spec = UploadSpec {
        coi_type: Some("general_liability"),
        ..UploadSpec::pdf("coi")
    };
    let res = upload(server, account, vendor, &spec).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let id = res.json::<Value>()["id"].as_str().unwrap().to_string();
    let res = send(
        server,
        account,
        "PUT",
        &format!("/api/documents/{id}/coverage"),
        coverage,
    )
    .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    id
}

async fn vendor_of(server: &TestServer, account: &Account, key: &str) -> Value {
    let res = get(server, account, &format!("/api/vendors/{key}")).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    res.json()
}

/// Waives a gap of the vendor `key` until far ahead; returns the waiver's id.
async fn waive(
    server: &TestServer,
    account: &Account,
    key: &str,
    line: &Value,
    kind: &Value,
) -> String {
    let res = send(
        server,
        account,
        "POST",
        &format!("/api/vendors/{key}/waivers"),
        json!({"line": line, "kind": kind, "reason": "Agreed with the project lead",
               "until": "2099-12-31"}),
    )
    .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json::<Value>()["id"].as_str().unwrap().to_string()
}

/// A certificate of `key` a tier short: $500,000 each occurrence, no additional insured, and
/// someone else's name; checks what the document then shows.
pub(super) async fn enter_short_certificate(server: &TestServer, owner: &Account, key: &str) {
    let document = certificate(
        server,
        owner,
        key,
        json!({
            "insured": "Someone Else Holdings",
            "certificateHolder": "Olive Owner's company",
            "lines": [{
                "line": "general_liability", "insurer": "Hartford", "naic": "19682",
                "policyNumber": "GL-100", "effectiveDate": "2026-01-01",
                "expirationDate": "2027-01-01",
                "limits": {"eachOccurrence": "$500K", "generalAggregate": "2,000,000",
                           "productsCompletedOps": 2_000_000},
                "additionalInsured": false, "waiverOfSubrogation": true
            }]
        }),
    )
    .await;
    let shown: Value = get(server, owner, &format!("/api/documents/{document}"))
        .await
        .json();
    assert_eq!(shown["coverage"]["source"], "manual");
    assert_eq!(
        shown["coverage"]["lines"][0]["limits"]["eachOccurrence"],
        500_000
    );
    assert_eq!(
        shown["expirationDate"], "2027-01-01",
        "a COI without a date takes the earliest line's"
    );
}

/// An edit of vendor `key` (keeping requirement set `set`) answers with the vendor as it leaves
/// it, its certificate and its gaps: what `GET /api/vendors/{key}` shows next.
async fn edit_answers_as_shown(server: &TestServer, owner: &Account, key: &str, set: &Value) {
    let mut edit = crate::support::vendor_body("Granite Builders LLC");
    edit["requirementSetId"] = set["id"].clone();
    edit["notes"] = json!("Edited with its certificate on file");
    let res = send(server, owner, "PUT", &format!("/api/vendors/{key}"), edit).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    let edited: Value = res.json();
    let mut shown = vendor_of(server, owner, key).await;
    shown.as_object_mut().unwrap().remove("documents");
    assert_eq!(edited["documentCount"], 1);
    assert_eq!(edited, shown);
}

fn messages(vendor: &Value) -> Vec<String> {
    vendor["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["message"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_certificate_short_of_its_set_has_its_gaps_named_and_one_can_be_waived() {
    with_app(|server, _ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let set = contractor_set(&server, &owner).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap().to_string();
        assert_eq!(vendor["gaps"], json!([]));
        assert_eq!(vendor["meetsRequirements"], true);

        // The set on the vendor form.
        let mut body = crate::support::vendor_body("Granite Builders LLC");
        body["requirementSetId"] = set["id"].clone();
        let res = send(&server, &owner, "PUT", &format!("/api/vendors/{key}"), body).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let updated: Value = res.json();
        assert_eq!(updated["requirementSetId"], set["id"]);
        assert_eq!(updated["meetsRequirements"], false);
        assert_eq!(
            messages(&updated)[0],
            "No general liability on file.",
            "nothing entered yet: every line is missing"
        );

        enter_short_certificate(&server, &owner, &key).await;

        let reviewed = vendor_of(&server, &owner, &key).await;
        assert_eq!(
            messages(&reviewed),
            [
                "General liability each occurrence is $500,000; $1,000,000 is required.",
                "Additional insured is not shown for general liability.",
                "No automobile liability on file.",
                "No workers' compensation on file.",
                "No umbrella liability on file.",
                "The certificate names Someone Else Holdings, not Granite Builders LLC.",
            ]
        );
        let first = &reviewed["gaps"][0];
        assert_eq!(
            (
                &first["line"],
                &first["kind"],
                &first["limit"],
                &first["required"],
                &first["found"]
            ),
            (
                &json!("general_liability"),
                &json!("below_minimum"),
                &json!("eachOccurrence"),
                &json!(1_000_000),
                &json!(500_000)
            )
        );

        edit_answers_as_shown(&server, &owner, &key, &set).await;

        // Listed, filtered and counted; the answers kept for the list are not stale.
        let listed: Vec<Value> = get(&server, &owner, "/api/vendors?gaps=true").await.json();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0]["gaps"].as_array().unwrap().len(), 6);
        let stats: Value = get(&server, &owner, "/api/dashboard/stats").await.json();
        assert_eq!(stats["vendorsWithGaps"], 1);

        // Every gap waived but one; then that one too.
        for gap in reviewed["gaps"].as_array().unwrap().iter().skip(1) {
            waive(&server, &owner, &key, &gap["line"], &gap["kind"]).await;
        }
        let partly = vendor_of(&server, &owner, &key).await;
        assert_eq!(partly["meetsRequirements"], false);
        assert_eq!(partly["gaps"][1]["waived"]["by"], "Olive Owner", "{partly}");
        let first = &reviewed["gaps"][0];
        let waiver = waive(&server, &owner, &key, &first["line"], &first["kind"]).await;
        let met = vendor_of(&server, &owner, &key).await;
        assert_eq!(met["meetsRequirements"], true);
        let listed: Vec<Value> = get(&server, &owner, "/api/vendors?gaps=true").await.json();
        assert!(listed.is_empty(), "seen at once: {listed:?}");
        let stats: Value = get(&server, &owner, "/api/dashboard/stats").await.json();
        assert_eq!(stats["vendorsWithGaps"], 0);
        let log: Vec<Value> = get(&server, &owner, "/api/activity-logs?type=gap_waived")
            .await
            .json();
        assert_eq!(log.len(), 6);

        // Withdrawn, the gap counts again at once.
        let res = send(
            &server,
            &owner,
            "DELETE",
            &format!("/api/vendors/{key}/waivers/{waiver}"),
            json!({}),
        )
        .await;
        assert_eq!(res.status_code(), 204, "{}", res.text());
        let listed: Vec<Value> = get(&server, &owner, "/api/vendors?gaps=true").await.json();
        assert_eq!(listed.len(), 1);

        // The set deleted: the vendor has no requirements, and no gaps.
        let res = send(
            &server,
            &owner,
            "DELETE",
            &format!("/api/requirement-sets/{}", set["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
        assert_eq!(res.status_code(), 204);
        let freed = vendor_of(&server, &owner, &key).await;
        assert_eq!(freed["requirementSetId"], Value::Null);
        assert_eq!(freed["gaps"], json!([]));
    })
    .await;
}

#[tokio::test]
async fn sets_are_assigned_in_bulk_and_edited_by_admins_only() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let set = contractor_set(&server, &owner).await;
        let a = create_vendor(&server, &owner, "Alpha Roofing").await;
        let b = create_vendor(&server, &owner, "Beta Paving").await;
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/vendors/requirement-set",
            json!({"ids": [a["id"], b["id"]], "requirementSetId": set["id"]}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.json::<Value>()["updated"], 2);
        let sets: Vec<Value> = get(&server, &owner, "/api/requirement-sets").await.json();
        assert_eq!(sets[0]["vendorCount"], 2);

        // Renamed with new minimums as typed.
        let res = send(
            &server,
            &owner,
            "PUT",
            &format!("/api/requirement-sets/{}", set["id"].as_str().unwrap()),
            json!({"name": "Site trades", "lines": [
                {"line": "general_liability", "minimums": {"eachOccurrence": "$2M"},
                 "additionalInsured": true}
            ]}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let renamed: Value = res.json();
        assert_eq!(renamed["name"], "Site trades");
        assert_eq!(renamed["lines"][0]["minimums"]["eachOccurrence"], 2_000_000);

        // A member may assign but not edit a set.
        let member = super::team::join(&server, &ctx, &owner, "Mia Member", "member").await;
        let before: Vec<Value> = get(&server, &owner, "/api/requirement-sets").await.json();
        for (method, path) in [
            ("POST", "/api/requirement-sets".to_string()),
            (
                "PUT",
                format!("/api/requirement-sets/{}", set["id"].as_str().unwrap()),
            ),
            (
                "DELETE",
                format!("/api/requirement-sets/{}", set["id"].as_str().unwrap()),
            ),
        ] {
            let res = send(
                &server,
                &member,
                method,
                &path,
                json!({"name": "Mine", "lines": []}),
            )
            .await;
            assert_envelope(&res, 403, "forbidden_role");
        }
        let after: Vec<Value> = get(&server, &owner, "/api/requirement-sets").await.json();
        assert_eq!(before, after, "nothing changed");
        let res = send(
            &server,
            &member,
            "POST",
            "/api/vendors/requirement-set",
            json!({"ids": [a["id"]], "requirementSetId": null}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(
            vendor_of(&server, &owner, a["id"].as_str().unwrap()).await["requirementSetId"],
            Value::Null
        );
    })
    .await;
}

#[tokio::test]
async fn a_csv_import_gives_each_vendor_the_set_its_row_names() {
    with_app(|server, _ctx| async move {
        let owner = register(&server, "Ivy Importer", None).await;
        let set = contractor_set(&server, &owner).await;
        let csv = "Name,Email,Service Type,Requirement set\n\
            Alpha Roofing,alpha@example.com,general-contractor, contractors \n\
            Beta Paving,beta@example.com,general-contractor,\n";
        let bad = format!("{csv}Gamma Glass,gamma@example.com,general-contractor,Glaziers\n");
        let preview = send(
            &server,
            &owner,
            "POST",
            "/api/vendors/import",
            json!({"csv": bad}),
        )
        .await;
        assert_eq!(preview.status_code(), 200, "{}", preview.text());
        let preview: Value = preview.json();
        assert_eq!(preview["rows"][2]["status"], "error");
        assert_eq!(
            preview["rows"][2]["errors"][0],
            "There is no requirement set named \"Glaziers\"."
        );
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/vendors/import",
            json!({"csv": csv, "commit": true}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let vendors: Value = get(&server, &owner, "/api/vendors?q=Roofing").await.json();
        let alpha = &vendors[0];
        assert_eq!(alpha["name"], "Alpha Roofing");
        assert_eq!(alpha["requirementSetId"], set["id"]);
        let vendors: Value = get(&server, &owner, "/api/vendors?q=Paving").await.json();
        assert_eq!(vendors[0]["requirementSetId"], Value::Null);
    })
    .await;
}

#[tokio::test]
async fn another_organizations_sets_waivers_and_vendors_are_not_found() {
    with_app(|server, _ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let set = contractor_set(&server, &owner).await;
        let set_path = format!("/api/requirement-sets/{}", set["id"].as_str().unwrap());
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap().to_string();
        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/vendors/{key}/waivers"),
            json!({"line": "automobile", "kind": "missing_line", "reason": "No vehicles",
                   "until": "2099-01-01"}),
        )
        .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let waiver = res.json::<Value>()["id"].as_str().unwrap().to_string();

        let coi = certificate(
            &server,
            &owner,
            &key,
            json!({"insured": "Granite Builders LLC"}),
        )
        .await;
        let coi_path = format!("/api/documents/{coi}");

        let mallory = other_org(&server).await;
        let theirs = create_vendor(&server, &mallory, "Mallory Movers").await;
        let before = (
            get(&server, &owner, "/api/requirement-sets").await.text(),
            vendor_of(&server, &owner, &key).await,
            get(&server, &owner, &coi_path).await.text(),
        );
        for (method, path) in [
            ("GET", set_path.clone()),
            ("PUT", set_path.clone()),
            ("DELETE", set_path.clone()),
            ("DELETE", format!("/api/vendors/{key}/waivers/{waiver}")),
            ("POST", format!("/api/vendors/{key}/waivers")),
            ("PUT", format!("{coi_path}/coverage")),
        ] {
            let res = send(
                &server,
                &mallory,
                method,
                &path,
                json!({"name": "Taken", "lines": [{"line": "automobile"}],
                       "line": "automobile", "kind": "missing_line", "reason": "x",
                       "until": "2099-01-01"}),
            )
            .await;
            assert_envelope(&res, 404, "not_found");
        }
        // Their own vendor with this organization's set: the set is not theirs to use.
        let mut body = crate::support::vendor_body("Mallory Movers");
        body["requirementSetId"] = set["id"].clone();
        let res = send(
            &server,
            &mallory,
            "PUT",
            &format!("/api/vendors/{}", theirs["id"].as_str().unwrap()),
            body,
        )
        .await;
        let refused = assert_envelope(&res, 422, "validation_failed");
        assert!(
            refused["errors"]["requirementSetId"].is_array(),
            "{refused}"
        );
        let res = send(
            &server,
            &mallory,
            "POST",
            "/api/vendors/requirement-set",
            json!({"ids": [key], "requirementSetId": null}),
        )
        .await;
        assert_envelope(&res, 404, "not_found");
        let after = (
            get(&server, &owner, "/api/requirement-sets").await.text(),
            vendor_of(&server, &owner, &key).await,
            get(&server, &owner, &coi_path).await.text(),
        );
        assert_eq!(before, after, "nothing changed");
    })
    .await;
}

#[tokio::test]
async fn bad_requirements_coverage_and_waivers_name_every_problem_and_change_nothing() {
    with_app(|server, _ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let res = send(
            &server,
            &owner,
            "POST",
            "/api/requirement-sets",
            json!({"name": "", "lines": [
                {"line": "general_liability", "minimums": {"eachOccurrence": "lots", "wingspan": 1}},
                {"line": "boats"}
            ]}),
        )
        .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        let mut fields: Vec<&String> = body["errors"].as_object().unwrap().keys().collect();
        fields.sort();
        assert_eq!(
            fields,
            [
                "lines[0].minimums.eachOccurrence",
                "lines[0].minimums.wingspan",
                "lines[1].line",
                "name"
            ]
        );
        assert_eq!(
            get(&server, &owner, "/api/requirement-sets").await.json::<Vec<Value>>().len(),
            0
        );

        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap();
        let res = upload(&server, &owner, key, &UploadSpec::pdf("w9")).await;
        let w9 = res.json::<Value>()["id"].as_str().unwrap().to_string();
        let res = send(
            &server,
            &owner,
            "PUT",
            &format!("/api/documents/{w9}/coverage"),
            json!({"lines": []}),
        )
        .await;
        assert_envelope(&res, 422, "validation_failed");

        let coi = certificate(&server, &owner, key, json!({"lines": []})).await;
        let before: Value = get(&server, &owner, &format!("/api/documents/{coi}")).await.json();
        let res = send(
            &server,
            &owner,
            "PUT",
            &format!("/api/documents/{coi}/coverage"),
            json!({"lines": [{"line": "automobile", "effectiveDate": "2027-01-01",
                              "expirationDate": "2026-01-01",
                              "limits": {"combinedSingleLimit": "-3", "eachClaim": 5}}]}),
        )
        .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        assert_eq!(body["errors"].as_object().unwrap().len(), 3, "{body}");
        let after: Value = get(&server, &owner, &format!("/api/documents/{coi}")).await.json();
        assert_eq!(before, after, "nothing changed");

        let res = send(
            &server,
            &owner,
            "POST",
            &format!("/api/vendors/{key}/waivers"),
            json!({"line": "boats", "kind": "whatever", "reason": " ", "until": "2001-01-01"}),
        )
        .await;
        let body = assert_envelope(&res, 422, "validation_failed");
        let mut fields: Vec<&String> = body["errors"].as_object().unwrap().keys().collect();
        fields.sort();
        assert_eq!(fields, ["kind", "line", "reason", "until"]);
        let log: Vec<Value> = get(&server, &owner, "/api/activity-logs?type=gap_waived")
            .await
            .json();
        assert!(log.is_empty());
    })
    .await;
}

#[tokio::test]
async fn the_vendor_is_asked_for_corrections_once_a_day_and_sees_them_on_the_portal() {
    with_app(|server, ctx| async move {
        let owner = register(&server, "Olive Owner", None).await;
        let set = contractor_set(&server, &owner).await;
        let vendor = create_vendor(&server, &owner, "Granite Builders LLC").await;
        let key = vendor["id"].as_str().unwrap().to_string();
        let path = format!("/api/vendors/{key}/gap-request");

        // No set yet: nothing to correct, and no email.
        let res = send(&server, &owner, "POST", &path, json!({})).await;
        assert_envelope(&res, 409, "nothing_to_correct");
        let mails = || ctx.mailer.as_ref().unwrap().deliveries().messages;
        let before = mails().len();

        let res = send(
            &server,
            &owner,
            "POST",
            "/api/vendors/requirement-set",
            json!({"ids": [key], "requirementSetId": set["id"]}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        enter_short_certificate(&server, &owner, &key).await;
        // A waived gap is not asked for.
        waive(
            &server,
            &owner,
            &key,
            &json!("umbrella"),
            &json!("missing_line"),
        )
        .await;

        let res = send(&server, &owner, "POST", &path, json!({})).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let asked: Value = res.json();
        assert_eq!(asked["gaps"].as_array().unwrap().len(), 5, "{asked}");
        let delivered = mails();
        assert_eq!(delivered.len(), before + 1);
        let raw = delivered.last().unwrap();
        let parsed = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap();
        let first = |list: Option<&mail_parser::Address>| {
            list.and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap()
                .to_string()
        };
        assert_eq!(first(parsed.to()), "ops@acme-plumbing.example");
        assert_eq!(
            first(parsed.reply_to()),
            owner.email,
            "replies reach who asked"
        );
        let mail = crate::support::email_parts(raw);
        assert!(
            mail.contains("General liability each occurrence is $500,000; $1,000,000 is required.")
        );
        assert!(
            !mail.contains("umbrella"),
            "the waived gap is not asked for"
        );
        assert!(mail.contains(&key), "the company key");
        assert!(mail.contains("/vendor-upload"), "the portal link");

        let again = send(&server, &owner, "POST", &path, json!({})).await;
        assert_envelope(&again, 429, "already_requested");
        assert_eq!(mails().len(), before + 1, "no second email today");

        // Another organization cannot ask.
        let mallory = other_org(&server).await;
        let res = send(&server, &mallory, "POST", &path, json!({})).await;
        assert_envelope(&res, 404, "not_found");
        assert_eq!(
            mails().len(),
            before + 1,
            "no email for another organization"
        );

        // The portal shows the vendor its own gaps that count, and nothing else.
        let portal: Value = server
            .get(&format!("/api/validate-company-key?key={key}"))
            .await
            .json();
        let corrections = portal["corrections"].as_array().unwrap();
        assert_eq!(corrections.len(), 5, "{portal}");
        assert_eq!(
            corrections[0],
            "General liability each occurrence is $500,000; $1,000,000 is required."
        );
    })
    .await;
}
