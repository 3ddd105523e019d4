//! `limit` and `offset` on every list endpoint, and the filters and counts the lists compute in
//! SQL: the same rows and totals as the screens expect, on `SQLite` and `PostgreSQL`.

use loco_rs::app::AppContext;
use serde_json::{json, Value};
use vendorwatch::models::{organizations, users};

use crate::support::{
    assert_envelope, create_vendor, get, in_days, register, upload, with_app, Account, UploadSpec,
};

/// Uploads a document of `slot` (`w9`, `sales_tax`, `vendor_agreement`, or a COI type) expiring
/// in `days` (no date for `None`).
async fn document(
    server: &axum_test::TestServer,
    ann: &Account,
    vendor: &str,
    slot: &str,
    days: Option<i64>,
) {
    let mut spec = match slot {
        "general_liability" | "workers_comp" | "automobile" => {
            let mut s = UploadSpec::pdf("coi");
            s.coi_type = Some(slot);
            s
        }
        other => UploadSpec::pdf(other),
    };
    spec.expiration_date = days.map(in_days);
    let res = upload(server, ann, vendor, &spec).await;
    assert_eq!(res.status_code(), 201, "upload: {}", res.text());
}

/// Moves the account's organization to the Professional plan (more than 2 vendors).
async fn professional(ctx: &AppContext, ann: &Account) {
    let user = users::Model::find_by_email(&ctx.db, &ann.email)
        .await
        .unwrap();
    let org = user.organization(&ctx.db).await.unwrap();
    sea_orm::IntoActiveModel::into_active_model(org)
        .set_plan(&ctx.db, organizations::Plan::Professional)
        .await
        .unwrap();
}

/// Vendors named so that the list's order (by name) is the alphabet, with one status each.
async fn vendors_of_every_status(
    server: &axum_test::TestServer,
    ctx: &AppContext,
    ann: &Account,
) -> Vec<String> {
    professional(ctx, ann).await;
    let mut ids = vec![];
    for name in [
        "A expired",
        "B expiring",
        "C current",
        "D missing",
        "E expired and current",
        "F on file",
        "G expiring and current",
        "H expired today",
    ] {
        ids.push(
            create_vendor(server, ann, name).await["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    document(server, ann, &ids[0], "sales_tax", Some(-3)).await;
    document(server, ann, &ids[1], "general_liability", Some(30)).await;
    document(server, ann, &ids[2], "w9", Some(31)).await;
    document(server, ann, &ids[4], "w9", Some(200)).await;
    document(server, ann, &ids[4], "vendor_agreement", Some(-40)).await;
    document(server, ann, &ids[5], "w9", None).await;
    document(server, ann, &ids[6], "w9", Some(90)).await;
    document(server, ann, &ids[6], "automobile", Some(1)).await;
    document(server, ann, &ids[7], "sales_tax", Some(0)).await;
    ids
}

fn names(rows: &[Value], field: &str) -> Vec<String> {
    rows.iter()
        .map(|r| r[field].as_str().unwrap().to_string())
        .collect()
}

/// Every page of `path` with `limit`, in order, and the totals each page sent.
async fn pages(
    server: &axum_test::TestServer,
    ann: &Account,
    path: &str,
    limit: usize,
) -> (Vec<Value>, Vec<String>) {
    let sep = if path.contains('?') { '&' } else { '?' };
    let (mut rows, mut totals) = (vec![], vec![]);
    for offset in (0..).step_by(limit) {
        let res = get(
            server,
            ann,
            &format!("{path}{sep}limit={limit}&offset={offset}"),
        )
        .await;
        assert_eq!(res.status_code(), 200, "{path}: {}", res.text());
        totals.push(res.header("x-total-count").to_str().unwrap().to_string());
        let page: Vec<Value> = res.json();
        assert!(page.len() <= limit);
        let last = page.len() < limit;
        rows.extend(page);
        if last {
            break;
        }
    }
    (rows, totals)
}

const LISTS: [&str; 4] = [
    "/api/vendors",
    "/api/documents",
    "/api/activity-logs",
    "/api/reminders",
];

async fn every_list(server: &axum_test::TestServer, ann: &Account) -> Vec<String> {
    let vendor = create_vendor(server, ann, "Paging Co").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    create_vendor(server, ann, "Other Co").await;
    document(server, ann, &vendor, "w9", Some(100)).await;
    document(server, ann, &vendor, "w9", Some(120)).await;
    document(server, ann, &vendor, "sales_tax", Some(60)).await;
    let mut lists: Vec<String> = LISTS.iter().map(ToString::to_string).collect();
    lists.push(format!("/api/vendors/{vendor}/documents"));
    lists
}

#[tokio::test]
async fn an_offset_without_a_limit_answers_the_rest_of_every_list() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        for path in every_list(&server, &ann).await {
            let all = get(&server, &ann, &path).await;
            assert_eq!(all.status_code(), 200, "{path}");
            let all: Vec<Value> = all.json();
            assert!(all.len() >= 2, "{path} has rows to skip");
            let res = get(&server, &ann, &format!("{path}?offset=1")).await;
            assert_eq!(res.status_code(), 200, "{path}?offset=1: {}", res.text());
            assert_eq!(
                res.header("x-total-count"),
                all.len().to_string().as_str(),
                "{path}"
            );
            assert_eq!(res.json::<Vec<Value>>(), all[1..].to_vec(), "{path}");
        }
    })
    .await;
}

