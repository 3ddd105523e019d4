//! AI drafts and the weekly plan (admins only), against an OpenAI-shaped server of the test's
//! own (`tests/support/openai.rs`); the test config runs jobs in the foreground, so a queued
//! draft is written before the call answers.

use loco_rs::{app::AppContext, bgworker::BackgroundWorker, task::Task, TestServer};
use sea_orm::{
    ActiveModelTrait, ActiveValue, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter,
};
use serde_json::{json, Value};
use vendorwatch::{
    models::{
        _entities::{blog_posts, generation_jobs, keywords, weekly_plans},
        generation_jobs::Model as GenerationJob,
    },
    tasks::content_schedule::ContentSchedule,
    workers::generate_post::{GeneratePostArgs, GeneratePostWorker},
};

use crate::support::{
    assert_envelope, bearer, make_admin, openai,
    openai::{Answer, OpenAiFake},
    register, with_app, with_app_config, Account,
};

async fn with_ai<F, Fut>(test: F)
where
    F: FnOnce(TestServer, AppContext, OpenAiFake) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let fake = OpenAiFake::start().await;
    let for_config = fake.clone();
    with_app_config(
        move |config| openai::configure(config, &for_config),
        |server, ctx| test(server, ctx, fake),
    )
    .await;
}

async fn admin(server: &TestServer, ctx: &AppContext) -> Account {
    let ops = register(server, "Olga Ops", None).await;
    make_admin(ctx, &ops).await;
    ops
}

