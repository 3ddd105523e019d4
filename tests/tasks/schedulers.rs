//! Two schedulers started by mistake do no harm: every scheduled task run twice at once does
//! its work once (the reminder sweep and the content schedule have their own tests of this).

use loco_rs::{boot::run_task, task};
use sea_orm::{ActiveModelTrait, ActiveValue, EntityTrait, PaginatorTrait};

use crate::support::{
    create_vendor, in_days, make_professional, register, upload, with_app, UploadSpec,
};
use vendorwatch::{
    app::App,
    mailers::{Content, Headers},
    models::{_entities::report_snapshots, outgoing_emails},
};

async fn twice_at_once(ctx: &loco_rs::app::AppContext, name: &str) {
    let name = name.to_string();
    let vars = task::Vars::from_cli_args(vec![]);
    let (a, b) = tokio::join!(
        run_task::<App>(ctx, Some(&name), &vars),
        run_task::<App>(ctx, Some(&name), &vars)
    );
    a.unwrap();
    b.unwrap();
}

#[tokio::test]
async fn the_daily_and_weekly_tasks_run_twice_at_once_do_their_work_once() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Twice", Some("Twice Co")).await;
        let bob = register(&server, "Bob Twice", Some("Other Co")).await;
        make_professional(&ctx, &ann).await;
        let vendor = create_vendor(&server, &ann, "Due Soon").await;
        let mut spec = UploadSpec::pdf("w9");
        spec.expiration_date = Some(in_days(3));
        let res = upload(&server, &ann, vendor["id"].as_str().unwrap(), &spec).await;
        assert_eq!(res.status_code(), 201);
        let _ = bob;

        // One compliance snapshot per organization for the day.
        twice_at_once(&ctx, "report_snapshots").await;
        twice_at_once(&ctx, "report_snapshots").await;
        let snapshots = report_snapshots::Entity::find()
            .count(&ctx.db)
            .await
            .unwrap();
        assert_eq!(snapshots, 2, "one row for each of the two organizations");

        // One weekly summary to the one Professional user, on its Monday morning (UTC's).
        let today = chrono::Utc::now().date_naive();
        let monday = vendorwatch::workers::weekly_summary::week_start(today) + chrono::Days::new(7);
        ctx.shared_store
            .insert(vendorwatch::infra::clock::Clock::fixed(
                monday.and_hms_opt(9, 0, 0).unwrap().and_utc(),
            ));
        twice_at_once(&ctx, "weekly_summary").await;
        let messages = ctx.mailer.as_ref().unwrap().deliveries().messages;
        assert_eq!(messages.len(), 1, "{messages:#?}");

        // An email whose job was lost, kept 11 minutes ago: sent once by two runs at once.
        let lost = outgoing_emails::keep(
            &ctx.db,
            "<lost-twice@vendorwatch.app>",
            "lost@example.com",
            &Content {
                subject: "Lost twice".into(),
                text: "text".into(),
                html: "<p>text</p>".into(),
            },
            &Headers::default(),
        )
        .await
        .unwrap();
        outgoing_emails::ActiveModel {
            id: ActiveValue::Unchanged(lost),
            created_at: ActiveValue::Set(
                chrono::Utc::now().fixed_offset() - chrono::Duration::minutes(11),
            ),
            ..Default::default()
        }
        .update(&ctx.db)
        .await
        .unwrap();
        twice_at_once(&ctx, "outgoing_emails").await;
        let messages = ctx.mailer.as_ref().unwrap().deliveries().messages;
        assert_eq!(messages.len(), 2, "{messages:#?}");
        assert_eq!(
            messages
                .iter()
                .filter(|m| m.contains("<lost-twice@vendorwatch.app>"))
                .count(),
            1
        );

        // Orphan files: both runs finish; nothing of a document is touched.
        twice_at_once(&ctx, "storage_orphans").await;
        twice_at_once(&ctx, "keyword_ingests").await;
        let files = crate::support::stored_files(&ctx, &ann).await;
        assert_eq!(files.len(), 1, "the upload's file is kept: {files:?}");
    })
    .await;
}
