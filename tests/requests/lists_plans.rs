//! The plans `PostgreSQL` chooses for the lists' pages at a size where reading a whole
//! organization costs (thousands of vendors, documents, activity entries and reminders): each
//! page is read in its order from an index, never by reading the organization's rows whole and
//! sorting them. The statements are the ones each endpoint runs, caught on the database
//! connection as `examples/list_bench` does, and explained with their values.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use loco_rs::{
    boot::{create_context, run_app, StartMode},
    environment::Environment,
    testing::prelude::RequestConfig,
    TestServer,
};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement};
use serde_json::Value;
use vendorwatch::app::App;

use crate::support::{boot_with, create_vendor, get, org_of, register};

/// The tables whose rows the seed multiplies.
const BIG_TABLES: [&str; 4] = ["vendors", "documents", "activities", "reminders"];

fn without_answer_cache(config: &mut loco_rs::config::Config) {
    config.database.enable_logging = false;
    if let Some(settings) = config.settings.as_mut().and_then(|s| s.as_object_mut()) {
        settings.insert("answer_cache_mb".to_string(), serde_json::json!(0));
    }
}

/// 5,000 vendors, 20,000 documents (15,000 current), 15,000 reminders and 20,000 activity
/// entries in organization `org`, each row with a time of its own; then `VACUUM ANALYZE`.
async fn seed(db: &DatabaseConnection, org: i64) {
    for sql in [
        format!(
            "INSERT INTO vendors (created_at, updated_at, key, name, email, service_type, \
             required_documents, organization_id) \
             SELECT now() - g * interval '1 minute', now() - g * interval '1 minute', \
             'P' || lpad(g::text, 7, '0'), 'Vendor ' || md5(g::text), 'v' || g || '@example.com', \
             'plumbing', '[\"w9\"]', {org} FROM generate_series(1, 5000) g"
        ),
        format!(
            "INSERT INTO documents (created_at, updated_at, pid, document_type, slot, file_name, \
             storage_key, content_type, size, expiration_date, source, version, is_current, \
             superseded_at, organization_id, vendor_id) \
             SELECT now() - g * interval '1 minute', now() - g * interval '1 minute', \
             gen_random_uuid(), 'sales_tax', 'sales_tax', 'file-' || g || '.pdf', \
             'documents/seed-' || g, 'application/pdf', 1000, current_date + (g % 400 - 30), \
             'user', 1, g % 4 <> 0, CASE WHEN g % 4 = 0 THEN now() END, {org}, v.id \
             FROM generate_series(1, 20000) g \
             JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM vendors \
                   WHERE organization_id = {org}) v ON v.n = g % 5000 + 1"
        ),
        format!(
            "INSERT INTO reminders (created_at, updated_at, pid, reminder_date, offset_days, \
             organization_id, document_id) \
             SELECT now(), now(), gen_random_uuid(), current_date + (d.id % 365)::int, 30, {org}, \
             d.id FROM documents d WHERE d.organization_id = {org} AND d.is_current"
        ),
        format!(
            "INSERT INTO activities (created_at, updated_at, pid, activity_type, description, \
             organization_id) \
             SELECT now() - g * interval '1 second', now() - g * interval '1 second', \
             gen_random_uuid(), 'vendor_added', 'Seeded entry ' || g, {org} \
             FROM generate_series(1, 20000) g"
        ),
        "VACUUM ANALYZE".to_string(),
    ] {
        db.execute_unprepared(&sql)
            .await
            .unwrap_or_else(|e| panic!("{e}: {sql}"));
    }
}

/// The plan's nodes, depth first: (node type, relation read, if any).
fn nodes(plan: &Value, out: &mut Vec<(String, String)>) {
    let text = |key: &str| plan[key].as_str().unwrap_or_default().to_string();
    out.push((text("Node Type"), text("Relation Name")));
    for child in plan["Plans"].as_array().into_iter().flatten() {
        nodes(child, out);
    }
}

async fn explain(db: &DatabaseConnection, statement: &Statement) -> Value {
    let row = db
        .query_one_raw(Statement {
            sql: format!("EXPLAIN (FORMAT JSON) {}", statement.sql),
            values: statement.values.clone(),
            db_backend: DbBackend::Postgres,
        })
        .await
        .unwrap()
        .unwrap();
    let plan: Value = row.try_get("", "QUERY PLAN").unwrap();
    plan[0]["Plan"].clone()
}

/// A step that reads a table's rows through an index (a bitmap heap scan's come from its
/// bitmap index scan).
fn index_read(node: &str) -> bool {
    node.starts_with("Index") || node == "Bitmap Heap Scan"
}

