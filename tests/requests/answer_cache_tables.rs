//! A kept answer (`src/infra/answer_cache.rs`) is right only while every write to each table it is
//! computed from raises its organization's `data_version`. Each question declares those tables
//! (`Question::reads`, from `Table`); these tests hold the declarations to the migrated
//! database (every `Table` has the triggers, and they raise the version) and to the
//! computations (each reads no table it has not declared), on `SQLite` and `PostgreSQL`.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{Arc, Mutex},
};

use loco_rs::app::AppContext;
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection};
use vendorwatch::{
    infra::answer_cache::{Question, Table, KEPT_FROM},
    models::{
        compliance::Status,
        search::{Page, Sort},
        vendors::{VendorQuery, VendorSort},
    },
};

use crate::support::{
    create_vendor, in_days, make_professional, org_of, register, rows, upload, with_app, UploadSpec,
};

/// The database's tables (and views).
async fn tables_of(db: &DatabaseConnection) -> BTreeSet<String> {
    let sql = if db.get_database_backend() == DatabaseBackend::Postgres {
        "SELECT table_name::text AS name FROM information_schema.tables \
         WHERE table_schema = current_schema()"
    } else {
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
    };
    rows(db, sql)
        .await
        .iter()
        .map(|r| r.try_get::<String>("", "name").unwrap())
        .collect()
}

/// Each table with a trigger raising `organizations.data_version`, with the writes that fire
/// it (`insert`, `update`, `delete`), read from the catalog.
async fn data_version_triggers(db: &DatabaseConnection) -> BTreeMap<String, BTreeSet<String>> {
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    if db.get_database_backend() == DatabaseBackend::Postgres {
        // Row-level (bit 1) triggers calling the bump; INSERT 4, DELETE 8, UPDATE 16.
        let sql = "SELECT c.relname::text AS tbl, t.tgtype::int4 AS kind FROM pg_trigger t \
                   JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid \
                   WHERE p.proname = 'organizations_data_version_bump' AND t.tgenabled <> 'D'";
        for row in rows(db, sql).await {
            let kind: i32 = row.try_get("", "kind").unwrap();
            let ops = found.entry(row.try_get("", "tbl").unwrap()).or_default();
            for (bit, op) in [(4, "insert"), (8, "delete"), (16, "update")] {
                if kind & 1 != 0 && kind & bit != 0 {
                    ops.insert(op.to_string());
                }
            }
        }
    } else {
        let sql = "SELECT tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'trigger'";
        for row in rows(db, sql).await {
            let text: String = row.try_get("", "sql").unwrap();
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if !text.contains("SET data_version = data_version + 1") {
                continue;
            }
            let ops = found.entry(row.try_get("", "tbl").unwrap()).or_default();
            for op in ["insert", "update", "delete"] {
                if text.contains(&format!("AFTER {} ON", op.to_uppercase())) {
                    ops.insert(op.to_string());
                }
            }
        }
    }
    found
}

/// The tables of `tables` that `sql` names: any identifier, quoted or bare, outside string
/// literals (so a subquery, a join or a comma list is caught as well as a `FROM`).
fn tables_named(sql: &str, tables: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut note = |word: &mut String, quoted: bool| {
        let name = if quoted {
            word.clone()
        } else {
            word.to_lowercase()
        };
        if tables.contains(&name) {
            found.insert(name);
        }
        word.clear();
    };
    let (mut chars, mut word) = (sql.chars().peekable(), String::new());
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        note(&mut word, false);
        if c == '\'' || c == '"' {
            // To the closing quote; a doubled one is the quote itself.
            while let Some(d) = chars.next() {
                if d == c && chars.next_if_eq(&c).is_none() {
                    break;
                }
                word.push(d);
            }
            if c == '"' {
                note(&mut word, true);
            }
            word.clear();
        }
    }
    note(&mut word, false);
    found
}

#[test]
fn table_names_are_read_from_any_part_of_a_statement() {
    let tables = ["vendors", "documents", "reminders", "users"]
        .map(String::from)
        .into();
    let sql = "SELECT COUNT(*) FROM (SELECT \"vendors\".\"id\" FROM \"vendors\", reminders \
               WHERE name = 'users' AND EXISTS (SELECT 1 FROM \"documents\")) AS \"sub\"";
    assert_eq!(
        tables_named(sql, &tables),
        ["documents", "reminders", "vendors"]
            .map(String::from)
            .into()
    );
}