#[tokio::test]
async fn limits_and_offsets_beyond_any_row_count_are_never_server_errors() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        for path in every_list(&server, &ann).await {
            let all: Vec<Value> = get(&server, &ann, &path).await.json();
            let total = all.len().to_string();
            // (query, whether every row answers; otherwise none does)
            for (query, everything) in [
                ("limit=18446744073709551615", true),
                ("limit=9223372036854775807", true),
                ("limit=9223372036854775808", true),
                ("offset=9223372036854775808", false),
                ("offset=9223372036854775807", false),
                ("offset=18446744073709551615", false),
                (
                    "limit=9223372036854775807&offset=9223372036854775807",
                    false,
                ),
                (
                    "limit=18446744073709551615&offset=18446744073709551615",
                    false,
                ),
                ("limit=1&offset=18446744073709551615", false),
                ("limit=0", false),
            ] {
                let res = get(&server, &ann, &format!("{path}?{query}")).await;
                let status = res.status_code().as_u16();
                assert!(
                    status == 200 || status == 400,
                    "{path}?{query}: {status} {}",
                    res.text()
                );
                if status == 400 {
                    assert_envelope(&res, 400, "bad_request");
                    continue;
                }
                assert_eq!(
                    res.header("x-total-count"),
                    total.as_str(),
                    "{path}?{query}"
                );
                let rows: Vec<Value> = res.json();
                let expected = if everything { all.clone() } else { vec![] };
                assert_eq!(rows, expected, "{path}?{query}");
            }
        }
    })
    .await;
}

#[tokio::test]
async fn negative_limits_and_offsets_are_a_400_envelope() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        for path in every_list(&server, &ann).await {
            for query in ["limit=-1", "offset=-1", "limit=-1&offset=-5", "limit=ten"] {
                let res = get(&server, &ann, &format!("{path}?{query}")).await;
                assert_envelope(&res, 400, "bad_request");
            }
        }
    })
    .await;
}