async fn call(
    server: &TestServer,
    who: &Account,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> axum_test::TestResponse {
    let (h, v) = bearer(&who.token);
    let req = match method {
        "POST" => server.post(path),
        "DELETE" => server.delete(path),
        _ => server.get(path),
    }
    .add_header(h, v);
    match body {
        Some(b) => req.json(&b).await,
        None => req.await,
    }
}

/// `POST /api/admin/generate-weekly-plan` of `posts` a week.
async fn start_plan(server: &TestServer, who: &Account, posts: i64) -> axum_test::TestResponse {
    call(
        server,
        who,
        "POST",
        "/api/admin/generate-weekly-plan",
        Some(json!({"postsPerWeek": posts})),
    )
    .await
}

async fn generate(server: &TestServer, who: &Account, keywords: &[&str]) -> Value {
    let res = call(
        server,
        who,
        "POST",
        "/api/admin/generate-content",
        Some(json!({"targetKeywords": keywords})),
    )
    .await;
    assert_eq!(res.status_code(), 202, "{}", res.text());
    let id = res.json::<Value>()["jobId"].as_i64().unwrap();
    let job = call(
        server,
        who,
        "GET",
        &format!("/api/admin/generation-jobs/{id}"),
        None,
    )
    .await;
    assert_eq!(job.status_code(), 200);
    job.json()
}

async fn count_posts(ctx: &AppContext) -> u64 {
    blog_posts::Entity::find().count(&ctx.db).await.unwrap()
}

#[tokio::test]
async fn only_an_admin_reaches_the_content_engine() {
    with_ai(|server, ctx, fake| async move {
        // An admin's plan and draft exist; nobody else may read, start, cancel or add to them.
        let ops = admin(&server, &ctx).await;
        upload_keywords(&server, &ops).await;
        assert_eq!(start_plan(&server, &ops, 5).await.status_code(), 201);
        let draft = generate(&server, &ops, &["admin only"]).await;
        let before = fake.requests().len();
        let jobs_before = generation_jobs::Entity::find().all(&ctx.db).await.unwrap();
        let ann = register(&server, "Ann User", None).await;
        let one_job = format!("/api/admin/generation-jobs/{}", draft["id"]);
        let calls: [(&str, &str, Option<Value>); 7] = [
            (
                "POST",
                "/api/admin/generate-content",
                Some(json!({"targetKeywords": ["coi"]})),
            ),
            (
                "POST",
                "/api/admin/generate-weekly-plan",
                Some(json!({"postsPerWeek": 5})),
            ),
            ("GET", "/api/admin/generation-jobs", None),
            ("GET", one_job.as_str(), None),
            ("GET", "/api/admin/weekly-plan", None),
            ("DELETE", "/api/admin/weekly-plan", None),
            ("GET", "/api/admin/content-stats", None),
        ];
        for (method, path, body) in calls {
            let res = call(&server, &ann, method, path, body.clone()).await;
            assert_envelope(&res, 403, "forbidden");
            let without_token = match method {
                "POST" => server.post(path).json(&body.unwrap()).await,
                "DELETE" => server.delete(path).await,
                _ => server.get(path).await,
            };
            assert_envelope(&without_token, 401, "unauthorized");
        }
        assert_eq!(fake.requests().len(), before, "no AI call was made");
        assert_eq!(
            generation_jobs::Entity::find().all(&ctx.db).await.unwrap(),
            jobs_before,
            "no job added, started or cancelled"
        );
        let plans = weekly_plans::Entity::find().all(&ctx.db).await.unwrap();
        assert_eq!(plans.len(), 1);
        assert_eq!(plans[0].status, "active", "the plan was not cancelled");
    })
    .await;
}

#[tokio::test]
async fn without_an_ai_key_generation_answers_503_and_records_nothing() {
    with_app(|server, ctx| async move {
        let ops = admin(&server, &ctx).await;
        let res = call(
            &server,
            &ops,
            "POST",
            "/api/admin/generate-content",
            Some(json!({"targetKeywords": ["coi tracking"]})),
        )
        .await;
        assert_envelope(&res, 503, "ai_not_configured");
        let res = start_plan(&server, &ops, 5).await;
        assert_envelope(&res, 503, "ai_not_configured");
        let stats: Value = call(&server, &ops, "GET", "/api/admin/content-stats", None)
            .await
            .json();
        assert_eq!(stats["aiConfigured"], false);
        assert_eq!(stats["aiModel"], Value::Null);
        assert_eq!(
            generation_jobs::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            0
        );
        assert_eq!(keywords::Entity::find().count(&ctx.db).await.unwrap(), 0);
        assert_eq!(count_posts(&ctx).await, 0);
    })
    .await;
}

#[tokio::test]
async fn a_good_answer_becomes_a_draft_linked_to_its_keywords_with_its_cost() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        let job = generate(&server, &ops, &["COI tracking", "vendor insurance"]).await;
        assert_eq!(job["status"], "succeeded", "{job}");

        let requests = fake.requests();
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0]["model"], openai::MODEL);
        let prompt = requests[0]["messages"][1]["content"].as_str().unwrap();
        assert!(
            prompt.contains("COI tracking, vendor insurance"),
            "{prompt}"
        );
        assert!(prompt.contains("about 1200 words"), "{prompt}");
        assert!(prompt.contains("professional tone"), "{prompt}");
        assert!(prompt.contains("Vendor Management"), "{prompt}");
        assert_eq!(requests[0]["response_format"]["type"], "json_schema");

        let post = blog_posts::Entity::find_by_id(job["postId"].as_i64().unwrap())
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(post.status, "draft");
        assert_eq!(post.title, "A practical guide to COI tracking");
        assert_eq!(job["postSlug"], post.slug);
        assert_eq!(
            post.tags, r#"["compliance","vendors"]"#,
            "tags lower-cased, once each"
        );
        assert_eq!(
            post.meta_description.as_deref(),
            Some("What office managers need to know about COI tracking.")
        );
        assert!(
            post.excerpt.starts_with("Keeping on top of COI tracking"),
            "{}",
            post.excerpt
        );

        assert_eq!(job["model"], "gpt-4o-mini-2024-07-18");
        assert_eq!(job["promptTokens"], openai::PROMPT_TOKENS);
        assert_eq!(job["completionTokens"], openai::COMPLETION_TOKENS);
        // 412 x $0.15/M + 1,630 x $0.60/M = $0.0010398.
        assert!(
            (job["cost"].as_f64().unwrap() - 0.001_04).abs() < 1e-9,
            "{job}"
        );

        let linked = keywords::Entity::find()
            .filter(keywords::Column::BlogPostId.eq(post.id))
            .count(&ctx.db)
            .await
            .unwrap();
        assert_eq!(linked, 2, "both keywords belong to the post");
        let suggested: Value = call(&server, &ops, "GET", "/api/admin/suggest-keywords", None)
            .await
            .json();
        assert!(
            !suggested
                .to_string()
                .to_lowercase()
                .contains("coi tracking"),
            "used keywords are not suggested: {suggested}"
        );

        let stats: Value = call(&server, &ops, "GET", "/api/admin/content-stats", None)
            .await
            .json();
        assert_eq!(stats["aiConfigured"], true);
        assert_eq!(stats["generationsThisMonth"], 1);
        assert_eq!(stats["keywords"], 2);
        assert_eq!(stats["unusedKeywords"], 0);
        let list: Value = call(&server, &ops, "GET", "/api/admin/generation-jobs", None)
            .await
            .json();
        assert_eq!(list["jobs"][0]["id"], job["id"]);
    })
    .await;
}