/// Every kind of question (its variant): each must be sampled by [`every_question`].
const KINDS: [&str; 2] = ["VendorList", "DashboardStats"];

/// The kind of `q`, one of [`KINDS`]: this match stops compiling when a question is added.
const fn kind(q: &Question) -> &'static str {
    match q {
        Question::VendorList(_) => "VendorList",
        Question::DashboardStats => "DashboardStats",
    }
}

/// Every question, in the shapes whose SQL differs (filters, orders, pages).
fn every_question() -> Vec<Question> {
    let list = |query: VendorQuery| Question::VendorList(query);
    let mut all = vec![Question::DashboardStats, list(VendorQuery::default())];
    for status in [
        Status::Current,
        Status::ExpiringSoon,
        Status::Expired,
        Status::Missing,
    ] {
        all.push(list(VendorQuery {
            status: Some(status),
            ..VendorQuery::default()
        }));
    }
    for (_, key) in VendorSort::KEYS {
        for descending in [false, true] {
            all.push(list(VendorQuery {
                sort: Sort { key, descending },
                ..VendorQuery::default()
            }));
        }
    }
    // A search; a full first page and a page past the end (both count the rows).
    for (q, limit, offset) in [
        (Some("co"), None, None),
        (None, Some(1), None),
        (None, Some(1), Some(9)),
    ] {
        all.push(list(VendorQuery {
            q: q.map(String::from),
            page: Page { limit, offset },
            ..VendorQuery::default()
        }));
    }
    all
}

/// Gives the vendor `key` a requirement set with a gap, and waives another: rows in
/// `requirement_sets` and `waivers` that the answers read.
async fn with_requirements(server: &loco_rs::TestServer, ann: &crate::support::Account, key: &str) {
    let (h, v) = crate::support::bearer(&ann.token);
    let res = server
        .post("/api/requirement-sets")
        .add_header(h.clone(), v.clone())
        .json(
            &serde_json::json!({"name": format!("Set for {key}"), "lines": [
                {"line": "general_liability", "minimums": {"eachOccurrence": "$1M"}},
                {"line": "automobile"}
            ]}),
        )
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let set = res.json::<serde_json::Value>()["id"].clone();
    let res = server
        .post("/api/vendors/requirement-set")
        .add_header(h.clone(), v.clone())
        .json(&serde_json::json!({"ids": [key], "requirementSetId": set}))
        .await;
    assert_eq!(res.status_code(), 200, "{}", res.text());
    let res = server
        .post(&format!("/api/vendors/{key}/waivers"))
        .add_header(h, v)
        .json(
            &serde_json::json!({"line": "automobile", "kind": "missing_line",
                                  "reason": "No vehicles", "until": "2099-01-01"}),
        )
        .await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
}

/// A new organization's vendor `name` with a document, a requirement set and a waiver, made
/// through the API: rows in every `Table`. Its key and the organization's id.
async fn vendor_with_rows(
    server: &loco_rs::TestServer,
    ctx: &AppContext,
    name: &str,
) -> (String, i64) {
    let ann = register(server, "Ann Lee", None).await;
    let key = create_vendor(server, &ann, name).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let res = upload(server, &ann, &key, &UploadSpec::pdf("w9")).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    with_requirements(server, &ann, &key).await;
    (key, org_of(ctx, &ann).await.id)
}

/// Column `column` of organization `org`.
async fn org_column<T: sea_orm::TryGetable>(ctx: &AppContext, org: i64, column: &str) -> T {
    let sql = format!("SELECT {column} FROM organizations WHERE id = {org}");
    rows(&ctx.db, &sql).await[0].try_get("", column).unwrap()
}

/// The organization's `data_version`.
async fn version(ctx: &AppContext, org: i64) -> i64 {
    org_column(ctx, org, "data_version").await
}