#[tokio::test]
async fn vendors_filtered_by_status_come_in_name_order_and_page_in_windows() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        vendors_of_every_status(&server, &ctx, &ann).await;
        for (status, expected) in [
            (
                "expired",
                vec!["A expired", "E expired and current", "H expired today"],
            ),
            (
                "expiring_soon",
                vec!["B expiring", "G expiring and current"],
            ),
            ("current", vec!["C current", "F on file"]),
            ("missing", vec!["D missing"]),
        ] {
            let res = get(&server, &ann, &format!("/api/vendors?status={status}")).await;
            assert_eq!(
                res.header("x-total-count"),
                expected.len().to_string().as_str()
            );
            let rows: Vec<Value> = res.json();
            assert_eq!(names(&rows, "name"), expected, "{status}");
            assert!(rows.iter().all(|r| r["documentStatus"] == status));
        }
        let all: Vec<Value> = get(&server, &ann, "/api/vendors").await.json();
        assert_eq!(all.len(), 8);
        let g = &all[6];
        assert_eq!(g["documentCount"], 2);
        assert_eq!(g["slots"].as_array().unwrap().len(), 7);
        assert_eq!(g["slots"][0]["status"], "current");
        assert_eq!(g["slots"][3]["status"], "expiring_soon");
        assert!(g["slots"][3]["documentId"].is_string());
        assert_eq!(g["slots"][1]["status"], "missing");
        assert!(g["slots"][1].get("documentId").is_none());

        for (path, limit) in [
            ("/api/vendors", 3),
            ("/api/vendors?status=expired", 2),
            ("/api/vendors?status=expiring_soon", 1),
            ("/api/vendors?status=current&q=c", 1),
            ("/api/vendors?q=EXPIRED", 2),
            ("/api/documents?status=expired", 1),
            ("/api/documents?status=current", 2),
            ("/api/documents?type=w9&q=certificate", 2),
        ] {
            let whole = get(&server, &ann, path).await;
            let total = whole.header("x-total-count").to_str().unwrap().to_string();
            let whole: Vec<Value> = whole.json();
            let (paged, totals) = pages(&server, &ann, path, limit).await;
            assert_eq!(paged, whole, "{path} in pages of {limit}");
            assert!(
                totals.iter().all(|t| *t == total),
                "{path}: {totals:?} vs {total}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn search_and_status_filters_count_what_they_answer() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let ids = vendors_of_every_status(&server, &ctx, &ann).await;
        let count = |path: String| {
            let server = &server;
            let ann = &ann;
            async move {
                let res = get(server, ann, &path).await;
                assert_eq!(res.status_code(), 200, "{path}");
                let total: usize = res
                    .header("x-total-count")
                    .to_str()
                    .unwrap()
                    .parse()
                    .unwrap();
                let rows: Vec<Value> = res.json();
                assert_eq!(rows.len(), total, "{path}");
                rows
            }
        };
        // The vendor search looks in the name, email, service type and company key.
        assert_eq!(count("/api/vendors?q=%20expiring%20".into()).await.len(), 2);
        assert_eq!(count("/api/vendors?q=ACME-PLUMBING".into()).await.len(), 8);
        assert_eq!(count("/api/vendors?q=Plumb".into()).await.len(), 8);
        let by_key = count(format!("/api/vendors?q={}", ids[3].to_lowercase())).await;
        assert!(names(&by_key, "id").contains(&ids[3]));
        assert_eq!(count("/api/vendors?q=100%25".into()).await.len(), 0);
        assert_eq!(
            count("/api/vendors?q=expired&status=current".into())
                .await
                .len(),
            0
        );
        assert_eq!(count("/api/vendors?status=all".into()).await.len(), 8);
        assert_eq!(
            get(&server, &ann, "/api/vendors?status=lost")
                .await
                .status_code(),
            422
        );
        // Documents: expired includes the one expiring today; history versions are not listed.
        assert_eq!(count("/api/documents".into()).await.len(), 9);
        assert_eq!(count("/api/documents?status=expired".into()).await.len(), 3);
        assert_eq!(
            count("/api/documents?status=expiring_soon".into())
                .await
                .len(),
            2
        );
        assert_eq!(count("/api/documents?status=current".into()).await.len(), 4);
        assert_eq!(count("/api/documents?status=missing".into()).await.len(), 0);
        assert_eq!(
            count("/api/documents?status=expired&type=sales_tax".into())
                .await
                .len(),
            2
        );
        assert_eq!(count("/api/documents?q=automobile".into()).await.len(), 1);
        // As the screens label them, and by the vendor's name.
        let cois = count("/api/documents?q=certificate%20OF%20insurance".into()).await;
        assert_eq!(cois.len(), 2);
        assert!(cois.iter().all(|d| d["documentType"] == "coi"));
        assert_eq!(count("/api/documents?q=insur".into()).await.len(), 2);
        assert_eq!(count("/api/documents?q=W9%20form".into()).await.len(), 4);
        assert_eq!(
            count("/api/documents?q=workers%20comp".into()).await.len(),
            0
        );
        let g = count("/api/documents?q=EXPIRING%20and%20current".into()).await;
        assert_eq!(names(&g, "vendor"), ["G expiring and current"; 2]);
        let (h, v) = crate::support::bearer(&ann.token);
        let mut body = crate::support::vendor_body("Zed Builders");
        body["serviceType"] = json!("general-contractor");
        assert_eq!(
            server
                .post("/api/vendors")
                .add_header(h, v)
                .json(&body)
                .await
                .status_code(),
            201
        );
        let builders = count("/api/vendors?q=general%20CONTRACTOR".into()).await;
        assert_eq!(names(&builders, "name"), ["Zed Builders"]);
        assert_eq!(count("/api/vendors?q=pest%20control".into()).await.len(), 0);
        document(&server, &ann, &ids[2], "w9", Some(400)).await;
        assert_eq!(count("/api/documents?type=w9".into()).await.len(), 4);
        assert_eq!(
            count(format!("/api/vendors/{}/documents", ids[2]))
                .await
                .len(),
            2
        );
    })
    .await;
}

