//! The Professional plan's bulk calls and CSV import/export: each works, needs a token, is
//! refused on Free (402, nothing changed), treats another organization's ids as not found
//! (nothing of theirs read, changed or zipped), and refuses bad input.

use std::io::Read;

use axum_test::TestResponse;
use loco_rs::{app::AppContext, TestServer};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::models::_entities::{documents, renewal_requests, vendors};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, make_professional, register, upload, with_app,
    Account, UploadSpec,
};

async fn post(server: &TestServer, account: &Account, path: &str, body: Value) -> TestResponse {
    let (h, v) = bearer(&account.token);
    server.post(path).add_header(h, v).json(&body).await
}

/// A vendor with `n` documents uploaded through the API; returns (vendor id, document ids).
async fn vendor_with_documents(
    server: &TestServer,
    account: &Account,
    name: &str,
    n: usize,
) -> (String, Vec<String>) {
    let vendor = create_vendor(server, account, name).await;
    let id = vendor["id"].as_str().unwrap().to_string();
    let mut docs = Vec::new();
    for i in 0..n {
        let mut spec = UploadSpec::pdf("other");
        let file_name = format!("certificate-{i}.pdf");
        spec.file_name = &file_name;
        let res = upload(server, account, &id, &spec).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        docs.push(res.json::<Value>()["id"].as_str().unwrap().to_string());
    }
    (id, docs)
}

async fn count<E: EntityTrait>(ctx: &AppContext, _: E) -> u64
where
    E::Model: Sync,
{
    E::find().count(&ctx.db).await.unwrap()
}

#[tokio::test]
async fn every_bulk_call_is_refused_on_free_and_without_a_token() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Free", Some("Free Co")).await;
        let (vendor, docs) = vendor_with_documents(&server, &ann, "Acme", 1).await;
        for (path, ids) in [
            ("/api/documents/archive", &docs),
            ("/api/documents/bulk-delete", &docs),
            ("/api/vendors/bulk-delete", &vec![vendor.clone()]),
            ("/api/vendors/renewal-requests", &vec![vendor.clone()]),
        ] {
            let body = assert_envelope(
                &post(&server, &ann, path, json!({"ids": ids})).await,
                402,
                "plan_required",
            );
            assert!(
                body["message"]
                    .as_str()
                    .unwrap()
                    .contains("Professional plan"),
                "{body}"
            );
            assert_envelope(
                &server.post(path).json(&json!({"ids": ids})).await,
                401,
                "unauthorized",
            );
        }
        assert_eq!(count(&ctx, documents::Entity).await, 1, "nothing deleted");
        assert_eq!(count(&ctx, vendors::Entity).await, 1);
        assert_eq!(count(&ctx, renewal_requests::Entity).await, 0);
        assert_eq!(
            ctx.mailer.as_ref().unwrap().deliveries().count,
            0,
            "no email"
        );
    })
    .await;
}

#[tokio::test]
async fn the_archive_holds_exactly_the_selected_files_under_unique_names() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Zip", Some("Zip Co")).await;
        make_professional(&ctx, &ann).await;
        let (_, mut docs) = vendor_with_documents(&server, &ann, "Acme/Plumbing", 3).await;
        let (_, other_docs) = vendor_with_documents(&server, &ann, "Other", 1).await;
        docs.push(other_docs[0].clone());
        let res = post(
            &server,
            &ann,
            "/api/documents/archive",
            json!({"ids": docs}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.header("content-type"), "application/zip");
        assert!(res
            .header("content-disposition")
            .to_str()
            .unwrap()
            .contains(".zip"));
        let bytes = res.as_bytes().to_vec();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut names: Vec<String> = (0..archive.len())
            .map(|i| archive.by_index(i).unwrap().name().unwrap().to_string())
            .collect();
        names.sort();
        assert_eq!(
            names,
            vec![
                "Acme_Plumbing/certificate-0.pdf",
                "Acme_Plumbing/certificate-1.pdf",
                "Acme_Plumbing/certificate-2.pdf",
                "Other/certificate-0.pdf",
            ]
        );
        let mut content = Vec::new();
        archive
            .by_name("Other/certificate-0.pdf")
            .unwrap()
            .read_to_end(&mut content)
            .unwrap();
        assert_eq!(content, crate::fixtures::pdf(), "the file as uploaded");
    })
    .await;
}

