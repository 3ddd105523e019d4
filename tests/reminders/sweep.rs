//! The sweep's date logic and its database rules, with workers in the foreground and the stub
//! mailer (config/test.yaml): what is due when, what is recorded once, what a stale or lost
//! claim does.

use loco_rs::{app::AppContext, boot::StartMode};
use sea_orm::{ActiveValue, ColumnTrait, EntityTrait, QueryFilter, QuerySelect};
use vendorwatch::models::{
    _entities::{activities, pending_expiries, reminder_claims},
    activities::ActivityType,
    compliance::{self, CoiType, DocumentType},
    documents::{self, DocumentInfo},
    reminders, sweep, vendors,
};

use super::support::{
    address, all_claims, all_reminders, claim_of, client, day, deliveries, document,
    expired_entries, pending_expiry, reload, reminders_of, stub_messages, vendor, Scene, OFFSETS,
};
use crate::support::boot_with;

/// How many of the stub mailer's messages went to `to`.
fn messages_to(ctx: &AppContext, to: &str) -> usize {
    stub_messages(ctx)
        .iter()
        .filter(|m| m.contains(&format!("To: {to}")))
        .count()
}

#[tokio::test]
async fn a_reminder_is_due_on_its_date_and_not_the_day_before() {
    let scene = Scene::new("Due Date Co").await;
    let ctx = scene.ctx();
    let coi = scene
        .document(DocumentType::Coi, Some(CoiType::GeneralLiability), Some(40))
        .await;
    let dates: Vec<_> = reminders_of(ctx, &coi)
        .await
        .iter()
        .map(|r| r.reminder_date)
        .collect();
    assert_eq!(
        dates,
        vec![day(10), day(33), day(40)],
        "30 and 7 days before, and on the day"
    );

    let report = sweep::run(ctx, day(9)).await.unwrap();
    assert_eq!(report.reminders_claimed, 0, "the day before: nothing due");
    assert!(stub_messages(ctx).is_empty());
    assert!(reminders_of(ctx, &coi)
        .await
        .iter()
        .all(|r| r.sent_at.is_none()));
    assert!(all_claims(ctx).await.is_empty(), "nothing claimed");

    let report = sweep::run(ctx, day(10)).await.unwrap();
    assert_eq!(report.reminders_claimed, 1, "on its date it is due");
    let after = reminders_of(ctx, &coi).await;
    assert!(after[0].sent_at.is_some(), "sent");
    assert!(
        claim_of(ctx, after[0].id).await.is_none(),
        "a sent reminder keeps no claim"
    );
    assert!(
        after[1].sent_at.is_none() && after[2].sent_at.is_none(),
        "later ones wait"
    );
    assert_eq!(
        messages_to(ctx, &scene.owner),
        1,
        "the organization's user is told"
    );
    assert_eq!(
        messages_to(ctx, &scene.vendor_email),
        1,
        "the vendor is asked to renew"
    );
    assert_eq!(stub_messages(ctx).len(), 2);
}

#[tokio::test]
async fn a_late_sweep_sends_the_latest_reminder_that_came_due_since_and_a_rerun_sends_nothing() {
    let scene = Scene::new("Catch Up Co").await;
    let ctx = scene.ctx();
    let agreement = scene
        .document(DocumentType::VendorAgreement, None, Some(40))
        .await;

    let report = sweep::run(ctx, day(35)).await.unwrap();
    assert_eq!(
        report.reminders_claimed, 2,
        "30 and 7 days before both came due"
    );
    let left: Vec<_> = reminders_of(ctx, &agreement)
        .await
        .iter()
        .map(|r| (r.reminder_date, r.sent_at.is_some()))
        .collect();
    assert_eq!(
        left,
        vec![(day(33), true), (day(40), false)],
        "the 7-day one is sent, the 30-day one it supersedes is dropped"
    );
    assert_eq!(
        stub_messages(ctx).len(),
        2,
        "the owner and the vendor, once"
    );

    let again = sweep::run(ctx, day(35)).await.unwrap();
    assert_eq!(again.reminders_claimed, 0, "a re-run finds nothing to send");
    assert_eq!(stub_messages(ctx).len(), 2, "and sends nothing twice");
    assert_eq!(
        deliveries(ctx).await.len(),
        2,
        "one delivery row per accepted email"
    );
}

