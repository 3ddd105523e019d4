//! Files people really have (issue 29): Word 97-2003 documents, phone and scanner pictures,
//! password-protected PDFs, and the signed link the viewer shows a PDF through.

use serde_json::Value;

use crate::{
    fixtures,
    support::{
        assert_envelope, create_vendor, get, register, stored_files, upload, with_app, Account,
        UploadSpec,
    },
};

async fn vendor(server: &axum_test::TestServer, account: &Account) -> String {
    create_vendor(server, account, "Files Co").await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn spec(file_name: &str, bytes: Vec<u8>) -> UploadSpec<'_> {
    UploadSpec {
        file_name,
        bytes,
        ..UploadSpec::pdf("other")
    }
}

#[tokio::test]
async fn a_word_97_document_saved_by_libreoffice_is_accepted() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        let res = upload(&server, &ann, &id, &spec("agreement.doc", fixtures::doc())).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let doc: Value = res.json();
        assert_eq!(doc["contentType"], "application/msword");
        let path = format!("/api/documents/{}/download", doc["id"].as_str().unwrap());
        assert_eq!(
            get(&server, &ann, &path).await.as_bytes().to_vec(),
            fixtures::doc()
        );
        let res = upload(&server, &ann, &id, &spec("agreement.docx", fixtures::doc())).await;
        assert_envelope(&res, 422, "file_type_mismatch");
    })
    .await;
}

#[tokio::test]
async fn phone_and_scanner_pictures_are_accepted_when_name_and_content_agree() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        for (name, bytes, content_type) in [
            ("IMG_0001.HEIC", fixtures::heic(), "image/heic"),
            ("IMG_0002.heif", fixtures::heic(), "image/heic"),
            ("scan.tif", fixtures::tiff_fax(), "image/tiff"),
            ("scan.tiff", fixtures::tiff_rotated(), "image/tiff"),
            ("photo.webp", fixtures::webp(), "image/webp"),
        ] {
            let res = upload(&server, &ann, &id, &spec(name, bytes)).await;
            assert_eq!(res.status_code(), 201, "{name}: {}", res.text());
            assert_eq!(res.json::<Value>()["contentType"], content_type, "{name}");
        }
        for (name, bytes) in [
            ("photo.jpg", fixtures::heic()),
            ("scan.webp", fixtures::tiff_fax()),
            ("photo.tiff", fixtures::webp()),
            ("scan.heic", fixtures::png()),
        ] {
            let res = upload(&server, &ann, &id, &spec(name, bytes)).await;
            assert_envelope(&res, 422, "file_type_mismatch");
        }
    })
    .await;
}

/// Uploads `bytes` as `name` and answers the new document's view and download.
async fn view_and_download(
    server: &axum_test::TestServer,
    ann: &Account,
    vendor_id: &str,
    name: &str,
    bytes: Vec<u8>,
) -> (axum_test::TestResponse, axum_test::TestResponse) {
    let doc: Value = upload(server, ann, vendor_id, &spec(name, bytes))
        .await
        .json();
    let doc_id = doc["id"].as_str().unwrap();
    let view = get(server, ann, &format!("/api/documents/{doc_id}/view")).await;
    let download = get(server, ann, &format!("/api/documents/{doc_id}/download")).await;
    (view, download)
}

fn is_red(p: image::Rgb<u8>) -> bool {
    p[0] > 200 && p[1] < 60 && p[2] < 60
}

fn is_blue(p: image::Rgb<u8>) -> bool {
    p[0] < 60 && p[1] < 60 && p[2] > 200
}

