//! The corpus of refused files: each refused with the right status, leaving no file and no row.

use serde_json::Value;

use crate::{
    fixtures,
    support::{
        assert_envelope, create_vendor, get, register, stored_files, upload, with_app, UploadSpec,
    },
};

#[tokio::test]
async fn refused_files_get_the_right_status_and_leave_nothing_behind() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Upload Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let oversize = {
            let mut v = fixtures::pdf();
            v.resize(10 * 1024 * 1024 + 1, b' ');
            v
        };
        let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
            ("setup.pdf", fixtures::exe(), 415, "unsupported_file_type"),
            (
                "photo.png",
                b"just some text, not an image".to_vec(),
                415,
                "unsupported_file_type",
            ),
            (
                "contract.docx",
                fixtures::plain_zip(),
                415,
                "unsupported_file_type",
            ),
            ("empty.pdf", vec![], 422, "empty_file"),
            ("scan.png", fixtures::pdf(), 422, "file_type_mismatch"),
            ("big.pdf", oversize, 413, "payload_too_large"),
        ];
        for (name, bytes, status, code) in cases {
            let spec = UploadSpec {
                file_name: name,
                bytes,
                ..UploadSpec::pdf("w9")
            };
            let res = upload(&server, &ann, &id, &spec).await;
            assert_envelope(&res, status, code);
            assert!(
                stored_files(&ctx, &ann).await.is_empty(),
                "{name} left a file"
            );
            assert!(
                get(&server, &ann, "/api/documents")
                    .await
                    .json::<Vec<Value>>()
                    .is_empty(),
                "{name} left a row"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn every_accepted_type_is_stored_under_a_generated_name() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Types Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        for (name, bytes, content_type) in [
            ("../../etc/w9.pdf", fixtures::pdf(), "application/pdf"),
            ("scan.PNG", fixtures::png(), "image/png"),
            ("photo.jpg", fixtures::jpeg(), "image/jpeg"),
            ("photo.jpeg", fixtures::jpeg(), "image/jpeg"),
            (
                "agreement.docx",
                fixtures::docx(),
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            ),
        ] {
            let spec = UploadSpec {
                file_name: name,
                bytes,
                ..UploadSpec::pdf("other")
            };
            let res = upload(&server, &ann, &id, &spec).await;
            assert_eq!(res.status_code(), 201, "{name}: {}", res.text());
            assert_eq!(res.json::<Value>()["contentType"], content_type, "{name}");
        }
        let docs: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert!(
            docs.iter().any(|d| d["fileName"] == "w9.pdf"),
            "path parts are stripped from the display name"
        );
        let files = stored_files(&ctx, &ann).await;
        assert_eq!(files.len(), 5);
        for f in files {
            let stem = f.file_stem().unwrap().to_str().unwrap();
            assert_eq!(stem.len(), 32, "generated name {f:?}");
            assert!(!f.to_string_lossy().contains(".."));
        }
    })
    .await;
}

#[tokio::test]
async fn an_upload_cut_off_midway_leaves_no_file_and_no_row() {
    use tokio::io::AsyncWriteExt;
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Cut Co").await["id"].as_str().unwrap().to_string();
        let url = server.server_address().expect("the test server listens on a real port");
        let addr = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
        let boundary = "XBOUNDARYX";
        let head = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"documentType\"\r\n\r\nw9\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"w9.pdf\"\r\n\
             Content-Type: application/pdf\r\n\r\n"
        );
        let mut body = head.into_bytes();
        body.extend_from_slice(&crate::fixtures::pdf());
        body.resize(body.len() + 64 * 1024, b'x');
        let declared = body.len() + 512 * 1024;
        let request = format!(
            "POST /api/vendors/{id}/documents HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {declared}\r\n\r\n",
            ann.token
        );
        let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        stream.write_all(&body).await.unwrap();
        stream.flush().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        drop(stream); // the client goes away before the body is complete
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;

        assert!(stored_files(&ctx, &ann).await.is_empty());
        assert!(get(&server, &ann, "/api/documents").await.json::<Vec<Value>>().is_empty());
    })
    .await;
}

