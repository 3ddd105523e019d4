//! The hourly sweep sends each organization's reminders in its own morning (8:00 in its time
//! zone) for its own day, records its expiries then, and never sweeps its next day early
//! (docs/product.md, "Time zones"). The weekly summary goes on the organization's Monday
//! morning. The instants are fixed, in 2027 (after every reminder date the upload makes).

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use loco_rs::{app::AppContext, boot::StartMode, task::Task};
use vendorwatch::{
    infra::clock::Clock,
    models::{
        compliance::{CoiType, DocumentType},
        documents::{self, DocumentInfo, DocumentSource, StoredFile, UploadContext},
        organizations, sweep, users,
    },
    tasks::{reminders_sweep::RemindersSweep, weekly_summary::WeeklySummary},
};

use super::support::{address, expired_entries, stub_messages, vendor, Client};
use crate::support::{boot_with, task_vars};

fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
}

fn date(y: i32, mo: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, mo, d).unwrap()
}

/// An organization in `zone` whose vendor has a COI expiring on `expires`, with a reminder on
/// the day only.
async fn client_in(ctx: &AppContext, zone: &str, expires: NaiveDate) -> (Client, String) {
    let owner = address("owner", "example.com");
    let (_, org) = users::Model::register(
        &ctx.db,
        &users::RegisterParams {
            name: format!("{zone} Owner"),
            email: owner.clone(),
            password: "secret-pass".into(),
            company: Some(format!("{zone} Co")),
            time_zone: Some(zone.into()),
        },
    )
    .await
    .unwrap();
    assert_eq!(org.time_zone, zone);
    let client = Client { org };
    let pipes = vendor(ctx, &client, "Pipe Works", &address("pipes", "example.com")).await;
    let upload = UploadContext {
        org: &client.org,
        documents_per_vendor: None,
        reminder_offsets: &[0],
        source: DocumentSource::User,
        actor: &vendorwatch::models::activities::Actor::system(),
    };
    let info = DocumentInfo {
        document_type: DocumentType::Coi,
        coi_type: Some(CoiType::GeneralLiability),
        expiration_date: Some(expires),
        notes: None,
    };
    let file = StoredFile {
        file_name: "coi.pdf".into(),
        storage_key: format!("test/{}", uuid::Uuid::new_v4()),
        content_type: "application/pdf".into(),
        size: 100,
    };
    documents::Model::create(&ctx.db, &upload, &pipes, &info, &file)
        .await
        .unwrap();
    (client, owner)
}

/// How many of the stub mailer's messages went to `to`.
fn sent_to(ctx: &AppContext, to: &str) -> usize {
    stub_messages(ctx)
        .iter()
        .filter(|m| m.contains(&format!("To: {to}")))
        .count()
}

#[tokio::test]
async fn each_organization_is_swept_in_its_own_morning_for_its_own_day() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let day = date(2027, 4, 1);
    let (la, la_owner) = client_in(ctx, "America/Los_Angeles", day).await;
    let (utc, utc_owner) = client_in(ctx, "UTC", day).await;
    let (akl, akl_owner) = client_in(ctx, "Pacific/Auckland", day).await;
    let sent = |who: &str| sent_to(ctx, who);

    // 18:00 UTC on March 31 is 07:00 on April 1 in Auckland (NZDT): its morning has not come.
    sweep::run_due(ctx, at(2027, 3, 31, 18, 0)).await.unwrap();
    assert_eq!(stub_messages(ctx).len(), 0, "nobody's April 1 morning yet");
    // 19:00 UTC is Auckland's 08:00: its April 1 reminder goes, and its expiry is recorded.
    sweep::run_due(ctx, at(2027, 3, 31, 19, 0)).await.unwrap();
    assert_eq!(sent(&akl_owner), 1, "Auckland's day rolls first");
    assert_eq!(expired_entries(ctx, akl.org.id).await.len(), 1);
    assert_eq!((sent(&utc_owner), sent(&la_owner)), (0, 0));
    assert!(expired_entries(ctx, utc.org.id).await.is_empty());

    // 08:00 UTC on April 1 is 01:00 in Los Angeles (PDT): UTC's morning, not Los Angeles'.
    let reports = sweep::run_due(ctx, at(2027, 4, 1, 8, 0)).await.unwrap();
    assert!(
        reports.iter().all(|(d, _)| *d <= day),
        "no organization's April 2 is swept early: {reports:?}"
    );
    assert_eq!(sent(&utc_owner), 1);
    assert_eq!(sent(&la_owner), 0, "01:00 in Los Angeles: not sent");
    assert!(expired_entries(ctx, la.org.id).await.is_empty());
    sweep::run_due(ctx, at(2027, 4, 1, 14, 0)).await.unwrap();
    assert_eq!(sent(&la_owner), 0, "07:00 in Los Angeles: not yet");

    // 15:00 UTC is 08:00 in Los Angeles: its reminder goes, its expiry is recorded.
    sweep::run_due(ctx, at(2027, 4, 1, 15, 0)).await.unwrap();
    assert_eq!(sent(&la_owner), 1, "Los Angeles' morning");
    assert_eq!(expired_entries(ctx, la.org.id).await.len(), 1);

    // Every later hourly run sends nothing twice.
    let total = stub_messages(ctx).len();
    for hour in [16, 23] {
        sweep::run_due(ctx, at(2027, 4, 1, hour, 0)).await.unwrap();
    }
    assert_eq!(stub_messages(ctx).len(), total);
    assert_eq!(
        (sent(&akl_owner), sent(&utc_owner), sent(&la_owner)),
        (1, 1, 1)
    );
}

