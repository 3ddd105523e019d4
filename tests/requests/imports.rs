//! Importing vendors from the files customers have, made byte for byte as `QuickBooks`, Xero and
//! Excel save them, with the mapping and the defaults; exports as Excel workbooks read back
//! with a spreadsheet library; and the files that must be refused with nothing created.

use std::io::Cursor;

use axum_test::{
    multipart::{MultipartForm, Part},
    TestResponse,
};
use calamine::{Data, Reader, Xlsx};
use loco_rs::{app::AppContext, TestServer};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::models::_entities::vendors;

use crate::support::{
    assert_envelope, bearer, get, in_days, make_professional, register, upload, with_app, Account,
    UploadSpec,
};

async fn send(
    server: &TestServer,
    account: &Account,
    bytes: Vec<u8>,
    commit: bool,
    choices: &[(&str, Value)],
) -> TestResponse {
    let (h, v) = bearer(&account.token);
    let mut form = MultipartForm::new()
        .add_part(
            "file",
            Part::bytes(bytes)
                .file_name("vendors.csv")
                .mime_type("text/csv"),
        )
        .add_text("commit", if commit { "true" } else { "false" });
    for (name, value) in choices {
        form = form.add_text(*name, value.to_string());
    }
    server
        .post("/api/vendors/import")
        .add_header(h, v)
        .multipart(form)
        .await
}

async fn preview(server: &TestServer, account: &Account, bytes: Vec<u8>) -> Value {
    let res = send(server, account, bytes, false, &[]).await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    res.json()
}

fn statuses(body: &Value) -> Vec<String> {
    body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_string())
        .collect()
}

fn fields(body: &Value) -> Vec<(String, Value)> {
    body["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["header"].as_str().unwrap().to_string(),
                c["field"].clone(),
            )
        })
        .collect()
}

async fn vendor_count(ctx: &AppContext) -> u64 {
    vendors::Entity::find().count(&ctx.db).await.unwrap()
}

/// `QuickBooks` Online's "Vendor Contact List" exported to CSV: the report's title rows, every
/// cell quoted, CRLF, and the timestamp footer.
fn quickbooks(with_titles: bool) -> Vec<u8> {
    let mut text = String::new();
    if with_titles {
        text.push_str(
            "\"Craig's Design and Landscaping Services\"\r\n\"Vendor Contact List\"\r\n\r\n",
        );
    }
    text.push_str(
        "\"Vendor\",\"Phone Numbers\",\"Email\",\"Full Name\",\"Billing Address\",\"Account #\"\r\n\
         \"Brosnahan Insurance Agency\",\"(650) 555-9912\",\"brosnahan@example.com\",\"Nick Brosnahan\",\"P.O. Box 5, Middlefield, CA  94482\",\"7653412\"\r\n\
         \"Café Olé Cleaning\",\"+1 650 555 1616\",\"cafe@example.com\",\"\",\"10 Main St., Palo Alto, CA  94303\",\"\"\r\n",
    );
    if with_titles {
        text.push_str("\r\n\r\n\"Friday, Nov 27, 2026 06:22:54 AM GMT-8\"\r\n");
    }
    text.into_bytes()
}