#[tokio::test]
async fn a_document_is_recorded_expired_on_its_expiration_date_once_even_when_the_sweep_runs_twice()
{
    let scene = Scene::new("Expiry Co").await;
    let ctx = scene.ctx();
    let expiring = scene.document(DocumentType::SalesTax, None, Some(5)).await;
    let no_date = scene.document(DocumentType::W9, None, None).await;
    let replaced = scene
        .document(DocumentType::Coi, Some(CoiType::Automobile), Some(1))
        .await;
    let renewal = scene
        .document(DocumentType::Coi, Some(CoiType::Automobile), Some(365))
        .await;
    assert!(
        !reload(ctx, &replaced).await.is_current,
        "the renewal superseded it"
    );

    assert_eq!(
        sweep::run(ctx, day(4)).await.unwrap().documents_expired,
        0,
        "the day before"
    );
    assert!(
        expired_entries(ctx, scene.client.org.id).await.is_empty(),
        "an old version is not reported"
    );
    assert_eq!(pending_expiry(ctx, &expiring).await, Some(day(5)));

    assert_eq!(
        sweep::run(ctx, day(5)).await.unwrap().documents_expired,
        1,
        "on the day"
    );
    assert_eq!(
        sweep::run(ctx, day(5)).await.unwrap().documents_expired,
        0,
        "run twice"
    );
    assert_eq!(
        sweep::run(ctx, day(6)).await.unwrap().documents_expired,
        0,
        "and the day after"
    );

    let entries = expired_entries(ctx, scene.client.org.id).await;
    assert_eq!(
        entries.len(),
        1,
        "exactly one document_expired: {entries:?}"
    );
    let entry = &entries[0];
    assert_eq!(
        (entry.source.as_str(), entry.actor_pid),
        ("system", None),
        "the product itself, no person"
    );
    assert_eq!(
        entry.document_pid.as_deref(),
        Some(expiring.pid.to_string().as_str())
    );
    assert_eq!(entry.vendor_key.as_deref(), Some(scene.vendor.key.as_str()));
    assert_eq!(
        entry.description,
        format!(
            "{} \"{}\" for Pipe Works expired",
            compliance::stored_label(&expiring.document_type, expiring.coi_type.as_deref()),
            expiring.file_name
        )
    );
    assert_eq!(pending_expiry(ctx, &expiring).await, None, "recorded");
    assert_eq!(
        pending_expiry(ctx, &no_date).await,
        None,
        "no date, nothing to wait for"
    );
    assert_eq!(pending_expiry(ctx, &replaced).await, None, "superseded");
    assert_eq!(
        pending_expiry(ctx, &renewal).await,
        Some(day(365)),
        "the renewal waits for its own date"
    );
}