/// Sets a document's stored file name as it is, past the cleaning an upload does (a row
/// written before that cleaning, or by hand).
async fn rename_stored(ctx: &AppContext, pid: &str, file_name: &str) {
    use sea_orm::{sea_query::Expr, ColumnTrait, QueryFilter};
    let updated = documents::Entity::update_many()
        .col_expr(documents::Column::FileName, Expr::value(file_name))
        .filter(documents::Column::Pid.eq(uuid::Uuid::parse_str(pid).unwrap()))
        .exec(&ctx.db)
        .await
        .unwrap();
    assert_eq!(updated.rows_affected, 1);
}

#[tokio::test]
async fn no_archive_entry_leaves_its_folder_whatever_the_names() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Slip", Some("Slip Co")).await;
        make_professional(&ctx, &ann).await;
        let long = "é".repeat(200);
        let vendor_names = [
            ". ..",
            "..",
            ".",
            "../..",
            "/etc",
            "C:\\Windows",
            "\\\\server\\share",
            "bell\u{7}tab\there",
            "CON",
            long.as_str(),
        ];
        let file_names = [
            "../invoice.pdf",
            "..",
            "/etc/passwd",
            "C:\\boot.ini",
            "...",
            "   ",
            "line\nbreak.pdf",
            "..\\..\\x.pdf",
            "../invoice.pdf",
            "x".repeat(300).as_str(),
        ]
        .map(str::to_string);
        let mut docs = Vec::new();
        for (vendor, file) in vendor_names.iter().zip(&file_names) {
            // Two documents a vendor: one renamed, one keeping the name it was uploaded with.
            let (_, ids) = vendor_with_documents(&server, &ann, vendor, 2).await;
            rename_stored(&ctx, &ids[0], file).await;
            docs.extend(ids);
        }
        // And the same hostile file name twice under one vendor.
        let (_, twins) = vendor_with_documents(&server, &ann, ". ..", 2).await;
        for id in &twins {
            rename_stored(&ctx, id, "../invoice.pdf").await;
        }
        docs.extend(twins);

        let res = post(
            &server,
            &ann,
            "/api/documents/archive",
            json!({"ids": docs}),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let bytes = res.as_bytes().to_vec();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(archive.len(), docs.len(), "every document, none merged");
        let mut seen = std::collections::HashSet::new();
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i).unwrap();
            let name = entry.name().unwrap().to_string();
            let parts: Vec<&str> = name.split('/').collect();
            assert_eq!(parts.len(), 2, "vendor/file: {name:?}");
            for part in &parts {
                assert!(
                    !part.is_empty() && *part != "." && *part != "..",
                    "{name:?}"
                );
                assert!(!part.starts_with('.'), "{name:?}");
            }
            assert!(!name.starts_with(['/', '\\']), "{name:?}");
            assert!(
                !name.contains(['\\', ':']),
                "no drive, no backslash: {name:?}"
            );
            assert!(!name.chars().any(char::is_control), "{name:?}");
            assert!(parts.iter().all(|p| p.len() <= 128), "{name:?}");
            assert!(entry.enclosed_name().is_some(), "zip's own check: {name:?}");
            assert!(
                vendorwatch::models::bulk::archive::is_safe_entry_name(&name),
                "{name:?}"
            );
            assert!(seen.insert(name.to_lowercase()), "unique: {name:?}");
            let mut content = Vec::new();
            entry.read_to_end(&mut content).unwrap();
            assert_eq!(content, crate::fixtures::pdf(), "{name:?}");
        }
        for twin in [
            "vendor/_invoice.pdf",
            "vendor/_invoice (2).pdf",
            "vendor/_invoice (3).pdf",
        ] {
            assert!(seen.contains(twin), "{twin}: {seen:?}");
        }
    })
    .await;
}

