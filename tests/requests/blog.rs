//! The blog: only admins change it (401 without a token, 403 for anyone else, nothing
//! changed), drafts never reach the public (API, pages, sitemap, feed), pages carry their
//! article and metadata in the HTML, old slugs redirect, views are counted in batches.

use axum_test::TestResponse;
use loco_rs::TestServer;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::models::_entities::blog_posts;

use crate::support::{assert_envelope, bearer, make_admin, register, with_app, Account};

async fn send(
    server: &TestServer,
    account: &Account,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> TestResponse {
    let (h, v) = bearer(&account.token);
    let req = match method {
        "POST" => server.post(path),
        "PUT" => server.put(path),
        "DELETE" => server.delete(path),
        _ => server.get(path),
    }
    .add_header(h, v);
    match body {
        Some(b) => req.json(&b).await,
        None => req.await,
    }
}

fn post_body(title: &str, published: bool) -> Value {
    json!({
        "title": title,
        "content": "# Renewals\n\nKeep every **certificate** current. <script>alert(1)</script>",
        "tags": ["coi", "renewals"],
        "metaDescription": "How to keep certificates of insurance current.",
        "published": published,
    })
}

#[tokio::test]
async fn only_an_admin_changes_the_blog() {
    with_app(|server, ctx| async move {
        let ann = register(&server, "Ann User", None).await;
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let created = send(
            &server,
            &ops,
            "POST",
            "/api/admin/blog-posts",
            Some(post_body("Renewal Season", false)),
        )
        .await;
        assert_eq!(created.status_code(), 201, "{}", created.text());
        let id = created.json::<Value>()["id"].as_i64().unwrap();
        for (method, path, body) in [
            ("GET", "/api/admin/blog-posts".to_string(), None),
            ("GET", "/api/admin/blog-stats".to_string(), None),
            (
                "POST",
                "/api/admin/blog-posts".to_string(),
                Some(post_body("Sneaky", true)),
            ),
            (
                "PUT",
                format!("/api/admin/blog-posts/{id}"),
                Some(json!({"status": "published"})),
            ),
            ("DELETE", format!("/api/admin/blog-posts/{id}"), None),
        ] {
            assert_envelope(
                &send(&server, &ann, method, &path, body.clone()).await,
                403,
                "forbidden",
            );
            let anonymous = match method {
                "POST" => server.post(&path).json(&body).await,
                "PUT" => server.put(&path).json(&body).await,
                "DELETE" => server.delete(&path).await,
                _ => server.get(&path).await,
            };
            assert_envelope(&anonymous, 401, "unauthorized");
        }
        let post = blog_posts::Entity::find_by_id(id)
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(post.status, "draft", "nothing changed");
        assert_eq!(blog_posts::Entity::find().count(&ctx.db).await.unwrap(), 1);

        let empty = send(
            &server,
            &ops,
            "POST",
            "/api/admin/blog-posts",
            Some(json!({"title": "", "content": ""})),
        )
        .await;
        let body = assert_envelope(&empty, 422, "validation_failed");
        assert_eq!(
            body["message"],
            "Please fill in both title and content fields."
        );
        let long = send(
            &server,
            &ops,
            "POST",
            "/api/admin/blog-posts",
            Some(json!({"title": "T", "content": "c", "metaDescription": "x".repeat(161)})),
        )
        .await;
        assert_envelope(&long, 422, "validation_failed");
        assert_envelope(
            &send(
                &server,
                &ops,
                "POST",
                "/api/admin/blog-posts",
                Some(json!({"title": "T", "content": "c", "extra": 1})),
            )
            .await,
            400,
            "invalid_body",
        );
        assert_eq!(blog_posts::Entity::find().count(&ctx.db).await.unwrap(), 1);
    })
    .await;
}

#[tokio::test]
async fn drafts_stay_private_and_published_posts_are_everywhere_they_should_be() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let draft: Value = send(
            &server,
            &ops,
            "POST",
            "/api/admin/blog-posts",
            Some(post_body("Secret Draft", false)),
        )
        .await
        .json();
        let live: Value = send(
            &server,
            &ops,
            "POST",
            "/api/admin/blog-posts",
            Some(post_body("Renewal Season", false)),
        )
        .await
        .json();
        let id = live["id"].as_i64().unwrap();
        let published = send(
            &server,
            &ops,
            "PUT",
            &format!("/api/admin/blog-posts/{id}"),
            Some(json!({"status": "published"})),
        )
        .await;
        assert_eq!(published.json::<Value>()["status"], "published");

        let list = server.get("/api/blog-posts").await;
        assert_eq!(list.header("x-total-count"), "1");
        let list: Value = list.json();
        assert_eq!(list[0]["slug"], "renewal-season");
        assert!(list[0].get("content").is_none());
        assert_envelope(
            &server
                .get(&format!(
                    "/api/blog-posts/{}",
                    draft["slug"].as_str().unwrap()
                ))
                .await,
            404,
            "not_found",
        );
        let one: Value = server.get("/api/blog-posts/renewal-season").await.json();
        assert!(one["html"]
            .as_str()
            .unwrap()
            .contains("<strong>certificate</strong>"));
        assert!(
            !one["html"].as_str().unwrap().contains("<script"),
            "sanitised"
        );
        assert_eq!(one["tags"], json!(["coi", "renewals"]));

        let sitemap = server.get("/sitemap.xml").await.text();
        assert!(
            sitemap.contains("/blog/renewal-season") && !sitemap.contains("secret-draft"),
            "{sitemap}"
        );
        let feed = server.get("/blog/rss.xml").await.text();
        assert!(feed.contains("<title>Renewal Season</title>") && !feed.contains("Secret Draft"));
        assert!(server.get("/robots.txt").await.text().contains("Sitemap: "));
        assert_eq!(server.get("/blog/secret-draft").await.status_code(), 404);

        let all = send(&server, &ops, "GET", "/api/admin/blog-posts", None).await;
        assert_eq!(
            all.header("x-total-count"),
            "2",
            "the admin sees drafts too"
        );

        // Back to draft through the editor: gone from the public again.
        let mut edit = post_body("Renewal Season", false);
        edit["published"] = json!(false);
        let reverted = send(
            &server,
            &ops,
            "PUT",
            &format!("/api/admin/blog-posts/{id}"),
            Some(edit),
        )
        .await;
        assert_eq!(reverted.json::<Value>()["status"], "draft");
        assert_eq!(
            server.get("/api/blog-posts").await.header("x-total-count"),
            "0"
        );
        assert!(!server
            .get("/sitemap.xml")
            .await
            .text()
            .contains("renewal-season"));
    })
    .await;
}