#[tokio::test]
async fn dashboard_stats_count_every_status_and_week_boundary() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        vendors_of_every_status(&server, &ctx, &ann).await;
        let stats: Value = get(&server, &ann, "/api/dashboard/stats").await.json();
        assert_eq!(stats["totalVendors"], 8);
        assert_eq!(stats["compliantVendors"], 2);
        assert_eq!(stats["expiringVendors"], 2);
        assert_eq!(stats["nonCompliantVendors"], 4, "3 expired and 1 missing");
        // Missing: each vendor's requested slots without a current document, as the vendor
        // list's slots tell.
        let vendors: Vec<Value> = get(&server, &ann, "/api/vendors").await.json();
        let missing: usize = vendors
            .iter()
            .map(|v| {
                let required = v["requiredDocuments"].as_array().unwrap();
                v["slots"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|s| s["status"] == "missing" && required.contains(&s["slot"]))
                    .count()
            })
            .sum();
        assert!(missing > 0);
        assert_eq!(
            stats["documentsByStatus"],
            json!({"current": 4, "expiringSoon": 2, "expired": 3, "missing": missing})
        );
        // Days 0 and 1, then 30 and 31, in spans of 15 days; day 90 is past the last span.
        let spans = stats["upcomingExpirations"].as_array().unwrap();
        let counts: Vec<u64> = spans.iter().map(|s| s["count"].as_u64().unwrap()).collect();
        assert_eq!(counts, vec![2, 0, 2, 0, 0, 0]);
        assert_eq!(spans[0]["start"], in_days(0).as_str());
        assert_eq!(spans[0]["end"], in_days(14).as_str());
        assert_eq!(spans[5]["start"], in_days(75).as_str());
        assert_eq!(spans[5]["end"], in_days(89).as_str());
        let weeks: Vec<u64> = stats["expirationsNext90Days"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["count"].as_u64().unwrap())
            .collect();
        // Days 0, 1, 30, 31 and 90: weeks 0, 0, 4, 4 and 12 (day 200 and the past are out).
        assert_eq!(weeks, vec![2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(
            stats["expirationsNext90Days"][1]["weekStart"],
            in_days(7).as_str()
        );
    })
    .await;
}

/// `(rank of a status, its value)` as the lists order them: by severity.
fn severity(status: &str) -> u8 {
    match status {
        "current" => 0,
        "expiring_soon" => 1,
        "expired" => 2,
        _ => 3,
    }
}