#[tokio::test]
async fn a_rate_limit_is_retried_and_then_succeeds() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        fake.script([Answer::Status(429)]);
        let job = generate(&server, &ops, &["w-9 requirements"]).await;
        assert_eq!(job["status"], "succeeded", "{job}");
        assert_eq!(fake.requests().len(), 2, "the 429, then the draft");
        assert_eq!(count_posts(&ctx).await, 1);
    })
    .await;
}

#[tokio::test]
async fn failures_keep_their_reason_and_never_leave_a_post() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        let cases: Vec<(Vec<Answer>, usize, &str)> = vec![
            (
                vec![Answer::Status(500); 4],
                4,
                "failed (HTTP 500) after retries",
            ),
            (
                vec![Answer::Status(429); 4],
                4,
                "429 (rate limited) after retries",
            ),
            (
                vec![Answer::Slow(std::time::Duration::from_secs(3))],
                1,
                "did not answer within 1 seconds",
            ),
            (
                vec![Answer::Refusal("I can't help with that.".into())],
                1,
                "refused to write the post: I can't help with that.",
            ),
            (
                vec![Answer::Text("Here is your post: # Title".into())],
                1,
                "could not be read as a post",
            ),
            (
                vec![Answer::Draft(
                    json!({"title": "", "metaDescription": "", "tags": [], "content": "x"}),
                )],
                1,
                "the title or the body is empty",
            ),
        ];
        for (i, (answers, requests, reason)) in cases.into_iter().enumerate() {
            let before = fake.requests().len();
            fake.script(answers);
            let keyword = format!("failing keyword {i}");
            let job = generate(&server, &ops, &[keyword.as_str()]).await;
            assert_eq!(job["status"], "failed", "{job}");
            assert!(
                job["error"].as_str().unwrap().contains(reason),
                "{job} should say {reason}"
            );
            assert_eq!(job["postId"], Value::Null);
            assert_eq!(
                fake.requests().len() - before,
                requests,
                "{reason}: requests made"
            );
            let kw = keywords::Entity::find()
                .filter(keywords::Column::KeywordKey.eq(keyword.as_str()))
                .one(&ctx.db)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(kw.generation_job_id, None, "the keyword is free again");
            assert_eq!(kw.blog_post_id, None);
        }
        assert_eq!(count_posts(&ctx).await, 0, "no half post");
        let unused: Value = call(&server, &ops, "GET", "/api/admin/content-stats", None)
            .await
            .json();
        assert_eq!(unused["unusedKeywords"], 6);
        assert_eq!(unused["generationsThisMonth"], 0);
    })
    .await;
}

