//! Every free-text field has a bound: a longer value is refused with 422 naming the field, and
//! nothing is created or changed. The vendor form's own bounds are in `vendors.rs` and
//! `bulk.rs`; these are the fields that had none.

use axum_test::multipart::{MultipartForm, Part};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::models::_entities::blog_posts;

use crate::{
    fixtures,
    support::{
        assert_envelope, bearer, count_orgs, count_users, create_vendor, email, get, make_admin,
        register, stored_files, upload, with_app, UploadSpec, PASSWORD,
    },
};

/// Asserts a 422 whose envelope names `field` with `message`.
fn assert_refused(res: &axum_test::TestResponse, field: &str, message: &str) {
    let body = assert_envelope(res, 422, "validation_failed");
    assert_eq!(body["errors"][field][0], message, "{body}");
}

#[tokio::test]
async fn registration_refuses_a_company_name_past_100_characters_and_creates_nothing() {
    with_app(|server, ctx| async move {
        let huge = "A".repeat(1_500_000);
        for company in [
            huge.as_str(),
            &"é".repeat(101),
            &format!(" {} ", "b".repeat(101)),
        ] {
            let res = server
                .post("/api/auth/register")
                .json(
                    &json!({"name": "Ann Lee", "email": email("ann"), "password": PASSWORD,
                    "company": company}),
                )
                .await;
            assert_refused(&res, "company", "Company must be at most 100 characters");
        }
        assert_eq!(count_users(&ctx).await, 0);
        assert_eq!(count_orgs(&ctx).await, 0);

        // 100 characters, once trimmed, is a name.
        let company = format!("  {}  ", "é".repeat(100));
        let account = register(&server, "Ann Lee", Some(&company)).await;
        assert_eq!(account.user["company"], "é".repeat(100));
    })
    .await;
}

#[tokio::test]
async fn sign_in_and_reset_requests_refuse_overlong_passwords_and_emails() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Bo Diaz", None).await;
        let res = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": "p".repeat(129)}))
            .await;
        assert_refused(&res, "password", "Password must be at most 128 characters");

        let long_email = format!("{}@example.com", "x".repeat(1_000_000));
        let res = server
            .post("/api/auth/forgot")
            .json(&json!({"email": long_email}))
            .await;
        assert_refused(&res, "email", "Invalid email address");
        assert_eq!(ctx.mailer.as_ref().unwrap().deliveries().count, 0);

        let res = server
            .post("/api/auth/login")
            .json(&json!({"email": account.email, "password": PASSWORD}))
            .await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
    })
    .await;
}

#[tokio::test]
async fn uploads_refuse_notes_past_5000_characters_and_store_nothing() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Cy Park", None).await;
        let key = create_vendor(&server, &ann, "Notes Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let long = "n".repeat(5001);
        let res = upload(
            &server,
            &ann,
            &key,
            &UploadSpec {
                notes: Some(&long),
                ..UploadSpec::pdf("w9")
            },
        )
        .await;
        assert_refused(&res, "notes", "Notes must be at most 5000 characters");

        let portal = MultipartForm::new()
            .add_text("companyKey", key.clone())
            .add_text("documentType", "w9")
            .add_text("notes", long.clone())
            .add_part(
                "file",
                Part::bytes(fixtures::pdf())
                    .file_name("w9.pdf")
                    .mime_type("application/pdf"),
            );
        let res = server
            .post("/api/vendor-upload-document")
            .multipart(portal)
            .await;
        assert_refused(&res, "notes", "Notes must be at most 5000 characters");

        assert!(stored_files(&ctx, &ann).await.is_empty());
        assert!(get(&server, &ann, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());

        // 5000 is fine.
        let res = upload(
            &server,
            &ann,
            &key,
            &UploadSpec {
                notes: Some(&"n".repeat(5000)),
                ..UploadSpec::pdf("w9")
            },
        )
        .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
    })
    .await;
}

#[tokio::test]
async fn the_blog_editor_refuses_an_overlong_slug_and_preview() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let (name, value) = bearer(&ops.token);
        let res = server
            .post("/api/admin/blog-posts")
            .add_header(name.clone(), value.clone())
            .json(&json!({"title": "Renewals", "content": "Text.", "slug": "s".repeat(201)}))
            .await;
        assert_refused(&res, "slug", "The slug must be at most 200 characters");
        assert_eq!(blog_posts::Entity::find().count(&ctx.db).await.unwrap(), 0);

        let res = server
            .post("/api/admin/blog-posts/preview")
            .add_header(name, value)
            .json(&json!({"content": "c".repeat(200_001)}))
            .await;
        assert_refused(
            &res,
            "content",
            "The content must be at most 200,000 characters",
        );
    })
    .await;
}

#[tokio::test]
async fn the_vendor_form_and_the_csv_import_refuse_each_overlong_field_and_create_nothing() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Dee Vo", None).await;
        let (name, value) = bearer(&ann.token);
        let fields = [
            (
                "name",
                "Name",
                200,
                "Vendor name must be at most 200 characters",
            ),
            ("phone", "Phone", 50, "Must be at most 50 characters"),
            ("address", "Address", 300, "Must be at most 300 characters"),
            ("city", "City", 100, "Must be at most 100 characters"),
            ("state", "State", 100, "Must be at most 100 characters"),
            ("zipCode", "Zip Code", 20, "Must be at most 20 characters"),
            ("notes", "Notes", 5000, "Must be at most 5000 characters"),
        ];
        let mut csv =
            String::from("Name,Email,Service Type,Phone,Address,City,State,Zip Code,Notes\n");
        for (i, (field, _, max, message)) in fields.iter().enumerate() {
            let mut body = json!({"name": "Long Co", "email": "long@example.com",
                "serviceType": "plumbing"});
            body[field] = json!("x".repeat(max + 1));
            let res = server
                .post("/api/vendors")
                .add_header(name.clone(), value.clone())
                .json(&body)
                .await;
            assert_refused(&res, field, message);

            let mut cells = vec![
                format!("Row {i}"),
                format!("row{i}@example.com"),
                "plumbing".to_string(),
            ];
            cells.extend(std::iter::repeat_n(String::new(), 6));
            cells[if *field == "name" { 0 } else { i + 2 }] = "x".repeat(max + 1);
            csv.push_str(&cells.join(","));
            csv.push('\n');
        }
        let preview = server
            .post("/api/vendors/import")
            .add_header(name.clone(), value.clone())
            .json(&json!({"csv": csv, "commit": true}))
            .await;
        assert_eq!(preview.status_code(), 200, "{}", preview.text());
        let body: Value = preview.json();
        assert_eq!(body["created"], 0, "{body}");
        // The import names the field in each message, as the form's label does beside it.
        for (row, (_, column, _, message)) in body["rows"].as_array().unwrap().iter().zip(&fields) {
            assert_eq!(row["status"], "error", "{column}: {row}");
            let worded = message.replacen(
                "Must",
                &format!("{} must", column.replace("Zip Code", "Zip code")),
                1,
            );
            assert_eq!(row["errors"][0], worded, "{column}: {row}");
        }
        assert!(get(&server, &ann, "/api/vendors")
            .await
            .json::<Vec<Value>>()
            .is_empty());
        let _ = ctx;
    })
    .await;
}