/// Checks that `rows` are ordered by `key` (ascending, or descending), and answer the same in
/// pages of 3.
async fn sorted_by<K: Ord + std::fmt::Debug>(
    server: &axum_test::TestServer,
    ann: &Account,
    path: &str,
    descending: bool,
    key: impl Fn(&Value) -> K,
) -> Vec<Value> {
    let res = get(server, ann, path).await;
    assert_eq!(res.status_code(), 200, "{path}: {}", res.text());
    let rows: Vec<Value> = res.json();
    let keys: Vec<K> = rows.iter().map(&key).collect();
    let ordered = keys.windows(2).all(|w| {
        if descending {
            w[0] >= w[1]
        } else {
            w[0] <= w[1]
        }
    });
    assert!(ordered, "{path}: {keys:?}");
    let (paged, _) = pages(server, ann, path, 3).await;
    assert_eq!(paged, rows, "{path} in pages of 3");
    rows
}

#[tokio::test]
async fn vendors_sort_on_the_server_by_each_column_and_page_in_that_order() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        vendors_of_every_status(&server, &ctx, &ann).await;
        let vendor_names = |path: &'static str| {
            let (server, ann) = (&server, &ann);
            async move { names(&get(server, ann, path).await.json::<Vec<Value>>(), "name") }
        };
        // By severity, ties in the order the vendors were added (by id); reversed whole.
        let by_status = [
            "C current",
            "F on file",
            "B expiring",
            "G expiring and current",
            "A expired",
            "E expired and current",
            "H expired today",
            "D missing",
        ];
        assert_eq!(vendor_names("/api/vendors?sort=status").await, by_status);
        let mut reversed = by_status;
        reversed.reverse();
        assert_eq!(vendor_names("/api/vendors?sort=-status").await, reversed);
        assert_eq!(
            vendor_names("/api/vendors?sort=documentCount").await,
            [
                "D missing",
                "A expired",
                "B expiring",
                "C current",
                "F on file",
                "H expired today",
                "E expired and current",
                "G expiring and current",
            ]
        );
        let by_name = vendor_names("/api/vendors").await;
        assert_eq!(vendor_names("/api/vendors?sort=name").await, by_name);
        let mut by_name_desc = by_name.clone();
        by_name_desc.reverse();
        assert_eq!(vendor_names("/api/vendors?sort=-name").await, by_name_desc);
        sorted_by(&server, &ann, "/api/vendors?sort=-status&q=e", true, |v| {
            severity(v["documentStatus"].as_str().unwrap())
        })
        .await;
        sorted_by(
            &server,
            &ann,
            "/api/vendors?sort=-documentCount&status=expired",
            true,
            |v| v["documentCount"].as_u64(),
        )
        .await;
        for (path, descending) in [
            ("/api/vendors?sort=updatedAt", false),
            ("/api/vendors?sort=-updatedAt", true),
            ("/api/vendors?sort=serviceType&q=e", false),
        ] {
            let field = if path.contains("updatedAt") {
                "updatedAt"
            } else {
                "serviceType"
            };
            sorted_by(&server, &ann, path, descending, |v| {
                v[field].as_str().unwrap().to_string()
            })
            .await;
        }
    })
    .await;
}