/// Xero's Contacts.csv: UTF-8 with a byte-order mark, its own headers, CRLF.
fn xero() -> Vec<u8> {
    let header = "*ContactName,AccountNumber,EmailAddress,FirstName,LastName,POAttentionTo,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,POPostalCode,POCountry,SAAttentionTo,SAAddressLine1,SAAddressLine2,SAAddressLine3,SAAddressLine4,SACity,SARegion,SAPostalCode,SACountry,PhoneNumber,FaxNumber,MobileNumber,DDINumber,SkypeName,BankAccountName,BankAccountNumber,BankAccountParticulars,TaxNumber,AccountsReceivableTaxCodeName,AccountsPayableTaxCodeName,Website,LegalName,Discount,CompanyNumber,DueDateBillDay,DueDateBillTerm,DueDateSalesDay,DueDateSalesTerm";
    let row = |name: &str, email: &str, zip: &str| {
        let mut cells = vec![""; 42];
        cells[0] = name;
        cells[2] = email;
        cells[6] = "Level 2";
        cells[7] = "1 Queen St";
        cells[10] = "Boston";
        cells[11] = "MA";
        cells[12] = zip;
        cells[13] = "USA";
        cells[23] = "617 555 0100";
        cells.join(",")
    };
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(
        format!(
            "{header}\r\n{}\r\n{}\r\n",
            row("Harbor HVAC", "harbor@example.com", "02134"),
            row("Quincy Plumbing", "quincy@example.com", "02169")
        )
        .as_bytes(),
    );
    bytes
}

#[tokio::test]
async fn quickbooks_lists_import_with_and_without_their_title_rows() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Books", Some("Books Co")).await;
        for with_titles in [true, false] {
            let body = preview(&server, &ann, quickbooks(with_titles)).await;
            assert_eq!(
                body["headerLine"],
                if with_titles { 4 } else { 1 },
                "{body}"
            );
            assert_eq!(body["encoding"], "UTF-8");
            assert_eq!(body["delimiter"], ",");
            assert_eq!(
                fields(&body),
                vec![
                    ("Vendor".to_string(), json!("name")),
                    ("Phone Numbers".to_string(), json!("phone")),
                    ("Email".to_string(), json!("email")),
                    ("Full Name".to_string(), Value::Null),
                    ("Billing Address".to_string(), json!("address")),
                    ("Account #".to_string(), Value::Null),
                ]
            );
            assert_eq!(body["ignoredColumns"], json!(["Full Name", "Account #"]));
            // No service type column: each row says so until a default is chosen.
            assert_eq!(statuses(&body), vec!["error", "error"], "{body}");
            assert_eq!(
                body["rows"][0]["errors"],
                json!(["Service type is required"])
            );
        }
        // The person keeps the contact's name in Notes and chooses a service type for all.
        let choices = [
            ("mapping", json!({"Full Name": "notes"})),
            ("defaults", json!({"serviceType": "Cleaning"})),
        ];
        let res = send(&server, &ann, quickbooks(true), true, &choices).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let body: Value = res.json();
        assert_eq!(body["created"], 2, "{body}");
        let list: Vec<Value> = get(&server, &ann, "/api/vendors?sort=name").await.json();
        let cafe = list
            .iter()
            .find(|v| v["email"] == "cafe@example.com")
            .unwrap();
        assert_eq!(cafe["name"], "Café Olé Cleaning");
        assert_eq!(cafe["phone"], "+1 650 555 1616");
        assert_eq!(cafe["serviceType"], "cleaning");
        let agency = list
            .iter()
            .find(|v| v["email"] == "brosnahan@example.com")
            .unwrap();
        assert_eq!(agency["notes"], "Full Name: Nick Brosnahan");
        assert_eq!(agency["address"], "P.O. Box 5, Middlefield, CA  94482");
        assert_eq!(vendor_count(&ctx).await, 2);
    })
    .await;
}