#[tokio::test]
async fn another_organizations_ids_are_not_found_and_nothing_is_touched() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Pro", Some("Pro Co")).await;
        let mallory = register(&server, "Mallory Pro", Some("Other Co")).await;
        make_professional(&ctx, &ann).await;
        make_professional(&ctx, &mallory).await;
        let (own_vendor, own_docs) = vendor_with_documents(&server, &ann, "Mine", 1).await;
        let (their_vendor, their_docs) =
            vendor_with_documents(&server, &mallory, "Theirs", 1).await;
        let mixed_docs = vec![own_docs[0].clone(), their_docs[0].clone()];
        let mixed_vendors = vec![own_vendor.clone(), their_vendor.clone()];
        for (path, ids) in [
            ("/api/documents/archive", &mixed_docs),
            ("/api/documents/bulk-delete", &mixed_docs),
            ("/api/vendors/bulk-delete", &mixed_vendors),
            ("/api/vendors/renewal-requests", &mixed_vendors),
        ] {
            assert_envelope(
                &post(&server, &ann, path, json!({"ids": ids})).await,
                404,
                "not_found",
            );
        }
        assert_eq!(
            count(&ctx, documents::Entity).await,
            2,
            "nothing deleted, theirs or ours"
        );
        assert_eq!(count(&ctx, vendors::Entity).await, 2);
        assert_eq!(count(&ctx, renewal_requests::Entity).await, 0);
        assert_eq!(
            ctx.mailer.as_ref().unwrap().deliveries().count,
            0,
            "nobody emailed"
        );
    })
    .await;
}

#[tokio::test]
async fn empty_or_too_long_selections_are_refused() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Many", Some("Many Co")).await;
        make_professional(&ctx, &ann).await;
        let empty = post(
            &server,
            &ann,
            "/api/documents/bulk-delete",
            json!({"ids": []}),
        )
        .await;
        let body = assert_envelope(&empty, 422, "validation_failed");
        assert!(body["errors"]["ids"].is_array());
        let many: Vec<String> = (0..501).map(|i| format!("id-{i}")).collect();
        assert_envelope(
            &post(
                &server,
                &ann,
                "/api/documents/archive",
                json!({"ids": many}),
            )
            .await,
            422,
            "validation_failed",
        );
        assert_envelope(
            &post(
                &server,
                &ann,
                "/api/vendors/bulk-delete",
                json!({"ids": "nope"}),
            )
            .await,
            400,
            "invalid_body",
        );
    })
    .await;
}

#[tokio::test]
async fn bulk_delete_removes_the_selection_with_one_entry_each() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Delete", Some("Delete Co")).await;
        make_professional(&ctx, &ann).await;
        let (_, docs) = vendor_with_documents(&server, &ann, "Acme", 3).await;
        let (other, _) = vendor_with_documents(&server, &ann, "Gone Vendor", 2).await;
        let res = post(
            &server,
            &ann,
            "/api/documents/bulk-delete",
            json!({"ids": &docs[..2]}),
        )
        .await;
        assert_eq!(res.json::<Value>(), json!({"deleted": 2}));
        let res = post(
            &server,
            &ann,
            "/api/vendors/bulk-delete",
            json!({"ids": [other]}),
        )
        .await;
        assert_eq!(res.json::<Value>(), json!({"deleted": 1}));
        assert_eq!(count(&ctx, documents::Entity).await, 1);
        assert_eq!(count(&ctx, vendors::Entity).await, 1);
        let log: Value = get(&server, &ann, "/api/activity-logs?type=document_deleted")
            .await
            .json();
        assert_eq!(log.as_array().unwrap().len(), 2, "one entry per document");
        assert_eq!(
            crate::support::stored_files(&ctx, &ann).await.len(),
            1,
            "their files went too"
        );
    })
    .await;
}