#[tokio::test]
async fn the_scheduled_task_reads_the_clock_and_an_operators_date_sweeps_everyone() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let day = date(2027, 4, 1);
    let (_, la_owner) = client_in(ctx, "America/Los_Angeles", day).await;
    let (_, utc_owner) = client_in(ctx, "UTC", day).await;

    ctx.shared_store.insert(Clock::fixed(at(2027, 4, 1, 8, 0)));
    RemindersSweep.run(ctx, &task_vars(&[])).await.unwrap();
    assert_eq!((sent_to(ctx, &utc_owner), sent_to(ctx, &la_owner)), (1, 0));

    // An operator's `date:` is that day in every organization, whatever the clock.
    RemindersSweep
        .run(ctx, &task_vars(&[("date", "2027-04-01")]))
        .await
        .unwrap();
    assert_eq!((sent_to(ctx, &utc_owner), sent_to(ctx, &la_owner)), (1, 1));
}

#[tokio::test]
async fn the_weekly_summary_goes_on_the_organizations_monday_morning() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let ctx = &boot.app_context;
    let (la, la_owner) = client_in(ctx, "America/Los_Angeles", date(2027, 4, 7)).await;
    sea_orm::IntoActiveModel::into_active_model(la.org.clone())
        .set_plan(&ctx.db, organizations::Plan::Professional)
        .await
        .unwrap();
    let summaries = || {
        stub_messages(ctx)
            .iter()
            .filter(|m| m.contains(&format!("To: {la_owner}")))
            .filter(|m| m.contains("ompliance summary"))
            .count()
    };

    // Monday April 5, 2027: 08:00 UTC is 01:00 in Los Angeles, 14:00 UTC is 07:00.
    for hour in [8, 14] {
        ctx.shared_store
            .insert(Clock::fixed(at(2027, 4, 5, hour, 0)));
        WeeklySummary.run(ctx, &task_vars(&[])).await.unwrap();
    }
    assert_eq!(summaries(), 0, "not before 8:00 in Los Angeles");
    // 15:00 UTC is 08:00 PDT: sent once, however often the hourly task runs that Monday.
    for hour in [15, 16, 23] {
        ctx.shared_store
            .insert(Clock::fixed(at(2027, 4, 5, hour, 0)));
        WeeklySummary.run(ctx, &task_vars(&[])).await.unwrap();
    }
    assert_eq!(summaries(), 1, "its Monday morning");
    // Sunday 23:00 in Los Angeles is already Monday 06:00 UTC: nothing then.
    ctx.shared_store.insert(Clock::fixed(at(2027, 4, 12, 6, 0)));
    WeeklySummary.run(ctx, &task_vars(&[])).await.unwrap();
    assert_eq!(summaries(), 1);
}