#[tokio::test]
async fn script_in_an_ai_answer_never_reaches_a_page() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        fake.script([Answer::Draft(json!({
            "title": "Vendor safety <script>window.hacked=1</script>",
            "metaDescription": "\"><script>window.hacked=2</script>",
            "tags": ["<b>x</b>"],
            "content": "Hello <script>window.hacked=3</script>\n\n<img src=x onerror=\"window.hacked=4\">\n\n[x](javascript:window.hacked=5)"
        }))]);
        let job = generate(&server, &ops, &["vendor safety"]).await;
        assert_eq!(job["status"], "succeeded", "{job}");
        let id = job["postId"].as_i64().unwrap();
        let (h, v) = bearer(&ops.token);
        let published = server
            .put(&format!("/api/admin/blog-posts/{id}"))
            .add_header(h, v)
            .json(&json!({"status": "published"}))
            .await;
        assert_eq!(published.status_code(), 200, "{}", published.text());
        let slug = job["postSlug"].as_str().unwrap();
        let page = server.get(&format!("/blog/{slug}")).await;
        assert_eq!(page.status_code(), 200);
        let html = page.text();
        assert!(html.contains("Vendor safety"), "{html}");
        // The answer's text shows as text (escaped), and no script of it runs: no bare
        // <script> element, and the JSON-LD block escapes its `</`.
        assert!(!html.contains("window.hacked=2</script>"), "{html}");
        let ld_start = html.find(r#"<script type="application/ld+json">"#).unwrap();
        let ld_end = ld_start + html[ld_start..].find("</script>").unwrap();
        let outside = format!("{}{}", &html[..ld_start], &html[ld_end..]);
        assert!(!outside.contains("<script>"), "no script element of the answer: {outside}");
        assert!(!html.contains("onerror"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
    })
    .await;
}

#[tokio::test]
async fn control_characters_in_an_ai_answer_are_dropped_from_the_draft_and_the_feed_stays_valid() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        fake.script([Answer::Draft(json!({
            "title": "Vendor\u{1} safety\u{8}",
            "metaDescription": "Keep\u{b} vendors\u{1b} safe",
            "tags": ["sa\u{1}fety"],
            "content": "Hello\u{1b}[31m world\n\n- one\u{8}\n- two\tthree"
        }))]);
        let job = generate(&server, &ops, &["vendor safety"]).await;
        assert_eq!(job["status"], "succeeded", "{job}");
        let id = job["postId"].as_i64().unwrap();
        let (h, v) = bearer(&ops.token);
        let post: Value = server
            .get(&format!("/api/admin/blog-posts/{id}"))
            .add_header(h.clone(), v.clone())
            .await
            .json();
        assert_eq!(post["title"], "Vendor safety", "{post}");
        assert_eq!(post["metaDescription"], "Keep vendors safe", "{post}");
        assert_eq!(post["tags"], json!(["safety"]), "{post}");
        assert_eq!(
            post["content"], "Hello[31m world\n\n- one\n- two\tthree",
            "{post}"
        );
        let published = server
            .put(&format!("/api/admin/blog-posts/{id}"))
            .add_header(h, v)
            .json(&json!({"status": "published"}))
            .await;
        assert_eq!(published.status_code(), 200, "{}", published.text());
        let feed = server.get("/blog/rss.xml").await.text();
        roxmltree::Document::parse(&feed).unwrap_or_else(|e| panic!("{e}: {feed}"));
        assert!(feed.contains("Vendor safety"), "{feed}");
    })
    .await;
}