#[tokio::test]
async fn every_table_a_kept_answer_may_read_has_triggers_that_raise_the_version() {
    with_app(|server, ctx| async move {
        let on_tables: BTreeSet<&str> = Table::ALL.iter().map(|t| t.name()).collect();
        let triggers = data_version_triggers(&ctx.db).await;
        for table in &on_tables {
            assert_eq!(
                triggers
                    .get(*table)
                    .map(|ops| ops.iter().map(String::as_str).collect()),
                Some(BTreeSet::from(["delete", "insert", "update"])),
                "`{table}` may be read by a kept answer (Table) but lacks a data_version \
                 trigger: add one in a migration ({triggers:?})"
            );
        }
        assert_eq!(
            triggers.keys().map(String::as_str).collect::<BTreeSet<_>>(),
            on_tables,
            "the tables with data_version triggers are Table::ALL"
        );

        // And the triggers raise it: each write, straight in the database, to the rows of
        // one organization (a vendor with a document, made through the API).
        let (_, org) = vendor_with_rows(&server, &ctx, "Trigger Co").await;
        let write = |sql: String| {
            let ctx = ctx.clone();
            async move {
                let before = version(&ctx, org).await;
                ctx.db.execute_unprepared(&sql).await.unwrap();
                assert!(version(&ctx, org).await > before, "no raise by: {sql}");
            }
        };
        for t in &on_tables {
            write(format!(
                "UPDATE \"{t}\" SET organization_id = organization_id WHERE organization_id = {org}"
            ))
            .await;
            let copy = format!(
                "CREATE TABLE \"kept_{t}\" AS SELECT * FROM \"{t}\" WHERE organization_id = {org}"
            );
            ctx.db.execute_unprepared(&copy).await.unwrap();
        }
        // Rows that refer to others first out, last back (Table::ALL lists a table after
        // those it refers to), so each write touches its own table only.
        for t in Table::ALL.iter().rev().map(|t| t.name()) {
            write(format!("DELETE FROM \"{t}\" WHERE organization_id = {org}")).await;
        }
        for t in Table::ALL.map(Table::name) {
            write(format!("INSERT INTO \"{t}\" SELECT * FROM \"kept_{t}\"")).await;
        }
    })
    .await;
}

#[tokio::test]
async fn each_kept_answer_reads_only_the_tables_it_declares() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        make_professional(&ctx, &ann).await;
        for (name, expires) in [
            ("Current Co", Some(400)),
            ("Soon Co", Some(10)),
            ("Gone Co", Some(-3)),
            ("Bare Co", None),
        ] {
            let key = create_vendor(&server, &ann, name).await["id"]
                .as_str()
                .unwrap()
                .to_string();
            if let Some(days) = expires {
                let mut spec = UploadSpec::pdf("w9");
                spec.expiration_date = Some(in_days(days));
                let res = upload(&server, &ann, &key, &spec).await;
                assert_eq!(res.status_code(), 201, "{}", res.text());
            }
            if name == "Current Co" {
                with_requirements(&server, &ann, &key).await;
            }
        }
        let org = org_of(&ctx, &ann).await;
        let with_requirements_id: i64 =
            rows(&ctx.db, "SELECT id FROM vendors WHERE name = 'Current Co'").await[0]
                .try_get("", "id")
                .unwrap();
        let today = chrono::Utc::now().date_naive();
        let tables = tables_of(&ctx.db).await;
        let seen = Arc::new(Mutex::new(Vec::<String>::new()));
        let mut db = ctx.db.clone();
        let log = Arc::clone(&seen);
        db.set_metric_callback(move |info| log.lock().unwrap().push(info.statement.sql.clone()));

        let mut read_by: BTreeMap<&str, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
        for question in every_question() {
            seen.lock().unwrap().clear();
            question.compute(&db, org.id, today).await.unwrap();
            // And what carries a kept answer forward past one vendor's change.
            question
                .listed_vendor(&db, org.id, today, with_requirements_id)
                .await
                .unwrap();
            let statements = seen.lock().unwrap().clone();
            assert!(!statements.is_empty(), "{question:?} ran no statement");
            let declared: BTreeSet<String> = question
                .reads()
                .iter()
                .map(|t| t.name().to_string())
                .collect();
            let (all_read, all_declared) = read_by.entry(kind(&question)).or_default();
            all_declared.extend(declared.iter().cloned());
            for sql in &statements {
                // A table kept from others by triggers is read as those (KEPT_FROM).
                let read = tables_named(sql, &tables)
                    .into_iter()
                    .flat_map(|t| match KEPT_FROM.iter().find(|(kept, _)| *kept == t) {
                        Some((_, from)) => from.iter().map(|f| f.name().to_string()).collect(),
                        None => vec![t],
                    })
                    .collect::<BTreeSet<String>>();
                assert!(
                    read.is_subset(&declared),
                    "{question:?} reads {:?}, which it does not declare (Question::reads): \
                     its kept answer would not follow writes there. Statement: {sql}",
                    read.difference(&declared).collect::<Vec<_>>()
                );
                all_read.extend(read);
            }
        }
        // Each kind asked, and none declares a table it never reads (which would only throw
        // kept answers away).
        for kind in KINDS {
            let (read, declared) = read_by
                .get(kind)
                .unwrap_or_else(|| panic!("no {kind} in every_question"));
            assert_eq!(read, declared, "{kind}: tables read, tables declared");
        }
    })
    .await;
}

