//! The signed view link (issue 29, item 4): the document viewer loads a PDF straight from it so
//! that the browser's PDF viewer shows the file's name, not a `blob:` id.

use serde_json::Value;
use vendorwatch::models::documents;

use crate::{
    fixtures,
    support::{
        assert_envelope, create_vendor, get, org_of, other_org, register, upload, with_app,
        UploadSpec,
    },
};

#[tokio::test]
async fn a_view_link_ends_with_the_file_name_and_works_without_a_token() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let vendor = create_vendor(&server, &ann, "Link Co").await;
        let mut spec = UploadSpec::pdf("coi");
        spec.file_name = "Zoë COI 2026.pdf";
        spec.coi_type = Some("general_liability");
        spec.expiration_date = Some(crate::support::in_days(90));
        let doc: Value = upload(&server, &ann, vendor["id"].as_str().unwrap(), &spec)
            .await
            .json();
        let doc_id = doc["id"].as_str().unwrap();

        let res = get(&server, &ann, &format!("/api/documents/{doc_id}/view-link")).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        let link: Value = res.json();
        let url = link["url"].as_str().unwrap();
        assert!(
            url.starts_with(&format!("/api/documents/{doc_id}/file/")),
            "{url}"
        );
        assert!(url.ends_with("/Zo%C3%AB%20COI%202026.pdf"), "{url}");
        let expires =
            chrono::DateTime::parse_from_rfc3339(link["expiresAt"].as_str().unwrap()).unwrap();
        let minutes = (expires.to_utc() - chrono::Utc::now()).num_minutes();
        assert!((9..=10).contains(&minutes), "{minutes}");

        // No Authorization header: the link is the permission.
        let res = server.get(url).await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(res.as_bytes().to_vec(), fixtures::pdf());
        assert_eq!(res.header("content-type"), "application/pdf");
        assert_eq!(res.header("x-content-type-options"), "nosniff");
        let disposition = res
            .header("content-disposition")
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            disposition.starts_with("inline; filename=\"Zo_ COI 2026.pdf\""),
            "{disposition}"
        );
        // Chrome's PDF viewer does not run in a sandboxed document: the app's own policy
        // applies, as it did to the `blob:` document before.
        let policy = res
            .header("content-security-policy")
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            !policy.contains("sandbox") && policy.contains("script-src 'self'"),
            "{policy}"
        );
    })
    .await;
}

#[tokio::test]
async fn a_view_link_needs_a_session_of_the_documents_organization() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let vendor = create_vendor(&server, &ann, "Link Co").await;
        let doc: Value = upload(
            &server,
            &ann,
            vendor["id"].as_str().unwrap(),
            &UploadSpec::pdf("w9"),
        )
        .await
        .json();
        let path = format!("/api/documents/{}/view-link", doc["id"].as_str().unwrap());

        assert_envelope(&server.get(&path).await, 401, "unauthorized");
        let mallory = other_org(&server).await;
        assert_envelope(&get(&server, &mallory, &path).await, 404, "not_found");
        assert_envelope(
            &get(&server, &ann, "/api/documents/not-a-document/view-link").await,
            404,
            "not_found",
        );
    })
    .await;
}

#[tokio::test]
async fn a_forged_or_expired_view_link_is_refused() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let vendor = create_vendor(&server, &ann, "Link Co").await;
        let vendor_id = vendor["id"].as_str().unwrap();
        let mut ids = Vec::new();
        for name in ["one.pdf", "two.pdf"] {
            let spec = UploadSpec {
                file_name: name,
                ..UploadSpec::pdf("other")
            };
            let doc: Value = upload(&server, &ann, vendor_id, &spec).await.json();
            ids.push(doc["id"].as_str().unwrap().to_string());
        }
        let link: Value = get(
            &server,
            &ann,
            &format!("/api/documents/{}/view-link", ids[0]),
        )
        .await
        .json();
        let url = link["url"].as_str().unwrap().to_string();
        let parts: Vec<&str> = url.split('/').collect();
        let (expires, sig) = (parts[5], parts[6]);
        let flipped = format!(
            "{}{}",
            if sig.starts_with('0') { "1" } else { "0" },
            &sig[1..]
        );
        let later = (expires.parse::<i64>().unwrap() + 86_400).to_string();
        for forged in [
            url.replacen(sig, &flipped, 1),
            url.replacen(expires, &later, 1),
            url.replacen(&ids[0], &ids[1], 1),
            url.replacen(sig, "not-hex", 1),
        ] {
            assert_envelope(&server.get(&forged).await, 404, "not_found");
        }
        // The name at the end is for the browser only.
        assert_eq!(
            server
                .get(&url.replace("one.pdf", "renamed.pdf"))
                .await
                .status_code(),
            200
        );

        // A genuine link whose ten minutes are over.
        let org = org_of(&ctx, &ann).await;
        let doc = documents::Model::find_in_org(&ctx.db, org.id, &ids[0])
            .await
            .unwrap();
        let secret = ctx.config.get_jwt_config().unwrap().secret.clone();
        let old = doc.view_link(&secret, chrono::Utc::now() - chrono::TimeDelta::minutes(11));
        let body = assert_envelope(&server.get(&old.path).await, 410, "link_expired");
        assert!(body["message"].as_str().unwrap().contains("expired"));
    })
    .await;
}