#[tokio::test]
async fn editing_a_document_without_a_new_date_resends_nothing_and_a_new_date_expires_again() {
    let scene = Scene::new("Edit Co").await;
    let ctx = scene.ctx();
    let doc = scene.document(DocumentType::SalesTax, None, Some(3)).await;
    let edit = |doc: documents::Model, expires_in: i64, notes: &str| {
        let info = DocumentInfo {
            document_type: DocumentType::SalesTax,
            coi_type: None,
            expiration_date: Some(day(expires_in)),
            notes: Some(notes.into()),
        };
        let vendor = scene.vendor.clone();
        async move {
            doc.update_info(
                &ctx.db,
                &vendor,
                &info,
                &OFFSETS,
                &vendorwatch::models::activities::Actor::system(),
            )
            .await
            .unwrap()
        }
    };

    sweep::run(ctx, day(0)).await.unwrap();
    let sent_today = stub_messages(ctx).len();
    assert!(sent_today > 0, "the reminders due today went out");
    let before: Vec<i64> = reminders_of(ctx, &doc).await.iter().map(|r| r.id).collect();

    let doc = edit(doc, 3, "renewal on its way").await;
    let after: Vec<i64> = reminders_of(ctx, &doc).await.iter().map(|r| r.id).collect();
    assert_eq!(after, before, "the same reminders, none made again");
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 0);
    assert_eq!(stub_messages(ctx).len(), sent_today, "nothing sent twice");

    assert_eq!(sweep::run(ctx, day(3)).await.unwrap().documents_expired, 1);
    let doc = edit(doc, 3, "still waiting").await;
    assert_eq!(
        sweep::run(ctx, day(4)).await.unwrap().documents_expired,
        0,
        "an edit does not expire it twice"
    );
    assert_eq!(expired_entries(ctx, scene.client.org.id).await.len(), 1);

    // Extended: it is current again, and its new date expires once more.
    let doc = edit(doc, 10, "extended").await;
    assert_eq!(pending_expiry(ctx, &doc).await, Some(day(10)));
    assert_eq!(sweep::run(ctx, day(9)).await.unwrap().documents_expired, 0);
    assert_eq!(sweep::run(ctx, day(10)).await.unwrap().documents_expired, 1);
    assert_eq!(expired_entries(ctx, scene.client.org.id).await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sweeps_at_once_send_each_reminder_once_and_record_each_expiry_once() {
    let (boot, db) = boot_with(StartMode::ServerOnly, |config| {
        // Small batches, so the two sweeps interleave over many claims.
        super::support::set_reminder_setting(config, "batch_size", 2.into());
    })
    .await;
    let ctx = &boot.app_context;
    let mut other = ctx.clone();
    // A second sweep process: its own connections to the same database.
    other.db = loco_rs::db::connect(&ctx.config.database).await.unwrap();
    assert_eq!(ctx.config.database.uri, db.url);

    let mut due = 0;
    for company in ["Twin A", "Twin B"] {
        let org = client(ctx, company, &[address("owner", "example.com")]).await;
        for name in ["North", "South"] {
            let v = vendor(
                ctx,
                &org,
                &format!("{company} {name}"),
                &address("vendor", "example.com"),
            )
            .await;
            for (kind, expires_in) in [
                (DocumentType::W9, 0),
                (DocumentType::SalesTax, 3),
                (DocumentType::VendorAgreement, 0),
            ] {
                document(ctx, &org, &v, kind, None, Some(expires_in)).await;
                due += 1;
            }
        }
    }

    let (a, b) = tokio::join!(sweep::run(ctx, day(0)), sweep::run(&other, day(0)));
    let (a, b) = (a.unwrap(), b.unwrap());
    // A reminder may be claimed by both: on PostgreSQL one sweep's claim statement can read it
    // unsent just before the other's worker marks it sent, and write its claim just after. Its
    // job then sends nothing (a_claim_written_just_after_its_reminder_was_sent_…).
    assert!(
        a.reminders_claimed + b.reminders_claimed >= due,
        "every due reminder claimed: {a:?} {b:?}"
    );
    assert_eq!(
        a.documents_expired + b.documents_expired,
        8,
        "the eight documents expiring today, once"
    );
    let reminders = all_reminders(ctx).await;
    let today: Vec<_> = reminders
        .iter()
        .filter(|r| r.reminder_date == day(0))
        .collect();
    assert_eq!(today.len() as u64, due);
    assert!(today.iter().all(|r| r.sent_at.is_some()), "all sent");
    assert!(all_claims(ctx).await.is_empty(), "and no claim left");
    // Each reminder listed once to the owner and once to its vendor, over as many emails as
    // the sweeps' batches made (jobs run as each batch is claimed here).
    let mut listed: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for message in stub_messages(ctx) {
        let to = message
            .lines()
            .find_map(|l| l.strip_prefix("To: "))
            .unwrap()
            .to_string();
        *listed.entry(to).or_default() +=
            super::grouped::documents_listed(&crate::support::email_parts(&message));
    }
    assert_eq!(listed.len(), 6, "two owners and four vendors: {listed:?}");
    assert_eq!(listed.values().sum::<usize>() as u64, due * 2, "{listed:?}");
    assert!(
        listed
            .iter()
            .all(|(to, n)| *n == if to.starts_with("owner") { 6 } else { 3 }),
        "each owner six, each vendor three: {listed:?}"
    );
    assert_eq!(deliveries(ctx).await.len() as u64, due * 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expiries_in_many_batches_written_at_once_are_each_recorded_once() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |config| {
        // Batches of 3 over 16 due expiries on four dates: six batches, some ending inside a
        // date, written two at a time on PostgreSQL.
        super::support::set_reminder_setting(config, "batch_size", 3.into());
    })
    .await;
    let ctx = &boot.app_context;
    let acme = client(ctx, "Batch Co", &[address("owner", "example.com")]).await;
    let mut due = std::collections::BTreeSet::new();
    let mut later = Vec::new();
    for i in 0..4 {
        let v = vendor(
            ctx,
            &acme,
            &format!("Vendor {i}"),
            &address(&format!("v{i}"), "example.com"),
        )
        .await;
        for (j, kind) in [
            DocumentType::W9,
            DocumentType::SalesTax,
            DocumentType::VendorAgreement,
            DocumentType::Other,
        ]
        .into_iter()
        .enumerate()
        {
            let expires_in = -i64::try_from((i + j) % 4).unwrap();
            let doc = document(ctx, &acme, &v, kind, None, Some(expires_in)).await;
            due.insert(doc.pid.to_string());
        }
        let coi = Some(CoiType::GeneralLiability);
        later.push(document(ctx, &acme, &v, DocumentType::Coi, coi, Some(1)).await);
    }

    let report = sweep::run(ctx, day(0)).await.unwrap();
    assert_eq!(report.documents_expired, 16);
    let recorded: Vec<String> = expired_entries(ctx, acme.org.id)
        .await
        .into_iter()
        .filter_map(|e| e.document_pid)
        .collect();
    assert_eq!(recorded.len(), 16, "one entry each, none twice");
    assert_eq!(
        recorded
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>(),
        due,
        "every due document, none later"
    );
    for doc in &later {
        assert_eq!(
            pending_expiry(ctx, doc).await,
            Some(day(1)),
            "still waiting"
        );
    }
    assert_eq!(
        pending_expiries::Entity::find()
            .all(&ctx.db)
            .await
            .unwrap()
            .len(),
        4,
        "only the later ones wait"
    );
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().documents_expired, 0);
}