/// The organization's `changed_vendor_id`.
async fn changed_vendor(ctx: &AppContext, org: i64) -> Option<i64> {
    org_column(ctx, org, "changed_vendor_id").await
}

/// Each raise of the version names the vendor it was for when it changed one vendor's listed
/// entry alone (its row updated, one of its documents written), and none otherwise: a kept
/// list is carried forward past the former only (`AnswerCache::answer`).
#[tokio::test]
async fn each_raise_names_the_one_vendor_it_changed_or_none() {
    with_app(|server, ctx| async move {
        let (key, org) = vendor_with_rows(&server, &ctx, "Named Co").await;
        let other = org_of(&ctx, &register(&server, "Bob Ray", None).await)
            .await
            .id;
        let vendor: i64 = rows(
            &ctx.db,
            &format!("SELECT id FROM vendors WHERE key = '{key}'"),
        )
        .await[0]
            .try_get("", "id")
            .unwrap();
        // Runs `sql`, which must raise the version and leave `named` as the changed vendor.
        let check = |sql: String, named: Option<i64>| {
            let ctx = ctx.clone();
            async move {
                let before = version(&ctx, org).await;
                ctx.db.execute_unprepared(&sql).await.unwrap();
                assert!(version(&ctx, org).await > before, "no raise by: {sql}");
                assert_eq!(changed_vendor(&ctx, org).await, named, "after: {sql}");
            }
        };
        let mine = format!("organization_id = {org}");
        // The vendor named first each time, so that a write naming none is seen clearing it.
        let touch = || format!("UPDATE vendors SET notes = 'touched' WHERE id = {vendor}");
        for (sql, named) in [
            (
                format!("UPDATE documents SET notes = 'n' WHERE {mine}"),
                Some(vendor),
            ),
            (
                format!("UPDATE requirement_sets SET name = 'Renamed' WHERE {mine}"),
                None,
            ),
            (
                format!("UPDATE waivers SET reason = 'r' WHERE {mine}"),
                None,
            ),
            (
                format!(
                    "CREATE TABLE named_documents AS SELECT * FROM documents WHERE {mine}; \
                      DELETE FROM documents WHERE {mine}"
                ),
                Some(vendor),
            ),
            (
                "INSERT INTO documents SELECT * FROM named_documents".to_string(),
                Some(vendor),
            ),
            // A row moved to another organization (never done by the app) names none, on
            // either side; moved back in the same call, the same.
            (
                format!(
                    "UPDATE vendors SET organization_id = {other} WHERE id = {vendor}; \
                     UPDATE vendors SET organization_id = {org} WHERE id = {vendor}"
                ),
                None,
            ),
            (format!("DELETE FROM waivers WHERE {mine}"), None),
            (format!("DELETE FROM documents WHERE {mine}"), Some(vendor)),
            (
                format!(
                    "CREATE TABLE named_vendors AS SELECT * FROM vendors WHERE {mine}; \
                      DELETE FROM vendors WHERE {mine}"
                ),
                None,
            ),
        ] {
            check(touch(), Some(vendor)).await;
            check(sql, named).await;
        }
        assert_eq!(
            changed_vendor(&ctx, other).await,
            None,
            "the other organization's"
        );
        check(
            "INSERT INTO vendors SELECT * FROM named_vendors".to_string(),
            None,
        )
        .await;
        check(touch(), Some(vendor)).await;
    })
    .await;
}