#[tokio::test]
async fn xero_contacts_import_with_their_postal_address_and_leading_zeros() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Xero", Some("Xero Co")).await;
        let body = preview(&server, &ann, xero()).await;
        let mapped: Vec<(String, Value)> = fields(&body)
            .into_iter()
            .filter(|(_, f)| !f.is_null())
            .collect();
        assert_eq!(
            mapped,
            vec![
                ("*ContactName".to_string(), json!("name")),
                ("EmailAddress".to_string(), json!("email")),
                ("POAddressLine1".to_string(), json!("address")),
                ("POAddressLine2".to_string(), json!("address")),
                ("POAddressLine3".to_string(), json!("address")),
                ("POAddressLine4".to_string(), json!("address")),
                ("POCity".to_string(), json!("city")),
                ("PORegion".to_string(), json!("state")),
                ("POPostalCode".to_string(), json!("zipCode")),
                ("PhoneNumber".to_string(), json!("phone")),
            ]
        );
        let choices = [("defaults", json!({"serviceType": "HVAC"}))];
        let body: Value = send(&server, &ann, xero(), true, &choices).await.json();
        assert_eq!(body["created"], 2, "{body}");
        let list: Vec<Value> = get(&server, &ann, "/api/vendors").await.json();
        let harbor = list.iter().find(|v| v["name"] == "Harbor HVAC").unwrap();
        assert_eq!(harbor["zipCode"], "02134");
        assert_eq!(harbor["address"], "Level 2, 1 Queen St");
        assert_eq!(harbor["city"], "Boston");
        assert_eq!(harbor["serviceType"], "hvac");
        assert_eq!(vendor_count(&ctx).await, 2);
    })
    .await;
}

#[tokio::test]
async fn excel_files_in_windows_1252_utf16_and_with_semicolons_read_as_written() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Excel", Some("Excel Co")).await;
        // Excel's classic "CSV (Comma delimited)": Windows-1252, CRLF.
        let cp1252 =
            b"Name,Email,Service Type\r\nCaf\xe9 Ol\xe9 Cleaning,cafe@example.com,Cleaning\r\n"
                .to_vec();
        let body = preview(&server, &ann, cp1252).await;
        assert_eq!(body["encoding"], "windows-1252");
        assert_eq!(body["rows"][0]["name"], "Café Olé Cleaning");
        assert_eq!(statuses(&body), vec!["create"]);

        // Excel in much of Europe: semicolons, labels as the app shows them.
        let semicolons = "Name;Email;Service Type;Zip Code\r\n\
            Müller Bau;mueller@example.com;General Contractor;01067\r\n\
            Kälte GmbH;kaelte@example.com;hvac;\r\n\
            Rohr AG;rohr@example.com;Plumbng;\r\n";
        let body = preview(&server, &ann, semicolons.as_bytes().to_vec()).await;
        assert_eq!(body["delimiter"], ";");
        assert_eq!(statuses(&body), vec!["create", "create", "error"]);
        assert_eq!(
            body["rows"][2]["errors"],
            json!(["Service type \"Plumbng\" is not one we know; did you mean \"Plumbing\"?"])
        );

        // Excel's "Unicode Text": UTF-16 with a byte-order mark, tabs.
        let mut utf16 = vec![0xff, 0xfe];
        utf16.extend(
            "Name\tEmail\tService Type\r\nØresund Security\toresund@example.com\tSecurity\r\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        );
        let body = preview(&server, &ann, utf16).await;
        assert_eq!(
            (body["encoding"].as_str(), body["delimiter"].as_str()),
            (Some("UTF-16LE"), Some("\t"))
        );
        assert_eq!(body["rows"][0]["name"], "Øresund Security");
    })
    .await;
}

#[tokio::test]
async fn the_plan_limit_is_stated_before_anything_is_imported() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Room", Some("Room Co")).await;
        let rows: Vec<String> = (0..5)
            .map(|i| format!("Vendor {i},v{i}@example.com,other"))
            .collect();
        let rows = rows.join("\n");
        let body = preview(
            &server,
            &ann,
            format!("Name,Email,Service Type\n{rows}\n").into_bytes(),
        )
        .await;
        assert_eq!(
            body["vendorLimit"],
            json!({"allowed": 2, "existing": 0, "room": 2,
                "message": "Free accounts are limited to 2 vendors maximum."})
        );
        assert_eq!(body["wouldCreate"], 2);
        assert_eq!(vendor_count(&ctx).await, 0, "a preview creates nothing");
    })
    .await;
}

