//! The blog: only admins change it (401 without a token, 403 for anyone else, nothing
//! changed), drafts never reach the public (API, pages, sitemap, feed), pages carry their
//! article and metadata in the HTML, old slugs redirect, views are counted in batches.

use axum_test::TestResponse;
use loco_rs::TestServer;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ConnectionTrait, EntityTrait, IntoActiveModel,
    PaginatorTrait,
};
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

/// A published post made by the admin `ops`, with these fields over `post_body`'s.
async fn publish(server: &TestServer, ops: &Account, fields: Value) -> Value {
    let mut body = post_body("Counted", true);
    for (k, v) in fields.as_object().unwrap() {
        body[k] = v.clone();
    }
    let res = send(server, ops, "POST", "/api/admin/blog-posts", Some(body)).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    res.json()
}

async fn views(server: &TestServer, ops: &Account) -> i64 {
    let stats: Value = send(server, ops, "GET", "/api/admin/blog-stats", None)
        .await
        .json();
    stats["views"].as_i64().unwrap()
}

async fn read_as(server: &TestServer, path: &str, user_agent: &str) -> u16 {
    server
        .get(path)
        .add_header(
            axum::http::header::USER_AGENT,
            axum::http::HeaderValue::from_str(user_agent).unwrap(),
        )
        .await
        .status_code()
        .as_u16()
}

#[tokio::test]
async fn a_reader_adds_one_view_a_day_however_often_they_read() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        publish(&server, &ops, json!({})).await;
        // One reader: the page and the app's API call alike, 300 times.
        for i in 0..300 {
            let path = if i % 2 == 0 {
                "/blog/counted"
            } else {
                "/api/blog-posts/counted"
            };
            assert_eq!(read_as(&server, path, "Reader One").await, 200);
        }
        assert_eq!(views(&server, &ops).await, 1);
        // Another reader (another browser), and the first one again after a write.
        assert_eq!(read_as(&server, "/blog/counted", "Reader Two").await, 200);
        assert_eq!(read_as(&server, "/blog/counted", "Reader One").await, 200);
        assert_eq!(views(&server, &ops).await, 2);
        let posts: Vec<blog_posts::Model> = blog_posts::Entity::find().all(&ctx.db).await.unwrap();
        assert_eq!(posts[0].views, 2);
    })
    .await;
}

#[tokio::test]
async fn hostile_text_in_a_title_description_or_tag_cannot_blank_the_post_page() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let hostile = "<!--<script> </script> & more";
        publish(
            &server,
            &ops,
            json!({"title": format!("Renewals {hostile}"), "slug": "hostile", "metaDescription": hostile, "tags": [hostile]}),
        )
        .await;
        let html = server.get("/blog/hostile").await.text();
        let open = "<script type=\"application/ld+json\">";
        let start = html.find(open).unwrap() + open.len();
        let end = start + html[start..].find("</script>").unwrap();
        let ld = &html[start..end];
        // Inside a script element `<!--<script>` would swallow the rest of the page.
        assert!(!ld.contains('<') && !ld.contains('>') && !ld.contains('&'), "{ld}");
        let parsed: Value = serde_json::from_str(ld).unwrap();
        assert_eq!(parsed["headline"], format!("Renewals {hostile}"));
        assert_eq!(parsed["keywords"], hostile);
        // The article still follows, inside #root, after the head.
        let root = html.find("<div id=\"root\">").unwrap();
        assert!(root > end, "the article comes after the JSON-LD");
        assert!(html[root..].contains("<h1>Renewals &lt;!--&lt;script&gt; &lt;/script&gt; &amp; more</h1>"), "{html}");
    })
    .await;
}

