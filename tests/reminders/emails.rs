//! The reminder emails as their readers see them, as insta snapshots (see
//! `tests/requests/emails.rs`): the client's "expiring" notice and the vendor's renewal request.

use vendorwatch::models::{
    compliance::{CoiType, DocumentType},
    sweep,
};

use super::support::{day, stub_messages, Scene};
use crate::support::email_parts;

const FILTERS: [(&str, &str); 4] = [
    (r"[a-z_]+-[0-9a-f]{32}\.pdf", "[file name]"),
    (r"[a-z\-]+-[0-9a-f]{32}@example\.com", "[address]"),
    (r"/vendors/[A-Za-z0-9]{8}", "/vendors/[key]"),
    (r"[A-Z][a-z]{2} \d{1,2}, \d{4}", "[date]"),
];

#[tokio::test]
async fn the_expiring_notice_and_the_renewal_request() {
    let scene = Scene::new("Harbor Office Co").await;
    let ctx = scene.ctx();
    scene
        .document(DocumentType::Coi, Some(CoiType::WorkersComp), Some(7))
        .await;
    sweep::run(ctx, day(0)).await.unwrap();
    let messages = stub_messages(ctx);
    let to = |address: &str| {
        let found: Vec<&String> = messages
            .iter()
            .filter(|m| m.contains(&format!("To: {address}")))
            .collect();
        assert_eq!(found.len(), 1, "one message to {address}: {messages:#?}");
        email_parts(found[0])
    };
    let mut filters = FILTERS.to_vec();
    filters.push((scene.vendor.key.as_str(), "[key]"));
    insta::with_settings!({filters => filters}, {
        insta::assert_snapshot!("to_the_client", to(&scene.owner));
        insta::assert_snapshot!("to_the_vendor", to(&scene.vendor_email));
    });
}

#[tokio::test]
async fn the_notice_and_the_renewal_request_listing_several_documents() {
    let scene = Scene::new("Harbor Office Co").await;
    let ctx = scene.ctx();
    scene
        .document(DocumentType::Coi, Some(CoiType::WorkersComp), Some(7))
        .await;
    scene.document(DocumentType::W9, None, Some(0)).await;
    sweep::run(ctx, day(0)).await.unwrap();
    let messages = stub_messages(ctx);
    let to = |address: &str| {
        let found: Vec<&String> = messages
            .iter()
            .filter(|m| m.contains(&format!("To: {address}")))
            .collect();
        assert_eq!(found.len(), 1, "one message to {address}: {messages:#?}");
        email_parts(found[0])
    };
    let mut filters = FILTERS.to_vec();
    filters.push((scene.vendor.key.as_str(), "[key]"));
    filters.push((r"w9-[0-9a-f]{32}\.pdf", "[file name]"));
    insta::with_settings!({filters => filters}, {
        insta::assert_snapshot!("several_to_the_client", to(&scene.owner));
        insta::assert_snapshot!("several_to_the_vendor", to(&scene.vendor_email));
    });
}
