//! The emails as their readers see them, as insta snapshots: the subject, the text part and
//! the HTML part of each message the request flows send, taken from the stub mailer and
//! parsed back from MIME, with what differs between runs (addresses, keys, tokens, dates)
//! replaced by placeholders.

use axum_test::multipart::{MultipartForm, Part};
use loco_rs::app::AppContext;

use crate::support::{create_vendor, email_parts, in_days, register, with_app};

/// The one message the stub mailer holds, as its reader sees it.
fn only_message(ctx: &AppContext) -> String {
    let deliveries = ctx.mailer.as_ref().unwrap().deliveries();
    assert_eq!(deliveries.count, 1, "{:#?}", deliveries.messages);
    email_parts(&deliveries.messages[0])
}

/// Placeholders for what changes between runs.
const FILTERS: [(&str, &str); 4] = [
    (r"[a-z\-]+-[0-9a-f]{32}@example\.com", "[address]"),
    (r"token=[A-Za-z0-9_\-]+", "token=[token]"),
    (r"/vendors/[A-Za-z0-9]{8}", "/vendors/[key]"),
    (r"[A-Z][a-z]{2} \d{1,2}, \d{4}", "[date]"),
];

#[tokio::test]
async fn the_password_reset_email() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Ida Qu", Some("Qu Supplies")).await;
        let res = server
            .post("/api/auth/forgot")
            .json(&serde_json::json!({"email": account.email}))
            .await;
        assert_eq!(res.status_code(), 200);
        insta::with_settings!({filters => FILTERS.to_vec()}, {
            insta::assert_snapshot!(only_message(&ctx));
        });
    })
    .await;
}

#[tokio::test]
async fn the_email_telling_the_client_a_vendor_sent_a_document() {
    with_app(|server, ctx| async move {
        let account = register(&server, "Ann Lee", Some("Lee Property Co")).await;
        let vendor = create_vendor(&server, &account, "Bright <Plumbing> & Sons").await;
        let form = MultipartForm::new()
            .add_text("companyKey", vendor["id"].as_str().unwrap())
            .add_text("documentType", "coi")
            .add_text("coiType", "general_liability")
            .add_text("expirationDate", in_days(200))
            .add_part(
                "file",
                Part::bytes(crate::fixtures::pdf())
                    .file_name("liability-2027.pdf")
                    .mime_type("application/pdf"),
            );
        let res = server
            .post("/api/vendor-upload-document")
            .multipart(form)
            .await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        insta::with_settings!({filters => FILTERS.to_vec()}, {
            insta::assert_snapshot!(only_message(&ctx));
        });
    })
    .await;
}
