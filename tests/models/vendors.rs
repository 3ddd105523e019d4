//! Vendors: creation within the plan's limit, company keys, the form's rules, and the list.

use loco_rs::{app::AppContext, boot::StartMode};
use sea_orm::{EntityTrait, PaginatorTrait};
use vendorwatch::models::{
    _entities::activities,
    compliance::{CompanyKey, Status},
    search::Page,
    users::{self, RegisterParams},
    vendors::{self, PlanLimit, VendorFields, VendorParams, VendorQuery},
};

use crate::support::boot_with;

async fn organization(ctx: &AppContext, email: &str) -> i64 {
    let params = RegisterParams {
        name: "Model Test".into(),
        email: email.into(),
        password: "secret-pass".into(),
        company: Some("Model Co".into()),
        time_zone: None,
    };
    users::Model::register(&ctx.db, &params).await.unwrap().1.id
}

fn form(name: &str) -> VendorFields {
    VendorFields {
        name: name.into(),
        email: format!("{}@vendor.test", name.to_lowercase().replace(' ', ".")),
        service_type: "plumbing".into(),
        ..Default::default()
    }
}

fn limit(vendors: u64) -> PlanLimit {
    PlanLimit {
        vendors,
        message: format!("Free accounts are limited to {vendors} vendors maximum."),
    }
}

#[tokio::test]
async fn a_vendor_gets_a_generated_key_and_an_activity_entry() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let org = organization(ctx, "keys@model.test").await;
    let valid = form("Pipe Works").validate().unwrap();
    let vendor = vendors::Model::create(
        &ctx.db,
        org,
        &limit(5),
        &valid,
        &vendorwatch::models::activities::Actor::system(),
    )
    .await
    .unwrap();
    assert_eq!(vendor.key.len(), 8);
    assert!(vendor.key.chars().all(|c| c.is_ascii_alphanumeric()));
    assert_eq!(vendor.email, "pipe.works@vendor.test");
    assert_eq!(activities::Entity::find().count(&ctx.db).await.unwrap(), 1);
}

#[tokio::test]
async fn the_plan_limit_refuses_one_vendor_too_many_and_adds_nothing() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let org = organization(ctx, "limit@model.test").await;
    for name in ["Alpha Co", "Beta Co"] {
        let valid = form(name).validate().unwrap();
        vendors::Model::create(
            &ctx.db,
            org,
            &limit(2),
            &valid,
            &vendorwatch::models::activities::Actor::system(),
        )
        .await
        .unwrap();
    }
    let valid = form("Gamma Co").validate().unwrap();
    let err = vendors::Model::create(
        &ctx.db,
        org,
        &limit(2),
        &valid,
        &vendorwatch::models::activities::Actor::system(),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string().contains("402") || format!("{err:?}").contains("plan_limit"),
        "{err:?}"
    );
    assert_eq!(vendors::Model::count_in_org(&ctx.db, org).await.unwrap(), 2);
    assert_eq!(activities::Entity::find().count(&ctx.db).await.unwrap(), 2);
}

#[tokio::test]
async fn a_given_company_key_taken_in_any_organization_is_a_conflict() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let first = organization(ctx, "first@model.test").await;
    let second = organization(ctx, "second@model.test").await;
    let with_key = |name: &str| VendorParams {
        name: name.into(),
        email: "a@vendor.test".into(),
        service_type: "other".into(),
        company_key: Some(" AbCd1234 ".into()),
        ..Default::default()
    };
    let valid = with_key("First Co").validate().unwrap();
    assert_eq!(
        valid.company_key.as_ref().map(CompanyKey::as_str),
        Some("AbCd1234")
    );
    vendors::Model::create(
        &ctx.db,
        first,
        &limit(5),
        &valid,
        &vendorwatch::models::activities::Actor::system(),
    )
    .await
    .unwrap();
    let valid = with_key("Second Co").validate().unwrap();
    let err = vendors::Model::create(
        &ctx.db,
        second,
        &limit(5),
        &valid,
        &vendorwatch::models::activities::Actor::system(),
    )
    .await
    .unwrap_err();
    assert!(format!("{err:?}").contains("company_key_taken"), "{err:?}");
    assert_eq!(
        vendors::Model::count_in_org(&ctx.db, second).await.unwrap(),
        0
    );
}

#[test]
fn the_form_names_every_invalid_field() {
    let invalid = VendorParams {
        name: "   ".into(),
        email: "not-an-email".into(),
        service_type: "astronaut".into(),
        company_key: Some("short".into()),
        required_documents: Some(vec!["w9".into(), "passport".into()]),
        zip_code: Some("1".repeat(21)),
        ..Default::default()
    }
    .validate()
    .unwrap_err();
    let detail = format!("{invalid:?}");
    for field in [
        "name",
        "email",
        "serviceType",
        "companyKey",
        "requiredDocuments",
        "zipCode",
    ] {
        assert!(detail.contains(field), "{field} missing from {detail}");
    }
}

#[tokio::test]
async fn the_list_pages_by_name_and_counts_every_match() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let org = organization(ctx, "list@model.test").await;
    let other = organization(ctx, "other@model.test").await;
    for name in ["Delta Co", "Alpha Co", "Charlie Co", "Bravo Co"] {
        let valid = form(name).validate().unwrap();
        vendors::Model::create(
            &ctx.db,
            org,
            &limit(10),
            &valid,
            &vendorwatch::models::activities::Actor::system(),
        )
        .await
        .unwrap();
    }
    let valid = form("Aardvark Co").validate().unwrap();
    vendors::Model::create(
        &ctx.db,
        other,
        &limit(10),
        &valid,
        &vendorwatch::models::activities::Actor::system(),
    )
    .await
    .unwrap();
    let query = VendorQuery {
        status: Some(Status::Missing),
        page: Page {
            limit: Some(2),
            offset: Some(1),
        },
        ..VendorQuery::default()
    };
    let (page, total) = vendors::Model::list(&ctx.db, org, &query, chrono::Utc::now().date_naive())
        .await
        .unwrap();
    let names: Vec<&str> = page.iter().map(|s| s.vendor.name.as_str()).collect();
    assert_eq!(names, ["Bravo Co", "Charlie Co"]);
    assert_eq!(total, 4, "another organization's vendor is not counted");
    let query = VendorQuery {
        status: Some(Status::Current),
        ..VendorQuery::default()
    };
    assert_eq!(
        vendors::Model::list(&ctx.db, org, &query, chrono::Utc::now().date_naive())
            .await
            .unwrap()
            .1,
        0
    );
}