#[tokio::test]
async fn duplicates_are_found_in_the_organization_only() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Dup", Some("Dup Co")).await;
        let bob = register(&server, "Bob Other", Some("Other Co")).await;
        let csv = b"Name,Email,Service Type\nAcme,acme@example.com,other\n".to_vec();
        let body: Value = send(&server, &bob, csv.clone(), true, &[]).await.json();
        assert_eq!(body["created"], 1);
        // Another organization's vendor with the same email is not a duplicate here.
        let body = preview(&server, &ann, csv.clone()).await;
        assert_eq!(statuses(&body), vec!["create"]);
        let body: Value = send(&server, &ann, csv.clone(), true, &[]).await.json();
        assert_eq!(body["created"], 1);
        let body = preview(&server, &ann, csv).await;
        assert_eq!(statuses(&body), vec!["duplicate"]);
        assert_eq!(
            body["rows"][0]["errors"],
            json!(["A vendor with this email already exists."])
        );
        assert_eq!(vendor_count(&ctx).await, 2);
    })
    .await;
}

#[tokio::test]
async fn files_that_are_not_vendor_lists_are_refused_with_nothing_created() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Junk", Some("Junk Co")).await;
        let junk: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect();
        let quotes = format!("Name,Email\n\"{}", "\"\"".repeat(1_500_000)).into_bytes();
        let wide = format!("{}\n", vec!["x"; 100_000].join(",")).into_bytes();
        let cases: [(Vec<u8>, &str); 5] = [
            (junk, "not a CSV file"),
            (quotes, "a quote may be left open"),
            (wide, "100000 columns"),
            (b"PK\x03\x04\x14\x00\x06\x00".to_vec(), "Excel workbook"),
            (Vec::new(), "Choose a CSV file"),
        ];
        for (bytes, words) in cases {
            let res = send(&server, &ann, bytes, true, &[]).await;
            let body = assert_envelope(&res, 422, "validation_failed");
            assert!(
                body["errors"]["file"][0].as_str().unwrap().contains(words),
                "{body}"
            );
        }
        let big = vec![b'a'; 50 * 1024 * 1024];
        assert_envelope(
            &send(&server, &ann, big, true, &[]).await,
            413,
            "payload_too_large",
        );

        let csv = b"Vendor,Email,Trade\nAcme,acme@example.com,plumbing\n".to_vec();
        let bad_mapping = [("mapping", json!({"Trade": "colour", "Nope": null}))];
        let body = assert_envelope(
            &send(&server, &ann, csv.clone(), true, &bad_mapping).await,
            422,
            "validation_failed",
        );
        assert_eq!(
            body["errors"]["mapping"].as_array().unwrap().len(),
            2,
            "{body}"
        );
        let bad_default = [("defaults", json!({"serviceType": "Roofing"}))];
        let body = assert_envelope(
            &send(&server, &ann, csv.clone(), true, &bad_default).await,
            422,
            "validation_failed",
        );
        assert!(body["errors"]["defaults.serviceType"][0]
            .as_str()
            .unwrap()
            .contains("Roofing"));
        let unknown_default = [("defaults", json!({"colour": "red"}))];
        assert_envelope(
            &send(&server, &ann, csv.clone(), true, &unknown_default).await,
            422,
            "validation_failed",
        );
        let not_json = [("mapping", json!("Vendor=name"))];
        assert_envelope(
            &send(&server, &ann, csv.clone(), true, &not_json).await,
            422,
            "validation_failed",
        );
        let form = MultipartForm::new().add_text("colour", "red");
        let (h, v) = bearer(&ann.token);
        assert_envelope(
            &server
                .post("/api/vendors/import")
                .add_header(h, v)
                .multipart(form)
                .await,
            400,
            "invalid_upload",
        );
        let form = MultipartForm::new().add_part("file", Part::bytes(csv).file_name("v.csv"));
        assert_envelope(
            &server.post("/api/vendors/import").multipart(form).await,
            401,
            "unauthorized",
        );
        assert_eq!(vendor_count(&ctx).await, 0);
    })
    .await;
}