#[tokio::test]
async fn documents_sort_on_the_server_by_each_column_and_anything_else_is_a_422() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        vendors_of_every_status(&server, &ctx, &ann).await;
        // Documents: no expiration date comes last in both directions.
        let date = |d: &Value| {
            (
                d["expirationDate"].is_null(),
                d["expirationDate"].as_str().map(String::from),
            )
        };
        let asc = sorted_by(
            &server,
            &ann,
            "/api/documents?sort=expirationDate",
            false,
            date,
        )
        .await;
        assert_eq!(asc.len(), 9);
        let desc = get(&server, &ann, "/api/documents?sort=-expirationDate").await;
        let desc: Vec<Value> = desc.json();
        assert!(desc[8]["expirationDate"].is_null(), "{desc:?}");
        let dated: Vec<Option<&str>> = desc[..8]
            .iter()
            .map(|d| d["expirationDate"].as_str())
            .collect();
        let mut expected: Vec<Option<&str>> = asc[..8]
            .iter()
            .map(|d| d["expirationDate"].as_str())
            .collect();
        expected.reverse();
        assert_eq!(dated, expected);
        sorted_by(&server, &ann, "/api/documents?sort=status", false, |d| {
            severity(d["status"].as_str().unwrap())
        })
        .await;
        sorted_by(&server, &ann, "/api/documents?sort=-vendor", true, |d| {
            d["vendor"].as_str().unwrap().to_lowercase()
        })
        .await;
        sorted_by(
            &server,
            &ann,
            "/api/documents?sort=documentType&status=current",
            false,
            |d| d["documentType"].as_str().unwrap().to_string(),
        )
        .await;
        sorted_by(&server, &ann, "/api/documents?sort=fileName", false, |d| {
            d["fileName"].as_str().unwrap().to_lowercase()
        })
        .await;
        let newest: Vec<Value> = get(&server, &ann, "/api/documents").await.json();
        let sorted: Vec<Value> = get(&server, &ann, "/api/documents?sort=-uploadedAt")
            .await
            .json();
        assert_eq!(newest, sorted, "newest first is the default");
        let oldest: Vec<Value> = get(&server, &ann, "/api/documents?sort=uploadedAt")
            .await
            .json();
        assert_eq!(oldest.into_iter().rev().collect::<Vec<_>>(), newest);

        // Anything else is a 422 naming the parameter.
        for path in [
            "/api/vendors?sort=bogus",
            "/api/vendors?sort=--name",
            "/api/vendors?sort=Name",
            "/api/vendors?sort=-",
            "/api/documents?sort=name",
            "/api/documents?sort=uploaded_at",
        ] {
            let res = get(&server, &ann, path).await;
            assert_envelope(&res, 422, "validation_failed");
            let body: Value = res.json();
            assert!(
                body["errors"]["sort"][0]
                    .as_str()
                    .unwrap()
                    .starts_with("Sort by one of"),
                "{path}: {body}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn reminders_sort_on_the_server_by_each_column() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        vendors_of_every_status(&server, &ctx, &ann).await;
        let all: Vec<Value> = get(&server, &ann, "/api/reminders").await.json();
        assert!(all.len() >= 6, "{}", all.len());
        let date = |r: &Value| r["reminderDate"].as_str().unwrap().to_string();
        sorted_by(&server, &ann, "/api/reminders", false, date).await;
        sorted_by(
            &server,
            &ann,
            "/api/reminders?sort=-reminderDate",
            true,
            date,
        )
        .await;
        let vendor = |r: &Value| r["document"]["vendor"].as_str().unwrap().to_lowercase();
        sorted_by(&server, &ann, "/api/reminders?sort=vendor", false, vendor).await;
        sorted_by(&server, &ann, "/api/reminders?sort=-vendor", true, vendor).await;
        let kind = |r: &Value| r["document"]["documentType"].as_str().unwrap().to_string();
        sorted_by(
            &server,
            &ann,
            "/api/reminders?sort=documentType",
            false,
            kind,
        )
        .await;
        let expires = |r: &Value| {
            let d = &r["document"]["expirationDate"];
            (d.is_null(), d.as_str().map(String::from))
        };
        sorted_by(
            &server,
            &ann,
            "/api/reminders?sort=expirationDate",
            false,
            expires,
        )
        .await;
        let status = |r: &Value| severity(r["document"]["status"].as_str().unwrap());
        sorted_by(&server, &ann, "/api/reminders?sort=status", false, status).await;
        sorted_by(&server, &ann, "/api/reminders?sort=-status", true, status).await;
        let sent = |r: &Value| r["sent"].as_bool().unwrap();
        sorted_by(&server, &ann, "/api/reminders?sort=sent", false, sent).await;
        for path in ["/api/reminders?sort=when", "/api/reminders?sort=--vendor"] {
            let res = get(&server, &ann, path).await;
            assert_envelope(&res, 422, "validation_failed");
        }
    })
    .await;
}