/// Uploads at once, on the `SQLite` of the default set-up as on `PostgreSQL`: each transaction
/// that reads then writes waits its turn; none fails with "database is locked" (`SQLite`
/// refuses at once, whatever its busy timeout, a transaction that began reading and wants to
/// write after another connection wrote).
#[tokio::test]
async fn fourteen_uploads_at_once_are_all_stored() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let mut vendors = vec![];
        for name in ["Rush Co", "Hurry Co"] {
            vendors.push(
                create_vendor(&server, &ann, name).await["id"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
        }
        let slots = [
            ("w9", None),
            ("coi", Some("general_liability")),
            ("coi", Some("workers_comp")),
            ("coi", Some("automobile")),
            ("sales_tax", None),
            ("vendor_agreement", None),
            ("other", None),
        ];
        let specs: Vec<(String, UploadSpec)> = vendors
            .iter()
            .flat_map(|v| {
                slots.iter().map(move |(t, coi)| {
                    let mut spec = UploadSpec::pdf(t);
                    spec.coi_type = *coi;
                    (v.clone(), spec)
                })
            })
            .collect();
        let answers = futures_util::future::join_all(
            specs
                .iter()
                .map(|(vendor, spec)| upload(&server, &ann, vendor, spec)),
        )
        .await;
        for res in &answers {
            assert_eq!(res.status_code(), 201, "{}", res.text());
        }
        let docs: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        assert_eq!(docs.len(), 14);
        assert_eq!(stored_files(&ctx, &ann).await.len(), 14);
    })
    .await;
}

/// The hostile corpus, through both upload routes (the signed-in one and the vendor portal):
/// polyglots, a zip bomb named .docx, scripts named as pictures, wrong extensions, names that
/// are huge or full of control characters. Each is refused with its status or, when it is what
/// its name says, stored under a generated name with a safe display name; nothing else stays.
#[tokio::test]
async fn the_hostile_corpus_is_refused_on_both_routes_and_leaves_nothing() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let (h, v) = crate::support::bearer(&ann.token);
        let mut body = crate::support::vendor_body("Hostile Co");
        body["companyKey"] = serde_json::json!("Hostile1");
        let res = server
            .post("/api/vendors")
            .add_header(h, v)
            .json(&body)
            .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let id = "Hostile1";
        let bomb = fixtures::zip_bomb_docx();
        assert!(
            bomb.len() < 1024 * 1024,
            "the bomb is small: {}",
            bomb.len()
        );
        let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
            (
                "contract.docx",
                fixtures::pdf_then_zip(),
                422,
                "file_type_mismatch",
            ),
            (
                "scan.pdf",
                fixtures::zip_then_pdf(),
                415,
                "unsupported_file_type",
            ),
            ("bomb.docx", bomb, 415, "unsupported_file_type"),
            (
                "photo.png",
                fixtures::gif_script(),
                415,
                "unsupported_file_type",
            ),
            ("photo.jpg", fixtures::html(), 415, "unsupported_file_type"),
            (
                "invoice.pdf.exe",
                fixtures::pdf(),
                422,
                "file_type_mismatch",
            ),
            ("no-extension", fixtures::pdf(), 422, "file_type_mismatch"),
        ];
        for (name, bytes, status, code) in cases {
            let spec = UploadSpec {
                file_name: name,
                bytes: bytes.clone(),
                ..UploadSpec::pdf("w9")
            };
            assert_envelope(&upload(&server, &ann, id, &spec).await, status, code);
            let portal = spec.form().add_text("companyKey", id);
            let res = server
                .post("/api/vendor-upload-document")
                .multipart(portal)
                .await;
            assert_envelope(&res, status, code);
            assert!(
                stored_files(&ctx, &ann).await.is_empty(),
                "{name} left a file"
            );
        }
        assert!(get(&server, &ann, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());
    })
    .await;
}

/// Names: a huge one is cut to size; control characters are refused; a right-to-left override
/// is taken out of the display name; the stored key is always generated.
#[tokio::test]
async fn hostile_file_names_are_cut_cleaned_or_refused() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Names Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let id = id.as_str();
        // Names: a huge one and one of control characters are stored under a generated key
        // with a display name cut to size and cleaned.
        let huge = format!("{}.pdf", "a".repeat(5_000));
        let spec = UploadSpec {
            file_name: &huge,
            ..UploadSpec::pdf("w9")
        };
        let res = upload(&server, &ann, id, &spec).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let stored = res.json::<Value>()["fileName"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            stored.chars().count() <= 255
                && std::path::Path::new(&stored)
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("pdf")),
            "{stored}"
        );
        // Control characters in the part's header are not a header HTTP can carry: refused.
        let spec = UploadSpec {
            file_name: "w9\u{1}\u{7}\u{1b}[31m.pdf",
            ..UploadSpec::pdf("sales_tax")
        };
        assert_envelope(
            &upload(&server, &ann, id, &spec).await,
            400,
            "invalid_upload",
        );
        // A right-to-left override (valid text) is taken out of the display name.
        let spec = UploadSpec {
            file_name: "w9\u{202e}fdp.exe.pdf",
            ..UploadSpec::pdf("sales_tax")
        };
        let res = upload(&server, &ann, id, &spec).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let name = res.json::<Value>()["fileName"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            !name.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{name:?}"
        );
        assert_eq!(stored_files(&ctx, &ann).await.len(), 2);
        for f in stored_files(&ctx, &ann).await {
            let stem = f.file_stem().unwrap().to_str().unwrap();
            assert_eq!(stem.len(), 32, "generated name {f:?}");
        }
    })
    .await;
}