#[tokio::test]
async fn bad_input_is_refused_and_nothing_is_asked_of_the_ai() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        for (body, field) in [
            (json!({"targetKeywords": []}), "targetKeywords"),
            (
                json!({"targetKeywords": ["a", "b", "c", "d", "e", "f"]}),
                "targetKeywords",
            ),
            (
                json!({"targetKeywords": ["x".repeat(101)]}),
                "targetKeywords",
            ),
            (json!({"targetKeywords": ["coi"], "tone": "angry"}), "tone"),
            (
                json!({"targetKeywords": ["coi"], "wordCount": 100}),
                "wordCount",
            ),
            (
                json!({"targetKeywords": ["coi"], "category": "c".repeat(61)}),
                "category",
            ),
        ] {
            let res = call(
                &server,
                &ops,
                "POST",
                "/api/admin/generate-content",
                Some(body),
            )
            .await;
            let err = assert_envelope(&res, 422, "validation_failed");
            assert!(err["errors"][field].is_array(), "{err}");
        }
        let res = call(
            &server,
            &ops,
            "POST",
            "/api/admin/generate-content",
            Some(json!({"keywords": ["coi"]})),
        )
        .await;
        assert_envelope(&res, 400, "invalid_body");
        for n in [0, 4, 8] {
            let res = call(
                &server,
                &ops,
                "POST",
                "/api/admin/generate-weekly-plan",
                Some(json!({"postsPerWeek": n})),
            )
            .await;
            assert_envelope(&res, 422, "validation_failed");
        }
        assert_envelope(
            &call(
                &server,
                &ops,
                "GET",
                "/api/admin/generation-jobs/999999",
                None,
            )
            .await,
            404,
            "not_found",
        );
        assert_envelope(
            &call(&server, &ops, "DELETE", "/api/admin/weekly-plan", None).await,
            404,
            "not_found",
        );
        let none: Value = call(&server, &ops, "GET", "/api/admin/weekly-plan", None)
            .await
            .json();
        assert_eq!(none["weeklyPlan"], Value::Null);
        assert!(fake.requests().is_empty());
        assert_eq!(
            generation_jobs::Entity::find()
                .count(&ctx.db)
                .await
                .unwrap(),
            0
        );
        assert_eq!(keywords::Entity::find().count(&ctx.db).await.unwrap(), 0);
    })
    .await;
}

/// Uploads keywords with priorities, so the plan's picks are known.
async fn upload_keywords(server: &TestServer, who: &Account) {
    let data: Vec<Value> = (0..8)
        .map(|i| json!({"keyword": format!("plan keyword {i}"), "searchVolume": 100 * i, "difficulty": 10,
            "priority": if i % 2 == 0 { "high" } else { "low" }}))
        .collect();
    let res = call(
        server,
        who,
        "POST",
        "/api/admin/keywords/upload",
        Some(json!({"keywordData": data})),
    )
    .await;
    assert_eq!(res.status_code(), 202, "{}", res.text());
}

/// Makes every scheduled draft of the plan due now.
async fn make_due(ctx: &AppContext) {
    let due = chrono::Utc::now() - chrono::Duration::minutes(1);
    for job in generation_jobs::Entity::find().all(&ctx.db).await.unwrap() {
        let mut active: generation_jobs::ActiveModel = job.into();
        active.scheduled_for = ActiveValue::Set(Some(due.into()));
        active.update(&ctx.db).await.unwrap();
    }
}

/// A plan of 5: the best unused keywords, over the next 5 days; one plan at a time; planned
/// keywords are not suggested again.
async fn plan_of_five_is_scheduled(server: &TestServer, ops: &Account) {
    let res = start_plan(server, ops, 5).await;
    assert_eq!(res.status_code(), 201, "{}", res.text());
    let plan: Value = res.json();
    assert_eq!(plan["monthlyCost"], 15);
    assert_eq!(plan["status"], "active");
    let items = plan["plan"].as_array().unwrap();
    assert_eq!(items.len(), 5);
    let picked: Vec<&str> = items
        .iter()
        .map(|i| i["keyword"].as_str().unwrap())
        .collect();
    assert_eq!(
        picked[..4],
        [
            "plan keyword 6",
            "plan keyword 4",
            "plan keyword 2",
            "plan keyword 0"
        ],
        "high priority first, then search volume"
    );
    let first =
        chrono::DateTime::parse_from_rfc3339(items[0]["scheduledFor"].as_str().unwrap()).unwrap();
    let last =
        chrono::DateTime::parse_from_rfc3339(items[4]["scheduledFor"].as_str().unwrap()).unwrap();
    assert_eq!(
        last - first,
        chrono::Duration::days(4),
        "over the next 5 days"
    );
    assert!(items.iter().all(|i| i["status"] == "scheduled"));

    let again = start_plan(server, ops, 3).await;
    assert_envelope(&again, 409, "conflict");
    let suggested: Value = call(
        server,
        ops,
        "GET",
        "/api/admin/suggest-keywords?count=20",
        None,
    )
    .await
    .json();
    assert_eq!(
        suggested.as_array().unwrap().len(),
        3,
        "planned keywords are not suggested again: {suggested}"
    );
}