#[tokio::test]
async fn a_reminder_that_keeps_failing_is_left_alone_after_the_last_attempt() {
    let scene = Scene::new("Give Up Co").await;
    let ctx = scene.ctx();
    let w9 = scene.document(DocumentType::W9, None, Some(2)).await;
    let reminder = reminders_of(ctx, &w9).await.remove(0);
    // Its tenth attempt failed and gave the claim back.
    sea_orm::ActiveModelTrait::insert(
        reminder_claims::ActiveModel {
            reminder_id: ActiveValue::Set(reminder.id),
            token: ActiveValue::Set("last".into()),
            claimed_at: ActiveValue::Set(None),
            attempts: ActiveValue::Set(10),
        },
        &ctx.db,
    )
    .await
    .unwrap();

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 0);
    assert!(stub_messages(ctx).is_empty());

    // An operator deletes the claim (docs/email.md): the next sweep tries again.
    reminder_claims::Entity::delete_by_id(reminder.id)
        .exec(&ctx.db)
        .await
        .unwrap();
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().reminders_claimed, 1);
    assert_eq!(stub_messages(ctx).len(), 2);
}

#[tokio::test]
async fn a_batch_of_more_expiries_than_one_statement_can_bind_records_each_once() {
    // One batch (the default is 5,000) of 4,200 entries: written with bound values (8 each),
    // as an earlier version did, they would be more than SQLite takes in one statement
    // (32,766). The entries are written from the rows on the server now; this holds it so.
    const EXPIRING: i64 = 4_200;
    let scene = Scene::new("Bulk Co").await;
    let ctx = scene.ctx();
    let now = chrono::Utc::now().fixed_offset();
    let rows: Vec<documents::ActiveModel> = (0..EXPIRING)
        .map(|i| documents::ActiveModel {
            pid: ActiveValue::Set(uuid::Uuid::new_v4()),
            document_type: ActiveValue::Set("vendor_agreement".into()),
            coi_type: ActiveValue::Set(None),
            // Written straight to the table, each in a slot of its own: all current.
            slot: ActiveValue::Set(format!("bulk-{i}")),
            file_name: ActiveValue::Set(format!("agreement-{i}.pdf")),
            storage_key: ActiveValue::Set(format!("test/bulk-{i}")),
            content_type: ActiveValue::Set("application/pdf".into()),
            size: ActiveValue::Set(100),
            expiration_date: ActiveValue::Set(Some(day(0))),
            notes: ActiveValue::Set(None),
            source: ActiveValue::Set("user".into()),
            version: ActiveValue::Set(1),
            is_current: ActiveValue::Set(true),
            superseded_at: ActiveValue::Set(None),
            organization_id: ActiveValue::Set(scene.client.org.id),
            vendor_id: ActiveValue::Set(scene.vendor.id),
            created_at: ActiveValue::Set(now),
            updated_at: ActiveValue::Set(now),
            ..Default::default()
        })
        .collect();
    for chunk in rows.chunks(500) {
        documents::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(&ctx.db)
            .await
            .unwrap();
    }
    let ids: Vec<(i64, chrono::NaiveDate)> = documents::Entity::find()
        .select_only()
        .columns([
            documents::documents::Column::Id,
            documents::documents::Column::ExpirationDate,
        ])
        .filter(documents::documents::Column::VendorId.eq(scene.vendor.id))
        .into_tuple::<(i64, Option<chrono::NaiveDate>)>()
        .all(&ctx.db)
        .await
        .unwrap()
        .into_iter()
        .map(|(id, date)| (id, date.unwrap()))
        .collect();
    assert_eq!(i64::try_from(ids.len()).unwrap(), EXPIRING);
    for chunk in ids.chunks(1000) {
        pending_expiries::Entity::insert_many(chunk.iter().map(|&(id, date)| {
            pending_expiries::ActiveModel {
                document_id: ActiveValue::Set(id),
                expiration_date: ActiveValue::Set(date),
                entry_pid: ActiveValue::Set(Some(uuid::Uuid::now_v7())),
            }
        }))
        .exec_without_returning(&ctx.db)
        .await
        .unwrap();
    }

    let report = sweep::run(ctx, day(0)).await.unwrap();
    assert_eq!(report.documents_expired, EXPIRING as u64);
    let entries = expired_entries(ctx, scene.client.org.id).await;
    assert_eq!(i64::try_from(entries.len()).unwrap(), EXPIRING);
    let mut documents: Vec<_> = entries.iter().map(|e| e.document_pid.clone()).collect();
    documents.sort();
    documents.dedup();
    assert_eq!(
        i64::try_from(documents.len()).unwrap(),
        EXPIRING,
        "one entry per document"
    );
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().documents_expired, 0);
}

