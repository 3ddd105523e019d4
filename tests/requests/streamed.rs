//! Answers sent while they are read: the non-compliant report (JSON, CSV, workbook), worked
//! out a batch of vendors at a time in one read transaction, the expirations report, sent a week
//! at a time, the responsiveness report, a batch of requests at a time, and the vendors export,
//! read as one statement streams. Each is the same bytes (the workbook: the same cells) as the answer
//! built whole, over more vendors than a batch holds and with names whose order depends on
//! how their case is folded; only the caller's organization; and the report is of the moment
//! its read began, whatever is written while it is sent.

use chrono::{Days, NaiveDate};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{json, Value};
use vendorwatch::models::{
    _entities::{
        documents, reminder_deliveries, reminders, renewal_requests, requirement_sets, vendors,
    },
    compliance::Status,
    documents::today,
    exports,
    reports::{self, ExpirationWeek, EXPIRATION_COLUMNS},
    sheet::Sheet,
    vendors::{Model as Vendor, VendorQuery},
};

use crate::support::{
    assert_envelope, bearer, create_vendor, get, make_professional, register, with_app,
};

/// How many vendors are seeded: more than two of the report's batches (200).
const VENDORS: usize = 450;

/// Names whose order differs between folding only ASCII letters (`SQLite`'s `lower`) and
/// Unicode's lowercase (Rust's, which the report sorts by), and names alike whatever their
/// case (their order then the list's: by id).
fn name(i: usize) -> String {
    let stems = [
        "Ölfirma", "öko", "ACME", "acme", "Acme", "Émile", "eve", "Zeta", "zeta", "İris", "ǅemal",
        "Straße",
    ];
    let stem = stems[i % stems.len()];
    if matches!(stem, "ACME" | "acme" | "Acme") {
        stem.to_string()
    } else {
        format!("{stem} {:03}", (i * 37) % 101)
    }
}