#[tokio::test]
async fn a_weekly_plan_is_generated_once_each_even_by_two_schedulers_at_once() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        upload_keywords(&server, &ops).await;
        plan_of_five_is_scheduled(&server, &ops).await;

        // Nothing is due yet: a scheduler run queues nothing.
        ContentSchedule
            .run(&ctx, &loco_rs::task::Vars::default())
            .await
            .unwrap();
        assert!(fake.requests().is_empty());

        make_due(&ctx).await;
        let vars = loco_rs::task::Vars::default();
        let (a, b) = tokio::join!(
            ContentSchedule.run(&ctx, &vars),
            ContentSchedule.run(&ctx, &vars),
        );
        a.unwrap();
        b.unwrap();
        // A job queued twice by mistake is still written once.
        for job in generation_jobs::Entity::find().all(&ctx.db).await.unwrap() {
            GeneratePostWorker::build(&ctx)
                .perform(GeneratePostArgs { job_id: job.id })
                .await
                .unwrap();
        }
        assert_eq!(
            fake.requests().len(),
            5,
            "one AI request per scheduled post"
        );
        assert_eq!(count_posts(&ctx).await, 5);
        let shown: Value = call(&server, &ops, "GET", "/api/admin/weekly-plan", None)
            .await
            .json();
        assert_eq!(shown["weeklyPlan"]["status"], "finished");
        assert!(shown["weeklyPlan"]["plan"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["status"] == "succeeded" && i["postId"].is_i64()));

        // A finished plan leaves room for the next one.
        let next = start_plan(&server, &ops, 3).await;
        assert_eq!(next.status_code(), 201, "{}", next.text());
    })
    .await;
}

#[tokio::test]
async fn a_cancelled_plan_writes_nothing_more_and_frees_its_keywords() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        upload_keywords(&server, &ops).await;
        let plan: Value = start_plan(&server, &ops, 7).await.json();
        assert_eq!(plan["plan"].as_array().unwrap().len(), 7);
        assert_eq!(plan["monthlyCost"], 21);
        let cancelled = call(&server, &ops, "DELETE", "/api/admin/weekly-plan", None).await;
        assert_eq!(cancelled.status_code(), 200, "{}", cancelled.text());
        let cancelled: Value = cancelled.json();
        assert_eq!(cancelled["status"], "cancelled");
        assert!(cancelled["plan"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["status"] == "cancelled"));
        assert_envelope(
            &call(&server, &ops, "DELETE", "/api/admin/weekly-plan", None).await,
            404,
            "not_found",
        );
        let reserved = keywords::Entity::find()
            .filter(keywords::Column::GenerationJobId.is_not_null())
            .count(&ctx.db)
            .await
            .unwrap();
        assert_eq!(reserved, 0);

        make_due(&ctx).await;
        ContentSchedule
            .run(&ctx, &loco_rs::task::Vars::default())
            .await
            .unwrap();
        assert!(
            fake.requests().is_empty(),
            "cancelled drafts are never written"
        );
        assert_eq!(count_posts(&ctx).await, 0);
        let next = start_plan(&server, &ops, 3).await;
        assert_eq!(next.status_code(), 201);
    })
    .await;
}