#[tokio::test]
async fn renewal_requests_go_once_a_day_per_vendor_with_the_portal_key() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Ask", Some("Ask Co")).await;
        make_professional(&ctx, &ann).await;
        let a = create_vendor(&server, &ann, "Alpha Pipes").await;
        let b = create_vendor(&server, &ann, "Beta Wires").await;
        let ids = vec![
            a["id"].as_str().unwrap().to_string(),
            b["id"].as_str().unwrap().to_string(),
        ];
        let first = post(
            &server,
            &ann,
            "/api/vendors/renewal-requests",
            json!({"ids": ids}),
        )
        .await;
        assert_eq!(first.json::<Value>(), json!({"sent": ids, "skipped": []}));
        let again = post(
            &server,
            &ann,
            "/api/vendors/renewal-requests",
            json!({"ids": [ids[0]]}),
        )
        .await;
        assert_eq!(
            again.json::<Value>(),
            json!({"sent": [], "skipped": [{"id": ids[0], "reason": "already_requested_today"}]})
        );
        let messages = ctx.mailer.as_ref().unwrap().deliveries().messages;
        assert_eq!(messages.len(), 2, "one email per vendor, not two");
        let alpha = messages.iter().find(|m| m.contains("Alpha Pipes")).unwrap();
        let parts = crate::support::email_parts(alpha);
        assert!(
            parts.contains(&format!("Your company key: {}", ids[0])),
            "{parts}"
        );
        assert!(parts.contains("/vendor-upload"));
        assert!(parts.contains("W-9"), "asks for what is missing: {parts}");
    })
    .await;
}

#[tokio::test]
async fn vendors_and_documents_export_as_csv_safe_for_spreadsheets() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Csv", Some("Csv Co")).await;
        let (h, v) = bearer(&ann.token);
        let mut body = crate::support::vendor_body("=HYPERLINK(\"http://evil\")");
        body["notes"] = json!("@SUM(A1)");
        let res = server.post("/api/vendors").add_header(h, v).json(&body).await;
        assert_eq!(res.status_code(), 201);
        vendor_with_documents(&server, &ann, "Acme", 1).await;
        assert_envelope(&server.get("/api/vendors/export").await, 401, "unauthorized");
        let res = get(&server, &ann, "/api/vendors/export").await;
        assert_eq!(res.status_code(), 200);
        assert!(res.header("content-type").to_str().unwrap().starts_with("text/csv"));
        let text = res.text();
        let mut lines = text.lines();
        // A byte-order mark first, so that Excel reads UTF-8.
        assert_eq!(lines.next().unwrap(), "\u{feff}Name,Email,Service Type,Phone,Address,City,State,Zip Code,Notes,Status,Documents,Company Key");
        assert!(text.contains("'=HYPERLINK"), "{text}");
        assert!(text.contains("'@SUM(A1)"), "{text}");
        assert_eq!(text.lines().count(), 3);
        let docs = get(&server, &ann, "/api/documents/export").await.text();
        assert!(docs.starts_with("\u{feff}Vendor,Company Key,Document,File Name"), "{docs}");
        assert!(docs.contains("certificate-0.pdf"));
        let _ = ctx;
    })
    .await;
}

