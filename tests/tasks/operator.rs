use loco_rs::boot::{run_task, StartMode};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

use crate::support::{boot_with, task_vars};
use vendorwatch::{
    app::App,
    models::{organizations, users},
};

async fn seed_user(ctx: &loco_rs::app::AppContext, email: &str) -> users::Model {
    let params = users::RegisterParams {
        name: "Operator Test".into(),
        email: email.into(),
        password: "secret-pass".into(),
        company: Some("Task Co".into()),
        time_zone: None,
    };
    users::Model::register(&ctx.db, &params).await.unwrap().0
}

#[tokio::test]
async fn make_admin_grants_and_revokes_the_admin_role() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let user = seed_user(ctx, "ops@example.com").await;
    assert!(!user.is_admin());

    run_task::<App>(
        ctx,
        Some(&"make_admin".to_string()),
        &task_vars(&[("email", "ops@example.com")]),
    )
    .await
    .unwrap();
    assert!(users::Model::find_by_email(&ctx.db, "ops@example.com")
        .await
        .unwrap()
        .is_admin());

    run_task::<App>(
        ctx,
        Some(&"make_admin".to_string()),
        &task_vars(&[("email", "OPS@example.com"), ("revoke", "true")]),
    )
    .await
    .unwrap();
    assert!(!users::Model::find_by_email(&ctx.db, "ops@example.com")
        .await
        .unwrap()
        .is_admin());
}

#[tokio::test]
async fn make_admin_fails_for_an_unknown_email() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let err = run_task::<App>(
        ctx,
        Some(&"make_admin".to_string()),
        &task_vars(&[("email", "ghost@example.com")]),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("no user with email"), "{err}");
}

#[tokio::test]
async fn set_plan_moves_the_users_organization_and_refuses_unknown_plans() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let user = seed_user(ctx, "owner@example.com").await;

    run_task::<App>(
        ctx,
        Some(&"set_plan".to_string()),
        &task_vars(&[("email", "owner@example.com"), ("plan", "professional")]),
    )
    .await
    .unwrap();
    let org = organizations::Model::find_by_id(&ctx.db, user.organization_id)
        .await
        .unwrap();
    assert_eq!(org.plan, "professional");
    let entries = vendorwatch::models::activities::Entity::find()
        .filter(
            vendorwatch::models::activities::activities::Column::ActivityType.eq("plan_changed"),
        )
        .count(&ctx.db)
        .await
        .unwrap();
    assert_eq!(entries, 1, "the change is in the activity log");
    let mails = ctx.mailer.as_ref().unwrap().deliveries();
    assert_eq!(mails.count, 1, "and the owner is told");
    assert!(mails.messages[0].contains("To: owner@example.com"));
    // No payment was made: the email says who moved the plan, not "thank you".
    let parts = crate::support::email_parts(&mails.messages[0]);
    assert!(parts.contains("The Vendorwatch team has moved Task Co to the Professional plan; no payment was taken."), "{parts}");
    assert!(!parts.contains("payment went through"), "{parts}");

    run_task::<App>(
        ctx,
        Some(&"set_plan".to_string()),
        &task_vars(&[("email", "owner@example.com"), ("plan", "free")]),
    )
    .await
    .unwrap();
    let mails = ctx.mailer.as_ref().unwrap().deliveries();
    assert_eq!(mails.count, 2);
    let parts = crate::support::email_parts(&mails.messages[1]);
    assert!(
        parts.contains("The Vendorwatch team has moved Task Co to the Free plan."),
        "{parts}"
    );
    assert!(!parts.contains("subscription of"), "{parts}");
    run_task::<App>(
        ctx,
        Some(&"set_plan".to_string()),
        &task_vars(&[("email", "owner@example.com"), ("plan", "professional")]),
    )
    .await
    .unwrap();

    let err = run_task::<App>(
        ctx,
        Some(&"set_plan".to_string()),
        &task_vars(&[("email", "owner@example.com"), ("plan", "platinum")]),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("unknown plan"), "{err}");
    let org = organizations::Model::find_by_id(&ctx.db, user.organization_id)
        .await
        .unwrap();
    assert_eq!(org.plan, "professional", "nothing changed");
}