#[tokio::test]
async fn the_sql_label_of_entries_matches_the_label_of_documents() {
    let (boot, _db) = boot_with(StartMode::ServerOnly, |_| {}).await;
    let db = &boot.app_context.db;
    let types: Vec<Option<&str>> = DocumentType::ALL
        .iter()
        .map(|t| Some(t.as_str()))
        .chain([Some("retired_type"), None])
        .collect();
    let cois: Vec<Option<&str>> = CoiType::ALL
        .iter()
        .map(|t| Some(t.as_str()))
        .chain([Some("retired_coi"), None])
        .collect();
    for document_type in &types {
        for coi_type in &cois {
            let label = compliance::stored_label_sql(
                &sea_orm::sea_query::Expr::val(*document_type),
                &sea_orm::sea_query::Expr::val(*coi_type),
            );
            let mut select = sea_orm::sea_query::Query::select();
            select.expr(label);
            let row = sea_orm::ConnectionTrait::query_one(db, &select)
                .await
                .unwrap()
                .unwrap();
            let from_sql: String = row.try_get_by_index(0).unwrap();
            assert_eq!(
                from_sql,
                compliance::stored_label(document_type.unwrap_or(""), *coi_type),
                "{document_type:?} / {coi_type:?}"
            );
        }
    }
}

#[tokio::test]
async fn an_expiry_written_without_an_entry_id_is_recorded_once() {
    let scene = Scene::new("Old Version Co").await;
    let ctx = scene.ctx();
    let w9 = scene.document(DocumentType::W9, None, Some(-1)).await;
    // A server of the version before `entry_pid`, still running while the new one migrated
    // (a rolling deploy), writes its rows without one.
    pending_expiries::Entity::update_many()
        .col_expr(
            pending_expiries::Column::EntryPid,
            sea_orm::sea_query::Expr::val(Option::<uuid::Uuid>::None),
        )
        .exec(&ctx.db)
        .await
        .unwrap();

    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().documents_expired, 1);
    assert_eq!(pending_expiry(ctx, &w9).await, None, "the row is taken off");
    assert_eq!(sweep::run(ctx, day(0)).await.unwrap().documents_expired, 0);
    let entries = expired_entries(ctx, scene.client.org.id).await;
    assert_eq!(entries.len(), 1, "recorded once: {entries:?}");
    assert_eq!(entries[0].document_pid, Some(w9.pid.to_string()));
}