fn workbook(res: &TestResponse) -> Vec<Vec<Data>> {
    assert_eq!(res.status_code(), 200, "{}", res.text());
    assert_eq!(
        res.header("content-type").to_str().unwrap(),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(res.as_bytes().to_vec())).unwrap();
    let names = book.sheet_names();
    let range = book.worksheet_range(&names[0]).unwrap();
    let formulas = book.worksheet_formula(&names[0]).unwrap();
    assert!(
        formulas.used_cells().all(|(_, _, f)| f.is_empty()),
        "no cell is a formula"
    );
    range.rows().map(<[Data]>::to_vec).collect()
}

#[tokio::test]
async fn excel_exports_keep_characters_digits_and_types_and_csv_reimports() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Sheets", Some("Sheets Co")).await;
        let (h, v) = bearer(&ann.token);
        let body = json!({"name": "Café Olé", "email": "cafe@example.com", "serviceType": "cleaning",
            "phone": "+49 30 1234567", "zipCode": "02134", "notes": "=HYPERLINK(\"http://evil\")"});
        let created = server.post("/api/vendors").add_header(h, v).json(&body).await;
        assert_eq!(created.status_code(), 201);
        let vendor_id = created.json::<Value>()["id"].as_str().unwrap().to_string();

        let rows = workbook(&get(&server, &ann, "/api/vendors/export?format=xlsx").await);
        assert_eq!(rows[0][0], Data::String("Name".into()));
        let cafe = &rows[1];
        assert_eq!(cafe[0], Data::String("Café Olé".into()));
        assert_eq!(cafe[3], Data::String("+49 30 1234567".into()));
        assert_eq!(cafe[7], Data::String("02134".into()));
        assert_eq!(cafe[8], Data::String("=HYPERLINK(\"http://evil\")".into()), "text, not a formula");
        assert_eq!(cafe[10], Data::Float(0.0), "a count is a number");
        let res = get(&server, &ann, "/api/vendors/export?format=pdf").await;
        assert_envelope(&res, 422, "validation_failed");
        assert_envelope(&server.get("/api/vendors/export?format=xlsx").await, 401, "unauthorized");

        // The CSV: a byte-order mark, the phone left alone, the formula guarded; imported into
        // another organization it comes back as it was, the guard taken off.
        let csv = get(&server, &ann, "/api/vendors/export").await.as_bytes().to_vec();
        let text = String::from_utf8(csv.clone()).unwrap();
        assert!(text.starts_with('\u{feff}'));
        assert!(text.contains(",+49 30 1234567,"), "{text}");
        assert!(text.contains("'=HYPERLINK"), "{text}");
        let bob = register(&server, "Bob Sheets", Some("Other Sheets")).await;
        let body = preview(&server, &bob, csv).await;
        assert_eq!(body["rows"][0]["errors"], json!(["Notes looks like a spreadsheet formula."]));

        make_professional(&ctx, &ann).await;
        let report = workbook(&get(&server, &ann, "/api/reports/non-compliant?format=xlsx").await);
        assert_eq!(report[0][0], Data::String("Vendor".into()));
        assert_eq!(report[1][0], Data::String("Café Olé".into()));
        let mut spec = UploadSpec::pdf("w9");
        spec.expiration_date = Some(in_days(10));
        assert_eq!(upload(&server, &ann, &vendor_id, &spec).await.status_code(), 201);
        let docs = workbook(&get(&server, &ann, "/api/documents/export?format=xlsx").await);
        assert_eq!(docs[1][0], Data::String("Café Olé".into()));
        assert!(matches!(docs[1][4], Data::DateTime(_)), "a date is a date: {:?}", docs[1][4]);
        assert_eq!(docs[1][6], Data::Float(1.0), "the version is a number");
        let weeks = workbook(&get(&server, &ann, "/api/reports/expirations?format=xlsx").await);
        assert!(matches!(weeks[1][4], Data::DateTime(_)), "{:?}", weeks[1]);
    })
    .await;
}