/// What is wrong with the plan of a statement `path` ran: a big table read whole, or (for a
/// page of the organization's rows) its rows sorted rather than read in order from an index.
fn faults(path: &str, sql: &str, plan: &Value, sort_allowed: bool) -> Vec<String> {
    let mut all = vec![];
    nodes(plan, &mut all);
    let mut found = vec![];
    // The total reads every matching row whatever the plan (and runs only for a full page).
    let counting = sql.contains("num_items");
    for (node, relation) in &all {
        if node == "Seq Scan" && BIG_TABLES.contains(&relation.as_str()) && !counting {
            found.push(format!("`{path}`: Seq Scan on {relation}"));
        }
    }
    let page = plan["Node Type"] == "Limit"
        && all
            .iter()
            .any(|(_, relation)| BIG_TABLES.contains(&relation.as_str()));
    if page && !sort_allowed && all.iter().any(|(node, _)| node == "Sort") {
        found.push(format!(
            "`{path}`: the page is sorted, not read from an index"
        ));
    }
    if page
        && !all
            .iter()
            .any(|(node, relation)| index_read(node) && BIG_TABLES.contains(&relation.as_str()))
    {
        found.push(format!("`{path}`: no index scan feeds the page"));
    }
    found
}

#[tokio::test]
async fn every_list_page_is_read_from_an_index_on_postgresql() {
    if !std::env::var("DATABASE_URL").is_ok_and(|u| u.starts_with("postgres")) {
        eprintln!(
            "SKIPPED: the list plans are PostgreSQL's planner's choice; the PostgreSQL run of \
             the suite (DATABASE_URL=postgres://...) checks them"
        );
        return;
    }
    let (boot, _db) = boot_with(StartMode::ServerOnly, without_answer_cache).await;
    let db = boot.app_context.db.clone();

    // The same app on a connection that keeps every statement it runs.
    let seen: Arc<Mutex<Vec<Statement>>> = Arc::default();
    let mut config = boot.app_context.config.clone();
    without_answer_cache(&mut config);
    let mut ctx = create_context::<App>(&Environment::Test, config)
        .await
        .unwrap();
    let sink = Arc::clone(&seen);
    ctx.db.set_metric_callback(move |info| {
        sink.lock().unwrap().push(info.statement.clone());
    });
    let watched = run_app::<App>(&StartMode::ServerOnly, ctx).await.unwrap();
    let server = TestServer::new_with_config(
        watched
            .router
            .unwrap()
            .into_make_service_with_connect_info::<SocketAddr>(),
        RequestConfig::default(),
    )
    .unwrap();

    let ann = register(&server, "Ann Lee", Some("Big Co")).await;
    let vendor = create_vendor(&server, &ann, "First Vendor").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let org = org_of(&boot.app_context, &ann).await;
    seed(&db, org.id).await;

    let lists = [
        ("/api/vendors?limit=25", false),
        ("/api/documents?limit=25", false),
        ("/api/documents?limit=25&offset=25", false),
        ("/api/activity-logs?limit=25", false),
        ("/api/reminders?limit=25", false),
        ("/api/reminders?limit=25&sort=-reminderDate", false),
        ("/api/documents?limit=25&sort=uploadedAt", false),
        ("/api/vendors?limit=25&sort=-name", false),
        // One vendor's versions: sorting them is sorting a handful of rows found by index.
        (&*format!("/api/vendors/{vendor}/documents?limit=25"), true),
    ];
    let mut found = vec![];
    for (path, sort_allowed) in lists {
        seen.lock().unwrap().clear();
        let res = get(&server, &ann, path).await;
        assert_eq!(res.status_code(), 200, "{path}: {}", res.text());
        let statements = std::mem::take(&mut *seen.lock().unwrap());
        let mut pages = 0;
        for statement in &statements {
            if !statement
                .sql
                .trim_start()
                .to_uppercase()
                .starts_with("SELECT")
            {
                continue;
            }
            let plan = explain(&db, statement).await;
            pages += usize::from(plan["Node Type"] == "Limit" && statement.sql.contains("LIMIT"));
            let faults = faults(path, &statement.sql, &plan, sort_allowed);
            if !faults.is_empty() {
                found.push(format!(
                    "{}\n    {}\n    {plan:#}",
                    faults.join("\n"),
                    statement.sql
                ));
            }
        }
        assert!(
            pages > 0,
            "`{path}` ran no paged statement: {statements:#?}"
        );
    }
    assert!(found.is_empty(), "{}", found.join("\n\n"));
}