#[tokio::test]
async fn a_post_page_carries_its_article_and_metadata_for_crawlers_and_old_slugs_redirect() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let post: Value = send(&server, &ops, "POST", "/api/admin/blog-posts", Some(post_body("Renewal Season", true))).await.json();
        let page = server.get("/blog/renewal-season").await;
        assert_eq!(page.status_code(), 200);
        let html = page.text();
        assert!(html.contains("<title>Renewal Season - Vendorwatch</title>"), "{html}");
        assert!(html.contains("<meta name=\"description\" content=\"How to keep certificates of insurance current.\">"));
        assert!(html.contains("<link rel=\"canonical\" href=\"") && html.contains("/blog/renewal-season\">"));
        assert!(html.contains("<meta property=\"og:title\" content=\"Renewal Season\">"));
        assert!(html.contains("Keep every <strong>certificate</strong> current."), "the article is in the HTML");
        assert!(!html.contains("alert(1)"));
        let start = html.find("<script type=\"application/ld+json\">").unwrap() + "<script type=\"application/ld+json\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let ld: Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(ld["@type"], "BlogPosting");
        assert_eq!(ld["headline"], "Renewal Season");
        assert!(server.get("/blog").await.text().contains("href=\"/blog/renewal-season\""));

        let id = post["id"].as_i64().unwrap();
        let mut edit = post_body("Renewal Season", true);
        edit["slug"] = json!("renewals-explained");
        let moved: Value = send(&server, &ops, "PUT", &format!("/api/admin/blog-posts/{id}"), Some(edit)).await.json();
        assert_eq!(moved["slug"], "renewals-explained");
        let old = server.get("/blog/renewal-season").await;
        assert_eq!(old.status_code(), 301);
        assert_eq!(old.header("location"), "/blog/renewals-explained");
        let api: Value = server.get("/api/blog-posts/renewal-season").await.json();
        assert_eq!(api["slug"], "renewals-explained", "the API answers an old slug with the current one");
    })
    .await;
}

#[tokio::test]
async fn views_are_counted_in_batches() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        send(
            &server,
            &ops,
            "POST",
            "/api/admin/blog-posts",
            Some(post_body("Counted", true)),
        )
        .await;
        for _ in 0..3 {
            assert_eq!(
                server.get("/api/blog-posts/counted").await.status_code(),
                200
            );
        }
        let stats: Value = send(&server, &ops, "GET", "/api/admin/blog-stats", None)
            .await
            .json();
        assert_eq!(stats["posts"], 1);
        assert_eq!(stats["published"], 1);
        assert!(stats["views"].as_i64().unwrap() >= 3, "{stats}");
    })
    .await;
}