#[tokio::test]
async fn the_view_shows_heic_and_tiff_converted_and_upright_and_download_gives_the_original() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;

        let (view, download) =
            view_and_download(&server, &ann, &id, "IMG_0001.HEIC", fixtures::heic()).await;
        assert_eq!(view.status_code(), 200);
        assert_eq!(view.header("content-type"), "image/jpeg");
        assert!(view
            .header("content-security-policy")
            .to_str()
            .unwrap()
            .starts_with("sandbox"));
        let disposition = view.header("content-disposition");
        assert!(disposition
            .to_str()
            .unwrap()
            .starts_with("inline; filename=\"IMG_0001.jpg\""));
        let shown = image::load_from_memory(view.as_bytes()).unwrap().to_rgb8();
        assert_eq!(shown.dimensions(), (48, 32));
        assert!(is_red(*shown.get_pixel(4, 16)) && is_blue(*shown.get_pixel(44, 16)));
        assert_eq!(download.header("content-type"), "image/heic");
        assert_eq!(download.as_bytes().to_vec(), fixtures::heic());

        // `irot`: turned a quarter clockwise, as the phone meant it to be seen.
        let (view, _) = view_and_download(
            &server,
            &ann,
            &id,
            "IMG_0002.heic",
            fixtures::heic_rotated(),
        )
        .await;
        assert_eq!(view.header("content-type"), "image/jpeg");
        let shown = image::load_from_memory(view.as_bytes()).unwrap().to_rgb8();
        assert_eq!(shown.dimensions(), (32, 48));
        assert!(is_red(*shown.get_pixel(16, 4)) && is_blue(*shown.get_pixel(16, 44)));

        // Orientation 6: turned a quarter clockwise, as a browser turns such a JPEG.
        let (view, download) =
            view_and_download(&server, &ann, &id, "scan.tiff", fixtures::tiff_rotated()).await;
        assert_eq!(view.header("content-type"), "image/png");
        let shown = image::load_from_memory(view.as_bytes()).unwrap().to_rgb8();
        assert_eq!(shown.dimensions(), (32, 48));
        assert!(is_red(*shown.get_pixel(16, 4)) && is_blue(*shown.get_pixel(16, 44)));
        assert_eq!(download.as_bytes().to_vec(), fixtures::tiff_rotated());

        let (view, _) =
            view_and_download(&server, &ann, &id, "fax.tif", fixtures::tiff_fax()).await;
        assert_eq!(view.header("content-type"), "image/png");
        let shown = image::load_from_memory(view.as_bytes()).unwrap();
        assert_eq!((shown.width(), shown.height()), (200, 100));

        // A TIFF header over bytes no decoder reads: offered as the original, to download.
        let mut broken = b"II*\x00\x08\x00\x00\x00".to_vec();
        broken.extend_from_slice(&[0xFF; 64]);
        let (view, _) = view_and_download(&server, &ann, &id, "broken.tif", broken.clone()).await;
        assert_eq!(view.status_code(), 200);
        assert_eq!(view.header("content-type"), "image/tiff");
        assert!(view
            .header("content-disposition")
            .to_str()
            .unwrap()
            .starts_with("attachment"));
        assert_eq!(view.as_bytes().to_vec(), broken);

        // A browser shows WebP itself.
        let (view, _) = view_and_download(&server, &ann, &id, "photo.webp", fixtures::webp()).await;
        assert_eq!(view.header("content-type"), "image/webp");
        assert_eq!(view.as_bytes().to_vec(), fixtures::webp());
    })
    .await;
}

#[tokio::test]
async fn a_pdf_that_needs_a_password_to_open_is_refused_and_says_so() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = vendor(&server, &ann).await;
        for bytes in [
            fixtures::pdf_user_password_aes256(),
            fixtures::pdf_user_password_rc4(),
        ] {
            let res = upload(&server, &ann, &id, &spec("coi.pdf", bytes)).await;
            let body = assert_envelope(&res, 422, "password_protected_pdf");
            let message = body["message"].as_str().unwrap();
            assert!(
                message.contains("password-protected") && message.contains("without a password"),
                "{message}"
            );
        }
        assert!(stored_files(&ctx, &ann).await.is_empty());
        assert!(get(&server, &ann, "/api/documents")
            .await
            .json::<Vec<Value>>()
            .is_empty());

        // Only an owner password (printing and changes restricted): it opens for anyone.
        for bytes in [fixtures::pdf_owner_password_only(), fixtures::real_pdf()] {
            let res = upload(&server, &ann, &id, &spec("coi.pdf", bytes)).await;
            assert_eq!(res.status_code(), 201, "{}", res.text());
        }
    })
    .await;
}
