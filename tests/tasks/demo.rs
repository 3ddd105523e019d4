//! `cargo loco db seed`: the demo organization of src/fixtures/demo.yaml.

use std::{collections::BTreeSet, path::Path};

use loco_rs::app::Hooks;
use serde_json::{json, Value};

use crate::support::{get, with_app, Account};
use sea_orm::{EntityTrait, PaginatorTrait};
use vendorwatch::{
    app::App,
    models::{activities, demo, organizations, reminders, users},
};

async fn sign_in(server: &axum_test::TestServer) -> Account {
    let res = server
        .post("/api/auth/login")
        .json(&json!({"email": "demo@vendorwatch.example", "password": "demo-password"}))
        .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    let body: Value = res.json();
    Account {
        token: body["token"].as_str().unwrap().to_string(),
        user: body["user"].clone(),
        email: "demo@vendorwatch.example".into(),
    }
}

#[tokio::test]
async fn the_seed_loads_a_professional_demo_with_documents_in_every_status() {
    with_app(|server, ctx| async move {
        App::seed(&ctx, Path::new("src/fixtures")).await.unwrap();

        let dana = sign_in(&server).await;
        let user = users::Model::find_by_email(&ctx.db, &dana.email)
            .await
            .unwrap();
        let org = user.organization(&ctx.db).await.unwrap();
        assert_eq!(org.name, "Harbor Point Property Management");
        assert_eq!(org.plan(), organizations::Plan::Professional);
        assert_eq!(org.time_zone, "America/Los_Angeles");

        let vendors: Vec<Value> = get(&server, &dana, "/api/vendors").await.json();
        assert_eq!(vendors.len(), 12);
        let statuses: BTreeSet<&str> = vendors
            .iter()
            .filter_map(|v| v["documentStatus"].as_str())
            .collect();
        assert!(
            statuses.len() >= 3,
            "vendors in several standings: {statuses:?}"
        );

        let stats: Value = get(&server, &dana, "/api/dashboard/stats").await.json();
        for status in ["current", "expiringSoon", "expired", "missing"] {
            assert!(
                stats["documentsByStatus"][status].as_u64().unwrap() > 0,
                "no {status} document: {}",
                stats["documentsByStatus"]
            );
        }
        assert!(reminders::Entity::find().count(&ctx.db).await.unwrap() > 0);
        assert!(activities::Entity::find().count(&ctx.db).await.unwrap() >= 12);

        // A document's file is a real PDF that the download serves.
        let docs: Vec<Value> = get(&server, &dana, "/api/documents").await.json();
        assert_eq!(docs.len(), 39, "every document of the fixture");
        let id = docs[0]["id"].as_str().unwrap();
        let file = get(&server, &dana, &format!("/api/documents/{id}/download")).await;
        assert_eq!(file.status_code(), 200);
        assert!(file.as_bytes().starts_with(b"%PDF-1.4"));
    })
    .await;
}

#[tokio::test]
async fn seeding_again_changes_nothing() {
    with_app(|_server, ctx| async move {
        let base = Path::new("src/fixtures");
        assert!(matches!(
            demo::seed(&ctx, base).await.unwrap(),
            demo::Seeded::Loaded { vendors: 12, .. }
        ));
        let activity = activities::Entity::find().count(&ctx.db).await.unwrap();
        assert_eq!(
            demo::seed(&ctx, base).await.unwrap(),
            demo::Seeded::AlreadyThere
        );
        assert_eq!(
            activities::Entity::find().count(&ctx.db).await.unwrap(),
            activity
        );
        assert_eq!(
            organizations::Entity::find().count(&ctx.db).await.unwrap(),
            1
        );
    })
    .await;
}

#[test]
fn the_demo_pdf_has_an_exact_cross_reference_table() {
    let pdf = demo::demo_pdf("General Liability - Acme (demo)");
    let text = String::from_utf8(pdf).unwrap();
    let xref: usize = text
        .rsplit("startxref\n")
        .next()
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(text[xref..].starts_with("xref\n"));
    for (n, line) in text[xref..].lines().skip(3).take(5).enumerate() {
        let offset: usize = line[..10].parse().unwrap();
        assert!(
            text[offset..].starts_with(&format!("{} 0 obj", n + 1)),
            "object {}",
            n + 1
        );
    }
}