/// Seeds `VENDORS` vendors into `org_id` in multi-row inserts: a mix of required documents,
/// service types, a requirement set on some (gaps), and current documents current, expiring
/// and expired.
async fn seed(db: &sea_orm::DatabaseConnection, org_id: i64, set_id: i64, day: NaiveDate) {
    let now = chrono::Utc::now().fixed_offset();
    vendors::Entity::insert_many((0..VENDORS).map(|i| {
        vendors::ActiveModel {
            key: Set(format!("S{i:06}")),
            name: Set(name(i)),
            email: Set(format!("vendor{i}@example.com")),
            service_type: Set(if i.is_multiple_of(3) {
                "electrical"
            } else {
                "plumbing"
            }
            .into()),
            required_documents: Set(if i.is_multiple_of(2) {
                "[\"w9\"]"
            } else {
                "[]"
            }
            .into()),
            requirement_set_id: Set(i.is_multiple_of(7).then_some(set_id)),
            organization_id: Set(org_id),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
    }))
    .exec_without_returning(db)
    .await
    .unwrap();
    let seeded = vendors::Entity::find()
        .filter(vendors::Column::OrganizationId.eq(org_id))
        .filter(vendors::Column::Key.starts_with("S"))
        .all(db)
        .await
        .unwrap();
    let mut rows = Vec::new();
    for v in &seeded {
        let i: usize = v.key[1..].parse().unwrap();
        let mut add = |slot: &str, kind: &str, expires: Option<NaiveDate>| {
            rows.push(documents::ActiveModel {
                document_type: Set(kind.into()),
                coi_type: Set((kind == "coi").then(|| "general_liability".into())),
                slot: Set(slot.into()),
                expiration_date: Set(expires),
                ..document(org_id, v.id, &format!("seeded-{i}-{slot}"), now)
            });
        };
        if i.is_multiple_of(3) {
            add("w9", "w9", None);
        }
        if i.is_multiple_of(2) {
            // Spread over the expirations report's 12 weeks and past them.
            let days = u64::try_from((i * 13) % 100).unwrap();
            add("sales_tax", "sales_tax", Some(day + Days::new(days)));
        }
        match i % 5 {
            0 => add("coi_general_liability", "coi", Some(day - Days::new(3))),
            1 => add("coi_general_liability", "coi", Some(day + Days::new(12))),
            2 => add("coi_general_liability", "coi", Some(day + Days::new(200))),
            _ => {}
        }
    }
    for chunk in rows.chunks(200) {
        documents::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(db)
            .await
            .unwrap();
    }
}

/// A current first version of `org_id`'s vendor `vendor_id`, uploaded by a user at `at`, stored
/// as `name` (a W-9 until the caller says otherwise).
fn document(
    org_id: i64,
    vendor_id: i64,
    name: &str,
    at: chrono::DateTime<chrono::FixedOffset>,
) -> documents::ActiveModel {
    documents::ActiveModel {
        pid: Set(uuid::Uuid::new_v4()),
        document_type: Set("w9".into()),
        slot: Set("w9".into()),
        file_name: Set(format!("{name}.pdf")),
        storage_key: Set(format!("documents/{name}")),
        content_type: Set("application/pdf".into()),
        size: Set(1_000),
        source: Set("user".into()),
        version: Set(1),
        is_current: Set(true),
        organization_id: Set(org_id),
        vendor_id: Set(vendor_id),
        created_at: Set(at),
        updated_at: Set(at),
        ..Default::default()
    }
}

/// Ann's account on the Professional plan, its organization seeded ([`seed`]), and the day.
async fn seeded_account(
    server: &loco_rs::TestServer,
    ctx: &loco_rs::app::AppContext,
    who: &str,
) -> (
    crate::support::Account,
    vendorwatch::models::_entities::organizations::Model,
    NaiveDate,
) {
    let ann = register(server, &format!("Ann {who}"), Some(&format!("{who} Co"))).await;
    let org = make_professional(ctx, &ann).await;
    let set_id = drivers_set(server, &ann, ctx).await;
    let day = today();
    seed(&ctx.db, org.id, set_id, day).await;
    (ann, org, day)
}

/// Another organization on the Professional plan, with a vendor whose name sorts first.
async fn other_account(
    server: &loco_rs::TestServer,
    ctx: &loco_rs::app::AppContext,
    who: &str,
) -> vendorwatch::models::_entities::organizations::Model {
    let bob = register(
        server,
        &format!("Bob {who}"),
        Some(&format!("Other {who} Co")),
    )
    .await;
    let org = make_professional(ctx, &bob).await;
    create_vendor(server, &bob, "Aardvark Elsewhere").await;
    org
}

/// A requirement set of one line (automobile) none of the seeded vendors meets, by id.
async fn drivers_set(
    server: &loco_rs::TestServer,
    ann: &crate::support::Account,
    ctx: &loco_rs::app::AppContext,
) -> i64 {
    let (h, v) = bearer(&ann.token);
    let set: Value = server
        .post("/api/requirement-sets")
        .add_header(h, v)
        .json(&json!({"name": "Drivers", "lines": [{"line": "automobile"}]}))
        .await
        .json();
    let pid = uuid::Uuid::parse_str(set["id"].as_str().unwrap()).unwrap();
    requirement_sets::Entity::find()
        .filter(requirement_sets::Column::Pid.eq(pid))
        .one(&ctx.db)
        .await
        .unwrap()
        .unwrap()
        .id
}

/// The cells of a workbook's first sheet.
fn cells(bytes: Vec<u8>) -> Vec<Vec<calamine::Data>> {
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
    let range = book.worksheet_range("Sheet1").unwrap();
    range
        .rows()
        .map(<[calamine::Data]>::to_vec)
        .collect::<Vec<_>>()
}

/// `sent` is `expected`; else a failure showing where they part.
fn same_bytes(sent: &[u8], expected: &[u8], what: &str) {
    if sent != expected {
        let at = sent
            .iter()
            .zip(expected)
            .position(|(a, b)| a != b)
            .unwrap_or(sent.len().min(expected.len()));
        let around = |b: &[u8]| {
            String::from_utf8_lossy(&b[at.saturating_sub(80)..(at + 80).min(b.len())]).into_owned()
        };
        panic!(
            "{what}: {} bytes sent, {} expected, apart from byte {at}:\n sent: {}\n expected: {}",
            sent.len(),
            expected.len(),
            around(sent),
            around(expected)
        );
    }
}

/// `path` as CSV is `sheet`'s bytes and as a workbook its cells.
async fn files_are_the_sheet(
    server: &loco_rs::TestServer,
    account: &crate::support::Account,
    path: &str,
    sheet: &Sheet,
) {
    let csv = get(server, account, &format!("{path}?format=csv")).await;
    assert_eq!(csv.status_code(), 200, "{path}");
    same_bytes(
        csv.as_bytes(),
        &sheet.csv().unwrap(),
        &format!("{path} as CSV"),
    );
    let xlsx = get(server, account, &format!("{path}?format=xlsx")).await;
    assert_eq!(xlsx.status_code(), 200, "{path}");
    assert_eq!(
        cells(xlsx.as_bytes().to_vec()),
        cells(sheet.xlsx().unwrap()),
        "{path} as a workbook"
    );
}

fn report_sheet(rows: &[reports::NonCompliantVendor]) -> Sheet {
    Sheet::of(
        &exports::NON_COMPLIANT_COLUMNS,
        rows.iter().map(exports::non_compliant_row),
    )
}

#[tokio::test]
async fn the_streamed_report_is_the_report_built_whole() {
    with_app(|server, ctx| async move {
        let (ann, org, day) = seeded_account(&server, &ctx, "Stream").await;
        other_account(&server, &ctx, "Stream").await;

        let filters: [(&str, Option<Status>, Option<&str>); 5] = [
            ("", None, None),
            ("status=missing", Some(Status::Missing), None),
            ("status=expired", Some(Status::Expired), None),
            ("serviceType=electrical", None, Some("electrical")),
            (
                "status=expiring_soon&serviceType=plumbing",
                Some(Status::ExpiringSoon),
                Some("plumbing"),
            ),
        ];
        for (filter, status, service) in filters {
            let whole = reports::non_compliant(&ctx.db, org.id, status, service, day)
                .await
                .unwrap();
            let res = get(
                &server,
                &ann,
                &format!("/api/reports/non-compliant?{filter}"),
            )
            .await;
            assert_eq!(res.status_code(), 200, "{filter}: {}", res.text());
            assert_eq!(
                res.header("content-type").to_str().unwrap(),
                "application/json"
            );
            same_bytes(
                res.as_bytes(),
                &serde_json::to_vec(&whole).unwrap(),
                &format!("{filter}: the JSON streamed is the report built whole"),
            );
            let sep = if filter.is_empty() { "" } else { "&" };
            let csv = get(
                &server,
                &ann,
                &format!("/api/reports/non-compliant?{filter}{sep}format=csv"),
            )
            .await;
            assert_eq!(csv.status_code(), 200);
            same_bytes(
                csv.as_bytes(),
                &report_sheet(&whole).csv().unwrap(),
                &format!("{filter}: the CSV streamed is the report's sheet"),
            );
            if filter.is_empty() {
                // More rows than a batch, names folded both ways, only Ann's.
                assert!(whole.len() > 300, "{} rows", whole.len());
                let names: Vec<&str> = whole.iter().map(|v| v.name.as_str()).collect();
                for stem in ["öko ", "Ölfirma ", "İris ", "ǅemal ", "ACME"] {
                    assert!(names.iter().any(|n| n.starts_with(stem)), "{stem}");
                }
                assert!(!names.contains(&"Aardvark Elsewhere"));
                let lowered: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
                assert!(lowered.is_sorted(), "by name whatever its case");
                let xlsx = get(&server, &ann, "/api/reports/non-compliant?format=xlsx").await;
                assert_eq!(xlsx.status_code(), 200);
                assert_eq!(
                    cells(xlsx.as_bytes().to_vec()),
                    cells(report_sheet(&whole).xlsx().unwrap()),
                    "the workbook streamed has the report's cells"
                );
            }
        }
        assert_envelope(
            &server.get("/api/reports/non-compliant").await,
            401,
            "unauthorized",
        );
    })
    .await;
}

/// The vendors export: one statement streamed, in the vendor list's order, the same bytes (CSV)
/// and cells (workbook) as the export built whole from the list, only the caller's vendors.
#[tokio::test]
async fn the_streamed_vendors_export_is_the_export_built_whole() {
    with_app(|server, ctx| async move {
        let (ann, org, day) = seeded_account(&server, &ctx, "Export").await;
        other_account(&server, &ctx, "Export").await;
        let (listed, total) = Vendor::list(&ctx.db, org.id, &VendorQuery::default(), day)
            .await
            .unwrap();
        assert_eq!(total, u64::try_from(VENDORS).unwrap());
        let sheet = exports::vendors_sheet(&listed);
        let csv = get(&server, &ann, "/api/vendors/export").await;
        assert_eq!(csv.status_code(), 200);
        same_bytes(csv.as_bytes(), &sheet.csv().unwrap(), "the vendors export");
        assert!(!csv.text().contains("Aardvark Elsewhere"));
        let xlsx = get(&server, &ann, "/api/vendors/export?format=xlsx").await;
        assert_eq!(xlsx.status_code(), 200);
        assert_eq!(
            cells(xlsx.as_bytes().to_vec()),
            cells(sheet.xlsx().unwrap())
        );
        assert_envelope(
            &server.get("/api/vendors/export").await,
            401,
            "unauthorized",
        );
    })
    .await;
}

/// The report is read in one transaction: vendors renamed and removed after its read began
/// are reported as they were when it began, in every batch.
#[tokio::test]
async fn the_streamed_report_is_of_the_moment_its_read_began() {
    with_app(|server, ctx| async move {
        use futures_util::TryStreamExt;
        let (_, org, day) = seeded_account(&server, &ctx, "Moment").await;
        let before = reports::non_compliant(&ctx.db, org.id, None, None, day)
            .await
            .unwrap();
        let report = reports::NonCompliantReport::open(&ctx.db, org.id, None, None, day)
            .await
            .unwrap();
        // Written after the read began, on other connections: a rename in the last batch and
        // every vendor's documents gone.
        let last = &before.last().unwrap().id;
        vendors::Entity::update_many()
            .col_expr(
                vendors::Column::Name,
                sea_orm::sea_query::Expr::value("Renamed Meanwhile"),
            )
            .filter(vendors::Column::Key.eq(last.as_str()))
            .exec(&ctx.db)
            .await
            .unwrap();
        documents::Entity::delete_many()
            .filter(documents::Column::OrganizationId.eq(org.id))
            .exec(&ctx.db)
            .await
            .unwrap();
        let during: Vec<reports::NonCompliantVendor> = report.rows().try_collect().await.unwrap();
        assert_eq!(during.len(), before.len());
        assert!(during == before, "the report as its read began");
        let after = reports::non_compliant(&ctx.db, org.id, None, None, day)
            .await
            .unwrap();
        assert!(after != before, "the writes were made");
        assert!(after.iter().any(|v| v.name == "Renamed Meanwhile"));
    })
    .await;
}

/// The expirations report sent a week at a time: the same bytes (JSON, CSV) and cells
/// (workbook) as the report built whole, its 12 weeks holding every document of the
/// organization that expires in them, and only the caller's.
#[tokio::test]
async fn the_streamed_expirations_report_is_the_report_built_whole() {
    with_app(|server, ctx| async move {
        let (ann, org, day) = seeded_account(&server, &ctx, "Weeks").await;
        let other = other_account(&server, &ctx, "Weeks").await;
        seed_other(&ctx.db, other.id, day).await;
        let whole = reports::expirations(&ctx.db, org.id, day).await.unwrap();
        assert_eq!(whole.len(), 12);
        // Every current document of Ann's expiring in the 12 weeks, counted by the database.
        let expiring = documents::Entity::find()
            .filter(documents::Column::OrganizationId.eq(org.id))
            .filter(documents::Column::IsCurrent.eq(true))
            .filter(documents::Column::ExpirationDate.gte(day))
            .filter(documents::Column::ExpirationDate.lt(day + Days::new(84)))
            .count(&ctx.db)
            .await
            .unwrap();
        assert!(expiring > 200, "{expiring}");
        assert_eq!(
            whole.iter().map(|w| w.count).sum::<usize>(),
            usize::try_from(expiring).unwrap()
        );
        assert!(whole.iter().all(|w| w.count > 0), "every week has some");

        let res = get(&server, &ann, "/api/reports/expirations").await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(
            res.header("content-type").to_str().unwrap(),
            "application/json"
        );
        let expected = format!("{{\"weeks\":{}}}", serde_json::to_string(&whole).unwrap());
        same_bytes(
            res.as_bytes(),
            expected.as_bytes(),
            "the expirations as JSON",
        );
        assert!(!res.text().contains("Elsewhere"), "only Ann's vendors");
        let sheet = Sheet::of(
            &EXPIRATION_COLUMNS,
            whole.iter().flat_map(ExpirationWeek::rows),
        );
        files_are_the_sheet(&server, &ann, "/api/reports/expirations", &sheet).await;
    })
    .await;
}

/// A vendor of another organization with documents expiring in every week.
async fn seed_other(db: &sea_orm::DatabaseConnection, org_id: i64, day: NaiveDate) {
    let now = chrono::Utc::now().fixed_offset();
    let vendor = vendors::Entity::insert(vendors::ActiveModel {
        key: Set("OTHER01".into()),
        name: Set("Vendor Elsewhere".into()),
        email: Set("elsewhere@example.com".into()),
        service_type: Set("plumbing".into()),
        required_documents: Set("[]".into()),
        organization_id: Set(org_id),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    })
    .exec(db)
    .await
    .unwrap()
    .last_insert_id;
    documents::Entity::insert_many((0..12_u64).map(|w| documents::ActiveModel {
        document_type: Set("other".into()),
        slot: Set("other".into()),
        expiration_date: Set(Some(day + Days::new(w * 7))),
        ..document(org_id, vendor, &format!("elsewhere-{w}"), now)
    }))
    .exec_without_returning(db)
    .await
    .unwrap();
}

/// The responsiveness report: more requests than a batch (500) holds, vendors asked in several
/// batches, requests of the same moment (by hand and by email), portal uploads before and after
/// them. Streamed, it is the same bytes (the workbook: the same cells) as the report built whole,
/// and only the caller's.
#[tokio::test]
async fn the_streamed_responsiveness_report_is_the_report_built_whole() {
    with_app(|server, ctx| async move {
        let (ann, org, _) = seeded_account(&server, &ctx, "Asked").await;
        let other = other_account(&server, &ctx, "Asked").await;
        let now = chrono::Utc::now().fixed_offset();
        seed_requests(&ctx.db, org.id, now, 1_200).await;
        seed_requests(&ctx.db, other.id, now, 250).await;
        let whole = reports::responsiveness(&ctx.db, org.id).await.unwrap();
        assert_eq!(whole.len(), 1_200 + 60, "every request and email of Ann's");
        assert!(whole.iter().any(|r| r.days_to_upload.is_some()));
        assert!(whole.iter().any(|r| r.uploaded_at.is_none()));
        assert!(whole
            .iter()
            .any(|r| r.document_label == "General Liability"));
        assert!(whole.iter().all(|r| r.vendor_name != "Aardvark Elsewhere"));
        assert!(
            whole.is_sorted_by(|a, b| a.requested_at >= b.requested_at),
            "newest first"
        );

        let res = get(&server, &ann, "/api/reports/responsiveness").await;
        assert_eq!(res.status_code(), 200, "{}", res.text());
        assert_eq!(
            res.header("content-type").to_str().unwrap(),
            "application/json"
        );
        same_bytes(
            res.as_bytes(),
            &serde_json::to_vec(&whole).unwrap(),
            "the responsiveness report as JSON",
        );
        let sheet = Sheet::of(
            &exports::RESPONSIVENESS_COLUMNS,
            whole.iter().map(exports::responsiveness_row),
        );
        files_are_the_sheet(&server, &ann, "/api/reports/responsiveness", &sheet).await;
        assert_envelope(
            &server.get("/api/reports/responsiveness").await,
            401,
            "unauthorized",
        );
    })
    .await;
}

/// `requests` renewal requests of `org_id`'s vendors over the 299 days before `now`, at the
/// same moment of each day (with 450 vendors, four at each moment, each vendor asked on several
/// days, in different batches; never twice a day, as a vendor is asked once a day at most: 299
/// and 450 have no common factor), 60 reminder emails at some of the same moments, and a portal
/// upload of every fourth vendor, after some of its requests and before others.
async fn seed_requests(
    db: &sea_orm::DatabaseConnection,
    org_id: i64,
    now: chrono::DateTime<chrono::FixedOffset>,
    requests: usize,
) {
    let ids: Vec<i64> = vendors::Entity::find()
        .filter(vendors::Column::OrganizationId.eq(org_id))
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .map(|v| v.id)
        .collect();
    let days = |d: usize| now - chrono::Duration::days(i64::try_from(d).unwrap());
    let requests: Vec<renewal_requests::ActiveModel> = (0..requests)
        .map(|i| renewal_requests::ActiveModel {
            requested_on: Set(days(i % 299).date_naive()),
            organization_id: Set(org_id),
            vendor_id: Set(ids[(i * 7) % ids.len()]),
            created_at: Set(days(i % 299)),
            updated_at: Set(days(i % 299)),
            ..Default::default()
        })
        .collect();
    for chunk in requests.chunks(300) {
        renewal_requests::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(db)
            .await
            .unwrap();
    }
    let uploads: Vec<documents::ActiveModel> = ids
        .iter()
        .enumerate()
        .filter(|(i, _)| i.is_multiple_of(4))
        .map(|(i, vendor)| documents::ActiveModel {
            document_type: Set("coi".into()),
            coi_type: Set(Some("general_liability".into())),
            slot: Set("coi_general_liability".into()),
            source: Set("vendor_portal".into()),
            version: Set(2),
            is_current: Set(false),
            ..document(
                org_id,
                *vendor,
                &format!("portal-{org_id}-{i}"),
                days((i * 11) % 299),
            )
        })
        .collect();
    documents::Entity::insert_many(uploads)
        .exec_without_returning(db)
        .await
        .unwrap();
    let emailed = documents::Entity::find()
        .filter(documents::Column::OrganizationId.eq(org_id))
        .filter(documents::Column::Source.eq("vendor_portal"))
        .all(db)
        .await
        .unwrap();
    for (i, doc) in emailed.iter().take(60).enumerate() {
        let at = days((i * 5) % 299);
        let reminder = reminders::Entity::insert(reminders::ActiveModel {
            pid: Set(uuid::Uuid::new_v4()),
            reminder_date: Set(at.date_naive()),
            offset_days: Set(30),
            sent_at: Set(Some(at)),
            organization_id: Set(org_id),
            document_id: Set(doc.id),
            created_at: Set(at),
            updated_at: Set(at),
            ..Default::default()
        })
        .exec(db)
        .await
        .unwrap()
        .last_insert_id;
        reminder_deliveries::Entity::insert(reminder_deliveries::ActiveModel {
            kind: Set("vendor".into()),
            recipient: Set(format!("vendor{i}@example.com")),
            reminder_id: Set(reminder),
            created_at: Set(at),
            updated_at: Set(at),
            ..Default::default()
        })
        .exec_without_returning(db)
        .await
        .unwrap();
    }
}