#[tokio::test]
async fn blog_pages_have_one_description_social_tags_and_a_feed_that_names_itself() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        publish(
            &server,
            &ops,
            json!({"title": "Renewal Season", "slug": "renewal-season"}),
        )
        .await;
        for path in ["/blog", "/blog/renewal-season"] {
            let html = server.get(path).await.text();
            let descriptions = html.matches("name=\"description\"").count();
            assert_eq!(descriptions, 1, "{path}: {html}");
            assert_eq!(html.matches("<title>").count(), 1, "{path}: {html}");
            assert!(
                html.contains("<meta property=\"og:image\" content=\""),
                "{path}"
            );
            assert!(html.contains("/og-image.png\">"), "{path}");
            assert!(
                html.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"),
                "{path}"
            );
        }
        let html = server.get("/blog/renewal-season").await.text();
        let open = "<script type=\"application/ld+json\">";
        let start = html.find(open).unwrap() + open.len();
        let end = start + html[start..].find("</script>").unwrap();
        let ld: Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(ld["publisher"]["@type"], "Organization");
        assert_eq!(ld["publisher"]["name"], "Vendorwatch");
        assert!(
            ld["image"].as_str().unwrap().ends_with("/og-image.png"),
            "{ld}"
        );

        let feed = server.get("/blog/rss.xml").await.text();
        let doc = roxmltree::Document::parse(&feed).unwrap_or_else(|e| panic!("{e}: {feed}"));
        let channel = doc
            .descendants()
            .find(|n| n.has_tag_name("channel"))
            .unwrap();
        let atom = "http://www.w3.org/2005/Atom";
        let this = channel
            .children()
            .find(|n| n.has_tag_name((atom, "link")))
            .unwrap();
        assert_eq!(this.attribute("rel"), Some("self"));
        assert!(this.attribute("href").unwrap().ends_with("/blog/rss.xml"));
        let language = channel
            .children()
            .find(|n| n.has_tag_name("language"))
            .unwrap();
        assert_eq!(language.text(), Some("en-us"));
        let sitemap = server.get("/sitemap.xml").await.text();
        roxmltree::Document::parse(&sitemap).unwrap_or_else(|e| panic!("{e}: {sitemap}"));
    })
    .await;
}

#[tokio::test]
async fn the_editor_refuses_control_characters_and_the_feed_survives_old_ones() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        let cases = [
            ("title", json!("Bad\u{1}title")),
            ("metaDescription", json!("Bad\u{8}")),
            ("slug", json!("bad\u{b}")),
            ("excerpt", json!("Bad\u{1b}[31m")),
            ("content", json!("Text\u{1}\n\nmore")),
        ];
        for (field, value) in cases {
            let mut body = post_body("Fine", true);
            body[field] = value;
            let res = send(&server, &ops, "POST", "/api/admin/blog-posts", Some(body)).await;
            let envelope = assert_envelope(&res, 422, "validation_failed");
            assert!(envelope["errors"][field].is_array(), "{field}: {envelope}");
        }
        assert_eq!(blog_posts::Entity::find().count(&ctx.db).await.unwrap(), 0);
        // Tabs and line breaks in the body are text, not control characters to refuse; a tag
        // is a label, cleaned of them.
        let mut fine = post_body("Fine", true);
        fine["content"] = json!("Line one\n\tindented\r\nline two");
        fine["tags"] = json!(["ren\u{7}ewals"]);
        let res = send(&server, &ops, "POST", "/api/admin/blog-posts", Some(fine)).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        assert_eq!(res.json::<Value>()["tags"], json!(["renewals"]));

        // A post saved before the editor refused them: the feed leaves them out.
        let post = blog_posts::Entity::find()
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        let mut old = post.into_active_model();
        old.title = Set("Old\u{1} \u{8}title\u{1b}".to_string());
        old.excerpt = Set("An\u{b} excerpt".to_string());
        old.update(&ctx.db).await.unwrap();
        let feed = server.get("/blog/rss.xml").await.text();
        roxmltree::Document::parse(&feed).unwrap_or_else(|e| panic!("{e}: {feed}"));
        assert!(feed.contains("<title>Old title</title>"), "{feed}");
    })
    .await;
}

#[tokio::test]
async fn a_database_that_fails_is_an_error_page_not_a_missing_post() {
    with_app(|server, ctx| async move {
        let ops = register(&server, "Olga Ops", None).await;
        make_admin(&ctx, &ops).await;
        publish(
            &server,
            &ops,
            json!({"title": "Renewal Season", "slug": "renewal-season"}),
        )
        .await;
        ctx.db
            .execute_unprepared("ALTER TABLE blog_posts RENAME TO blog_posts_away")
            .await
            .unwrap();
        for path in ["/blog/renewal-season", "/blog"] {
            let page = server.get(path).await;
            assert_eq!(page.status_code(), 500, "{path}");
            let html = page.text();
            assert!(html.contains("Something went wrong"), "{html}");
            assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));
        }
        ctx.db
            .execute_unprepared("ALTER TABLE blog_posts_away RENAME TO blog_posts")
            .await
            .unwrap();
        assert_eq!(server.get("/blog/renewal-season").await.status_code(), 200);
        assert_eq!(server.get("/blog/no-such-post").await.status_code(), 404);
    })
    .await;
}