#[tokio::test]
async fn a_draft_whose_worker_died_is_written_by_the_next_scheduler_run() {
    with_ai(|server, ctx, fake| async move {
        let ops = admin(&server, &ctx).await;
        upload_keywords(&server, &ops).await;
        start_plan(&server, &ops, 3).await;
        // One draft taken by a worker that then died an hour ago.
        let job = generation_jobs::Entity::find()
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        let mut active: generation_jobs::ActiveModel = job.clone().into();
        active.status = ActiveValue::Set("running".into());
        active.attempts = ActiveValue::Set(1);
        active.started_at = ActiveValue::Set(Some(
            (chrono::Utc::now() - chrono::Duration::hours(1)).into(),
        ));
        active.update(&ctx.db).await.unwrap();

        ContentSchedule
            .run(&ctx, &loco_rs::task::Vars::default())
            .await
            .unwrap();
        let done = generation_jobs::Entity::find_by_id(job.id)
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(done.status, "succeeded");
        assert_eq!(done.attempts, 2);
        assert_eq!(
            fake.requests().len(),
            1,
            "only the stranded draft; the others are not due"
        );
        assert_eq!(count_posts(&ctx).await, 1);
    })
    .await;
}

#[tokio::test]
async fn a_lost_queued_draft_is_queued_again_once_per_ten_minutes_not_every_run() {
    with_ai(|server, ctx, _fake| async move {
        let ops = admin(&server, &ctx).await;
        upload_keywords(&server, &ops).await;
        assert_eq!(start_plan(&server, &ops, 3).await.status_code(), 201);
        // One draft queued 11 minutes ago whose queue message was lost.
        let job = generation_jobs::Entity::find()
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        let mut active: generation_jobs::ActiveModel = job.clone().into();
        active.status = ActiveValue::Set("queued".into());
        active.updated_at =
            ActiveValue::Set((chrono::Utc::now() - chrono::Duration::minutes(11)).into());
        active.update(&ctx.db).await.unwrap();

        let now = chrono::Utc::now();
        let stale = chrono::Duration::minutes(15);
        let first = GenerationJob::requeue_stale(&ctx.db, now, stale)
            .await
            .unwrap();
        assert_eq!(first, vec![job.id]);
        let next_minute = now + chrono::Duration::minutes(1);
        let second = GenerationJob::requeue_stale(&ctx.db, next_minute, stale)
            .await
            .unwrap();
        assert!(
            second.is_empty(),
            "queued again only after another 10 minutes"
        );
        let later = now + chrono::Duration::minutes(11);
        let third = GenerationJob::requeue_stale(&ctx.db, later, stale)
            .await
            .unwrap();
        assert_eq!(third, vec![job.id]);
    })
    .await;
}

#[tokio::test]
async fn a_draft_queued_before_the_ai_key_was_removed_fails_with_its_reason() {
    with_app(|server, ctx| async move {
        // Queued while a key was configured; the worker runs on a server without one.
        let ops = admin(&server, &ctx).await;
        let brief = vendorwatch::services::ai::Brief {
            keywords: vec!["vendor audits".into()],
            category: "Vendor Management".into(),
            tone: "professional".into(),
            word_count: 1200,
        };
        let job = GenerationJob::create(&ctx.db, &brief, None, None)
            .await
            .unwrap();
        GeneratePostWorker::build(&ctx)
            .perform(GeneratePostArgs { job_id: job.id })
            .await
            .unwrap();
        let shown: Value = call(
            &server,
            &ops,
            "GET",
            &format!("/api/admin/generation-jobs/{}", job.id),
            None,
        )
        .await
        .json();
        assert_eq!(shown["status"], "failed");
        assert!(
            shown["error"].as_str().unwrap().contains("not configured"),
            "{shown}"
        );
        let kw = keywords::Entity::find()
            .filter(keywords::Column::KeywordKey.eq("vendor audits"))
            .one(&ctx.db)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(kw.generation_job_id, None, "the keyword is free again");
        assert_eq!(count_posts(&ctx).await, 0);
    })
    .await;
}