/// The documents CSV is streamed (`exports::documents_csv`) and the workbook written while it
/// is read (`exports::documents_xlsx`): still only the caller's organization, refused without
/// a token or with an unknown format, the same bytes (the CSV) and cells (the workbook) as the
/// sheet built whole, and named after the day.
#[tokio::test]
async fn the_streamed_documents_export_holds_only_the_organizations_documents() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Stream", Some("Stream Co")).await;
        let bob = register(&server, "Bob Stream", Some("Other Co")).await;
        vendor_with_documents(&server, &ann, "Acme", 3).await;
        vendor_with_documents(&server, &bob, "Bobco", 2).await;
        assert_envelope(
            &server.get("/api/documents/export").await,
            401,
            "unauthorized",
        );
        assert_envelope(
            &get(&server, &ann, "/api/documents/export?format=pdf").await,
            422,
            "validation_failed",
        );
        let res = get(&server, &ann, "/api/documents/export").await;
        assert_eq!(res.status_code(), 200);
        let disposition = res.header("content-disposition");
        let disposition = disposition.to_str().unwrap();
        assert!(
            disposition.contains("documents-") && disposition.contains(".csv"),
            "{disposition}"
        );
        let streamed = res.text();
        assert!(!streamed.contains("Bobco"), "{streamed}");
        assert_eq!(
            streamed.lines().count(),
            4,
            "the header and Ann's 3: {streamed}"
        );
        // The same bytes as the sheet written whole from the list the document screen reads.
        let user = vendorwatch::models::users::Model::find_by_email(&ctx.db, &ann.email)
            .await
            .unwrap();
        // A new organization's day is UTC's.
        let today = chrono::Utc::now().date_naive();
        let (rows, _) = vendorwatch::models::documents::Model::list_current(
            &ctx.db,
            user.organization_id,
            &vendorwatch::models::documents::DocumentQuery::default(),
            today,
        )
        .await
        .unwrap();
        let sheet = vendorwatch::models::exports::documents_sheet(&rows, today);
        assert_eq!(streamed, String::from_utf8(sheet.csv().unwrap()).unwrap());
        // The workbook is written while it is read (`exports::documents_xlsx`): the same cells
        // and types as the sheet's workbook built whole.
        let res = get(&server, &ann, "/api/documents/export?format=xlsx").await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let disposition = res.header("content-disposition");
        assert!(
            disposition.to_str().unwrap().contains(".xlsx"),
            "{disposition:?}"
        );
        let cells = |bytes: Vec<u8>| {
            use calamine::Reader;
            let mut book: calamine::Xlsx<_> =
                calamine::Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
            let range = book.worksheet_range("Sheet1").unwrap();
            range
                .rows()
                .map(<[calamine::Data]>::to_vec)
                .collect::<Vec<_>>()
        };
        let written = cells(res.as_bytes().to_vec());
        assert_eq!(written.len(), 4, "the header and Ann's 3: {written:?}");
        assert!(!format!("{written:?}").contains("Bobco"));
        assert_eq!(written, cells(sheet.xlsx().unwrap()));
        assert_eq!(count(&ctx, documents::Entity).await, 5, "nothing changed");
    })
    .await;
}

#[tokio::test]
async fn a_vendor_import_previews_then_creates_the_valid_rows_within_the_plan() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Import", Some("Import Co")).await;
        let csv = "Name,Email,Service Type,Phone\n\
            Acme,acme@example.com,plumbing,+1 555 0100\n\
            ,missing@example.com,plumbing,\n\
            Acme Again,ACME@example.com,plumbing,\n\
            Evil,evil@example.com,plumbing,=cmd|' /C calc'!A0\n\
            Beta,beta@example.com,hvac,\n\
            Gamma,gamma@example.com,hvac,\n";
        let preview = post(&server, &ann, "/api/vendors/import", json!({"csv": csv})).await;
        assert_eq!(preview.status_code(), 200, "{}", preview.text());
        let preview: Value = preview.json();
        let fates: Vec<&str> = preview["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["status"].as_str().unwrap())
            .collect();
        assert_eq!(
            fates,
            vec!["create", "error", "duplicate", "error", "create", "error"]
        );
        assert_eq!(
            preview["rows"][5]["errors"][0],
            "Free accounts are limited to 2 vendors maximum."
        );
        assert_eq!(preview["wouldCreate"], 2);
        assert_eq!(
            count(&ctx, vendors::Entity).await,
            0,
            "a preview creates nothing"
        );

        let commit: Value = post(
            &server,
            &ann,
            "/api/vendors/import",
            json!({"csv": csv, "commit": true}),
        )
        .await
        .json();
        assert_eq!(commit["created"], 2);
        assert_eq!(count(&ctx, vendors::Entity).await, 2);

        let bad = post(
            &server,
            &ann,
            "/api/vendors/import",
            json!({"csv": "just some text"}),
        )
        .await;
        let body = assert_envelope(&bad, 422, "validation_failed");
        assert!(body["errors"]["csv"].is_array());
        assert_envelope(
            &server
                .post("/api/vendors/import")
                .json(&json!({"csv": csv}))
                .await,
            401,
            "unauthorized",
        );
        assert_eq!(
            count(&ctx, vendors::Entity).await,
            2,
            "a refused import creates nothing"
        );
    })
    .await;
}