#[tokio::test]
async fn an_expiry_whose_entry_is_already_written_is_taken_off_without_a_second_entry() {
    let scene = Scene::new("Twice Co").await;
    let ctx = scene.ctx();
    let w9 = scene.document(DocumentType::W9, None, Some(-1)).await;
    let waiting = pending_expiries::Entity::find_by_id(w9.id)
        .one(&ctx.db)
        .await
        .unwrap()
        .unwrap();
    // Another sweep wrote the entry and had not yet taken the row off.
    sea_orm::ActiveModelTrait::insert(
        activities::ActiveModel {
            pid: ActiveValue::Set(waiting.entry_pid.unwrap()),
            activity_type: ActiveValue::Set(sea_orm::ActiveEnum::to_value(
                &ActivityType::DocumentExpired,
            )),
            description: ActiveValue::Set("written by the other sweep".into()),
            organization_id: ActiveValue::Set(scene.client.org.id),
            ..Default::default()
        },
        &ctx.db,
    )
    .await
    .unwrap();

    let report = sweep::run(ctx, day(0)).await.unwrap();
    assert_eq!(report.documents_expired, 0, "this sweep wrote nothing");
    assert_eq!(pending_expiry(ctx, &w9).await, None, "the row is taken off");
    let entries = expired_entries(ctx, scene.client.org.id).await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0].description, "written by the other sweep");
}

#[tokio::test]
async fn claims_of_deleted_reminders_go_with_them_or_with_the_next_sweep() {
    let scene = Scene::new("Orphan Co").await;
    let ctx = scene.ctx();
    let renewed = scene.document(DocumentType::W9, None, Some(3)).await;
    let other = vendor(
        ctx,
        &scene.client,
        "Gone Vendor",
        &address("gone", "example.com"),
    )
    .await;
    let deleted = document(
        ctx,
        &scene.client,
        &other,
        DocumentType::SalesTax,
        None,
        Some(3),
    )
    .await;
    let deleted_reminder = reminders_of(ctx, &deleted).await.remove(0);
    let policy = sweep::policy(ctx, day(0)).unwrap();
    let claim = reminders::Model::claim_due(&ctx.db, &policy, None)
        .await
        .unwrap();
    assert_eq!(claim.reminders.len(), 2);
    assert_eq!(all_claims(ctx).await.len(), 2);

    // Replacing a document's reminders takes their claims with them.
    let renewed_reminder = reminders_of(ctx, &renewed).await.remove(0);
    reminders::Model::clear_pending(&ctx.db, renewed.id)
        .await
        .unwrap();
    assert!(claim_of(ctx, renewed_reminder.id).await.is_none());

    // Deleting the vendor deletes its documents and reminders by cascade; the claim has no
    // foreign key to follow them, and the next sweep removes it.
    vendors::Entity::delete_by_id(other.id)
        .exec(&ctx.db)
        .await
        .unwrap();
    assert_eq!(all_claims(ctx).await.len(), 1, "left behind");
    assert!(
        !reminders::Model::renew_claim(&ctx.db, deleted_reminder.id, &claim.token)
            .await
            .unwrap(),
        "a worker half way through its emails stops at the next one"
    );
    sweep::run(ctx, day(0)).await.unwrap();
    assert!(all_claims(ctx).await.is_empty(), "removed by the sweep");
}

#[tokio::test]
async fn after_days_without_a_sweep_only_the_latest_due_reminder_of_a_document_is_sent() {
    let scene = Scene::new("Downtime Co").await;
    let ctx = scene.ctx();
    let coi = scene
        .document(DocumentType::Coi, Some(CoiType::GeneralLiability), Some(40))
        .await;
    let later = scene.document(DocumentType::SalesTax, None, Some(55)).await;

    // No sweep ran from day 0 to day 40: the COI's three reminders (days 10, 33 and 40) are
    // all due, the sales tax certificate's first (day 25) alone.
    let report = sweep::run(ctx, day(40)).await.unwrap();
    assert_eq!(report.reminders_claimed, 4);
    let messages = stub_messages(ctx);
    assert_eq!(
        messages.len(),
        2,
        "one email to the owner and one to the vendor, listing each document once, not each \
         reminder: {messages:#?}"
    );
    assert!(messages
        .iter()
        .all(|m| super::grouped::documents_listed(&crate::support::email_parts(m)) == 2));
    let left = reminders_of(ctx, &coi).await;
    assert_eq!(left.len(), 1, "the superseded ones are dropped: {left:?}");
    assert_eq!(left[0].reminder_date, day(40));
    assert!(left[0].sent_at.is_some());
    let sales_tax = reminders_of(ctx, &later).await;
    assert_eq!(
        sales_tax
            .iter()
            .map(|r| r.reminder_date)
            .collect::<Vec<_>>(),
        vec![day(25), day(48), day(55)],
        "a document with one due reminder keeps them all"
    );
    assert!(sales_tax[0].sent_at.is_some() && sales_tax[1].sent_at.is_none());
    assert!(all_claims(ctx).await.is_empty());
    assert_eq!(deliveries(ctx).await.len(), 4);
}
