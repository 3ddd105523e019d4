//! The blog: the admin's posts (`/api/admin/*`, admins only, checked here whatever a screen
//! shows), the public API, and the public pages served with their article, title, description,
//! canonical link, Open Graph tags and JSON-LD in the HTML, for readers and crawlers that run no
//! JavaScript (docs/product.md, "Blog").

use std::fmt::Write as _;

use axum::{
    body::Body,
    http::{header, HeaderValue, StatusCode},
};
use loco_rs::prelude::*;
use serde_json::json;

use super::{current::AdminUser, json::ApiJson, list_response, Paging};
use crate::{
    errors::{field_error, ApiError, ApiResult, Envelope},
    models::blog_posts::{self, markdown, views, BlogStats, PostFields},
    settings::Settings,
    views::blog::{AdminPost, PostPreview, PublicPost, PublicPostSummary},
};

/// Every post, drafts too, newest first.
#[utoipa::path(get, path = "/api/admin/blog-posts", tag = "admin", security(("bearer" = [])), params(Paging),
    responses((status = 200, body = [AdminPost]), (status = 401, body = Envelope), (status = 403, body = Envelope)))]
async fn admin_list(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    Query(paging): Query<Paging>,
) -> ApiResult {
    let (posts, total) = blog_posts::Model::list(&ctx.db, true, paging.page()?).await?;
    let body: Vec<AdminPost> = posts.iter().map(AdminPost::new).collect();
    list_response(&body, total)
}

/// One post by id or slug, draft or published.
#[utoipa::path(get, path = "/api/admin/blog-posts/{id}", tag = "admin", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = AdminPost), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn admin_show(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let post = blog_posts::Model::find_for_admin(&ctx.db, &id).await?;
    super::ok_json(AdminPost::new(&post))
}

/// The admin area's counts (views written first).
#[utoipa::path(get, path = "/api/admin/blog-stats", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = BlogStats), (status = 401, body = Envelope), (status = 403, body = Envelope)))]
async fn admin_stats(_admin: AdminUser, State(ctx): State<AppContext>) -> ApiResult {
    views::flush(&ctx.db).await?;
    super::ok_json(blog_posts::Model::stats(&ctx.db).await?)
}

/// Creates a post.
#[utoipa::path(post, path = "/api/admin/blog-posts", tag = "admin", security(("bearer" = [])), request_body = PostFields,
    responses((status = 201, body = AdminPost), (status = 400, body = Envelope), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 422, body = Envelope)))]
async fn admin_create(
    admin: AdminUser,
    State(ctx): State<AppContext>,
    ApiJson(fields): ApiJson<PostFields>,
) -> ApiResult {
    let form = fields.form()?;
    let post = blog_posts::Model::create(&ctx.db, &form, &admin.0.user.name).await?;
    Ok((StatusCode::CREATED, axum::Json(AdminPost::new(&post))).into_response())
}

/// Publishes (`{status: "published"}`) or saves the editor's form.
#[utoipa::path(put, path = "/api/admin/blog-posts/{id}", tag = "admin", security(("bearer" = [])), params(("id" = String, Path)), request_body = PostFields,
    responses((status = 200, body = AdminPost), (status = 400, body = Envelope), (status = 401, body = Envelope), (status = 403, body = Envelope),
        (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn admin_update(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<PostFields>,
) -> ApiResult {
    let post = blog_posts::Model::find_for_admin(&ctx.db, &id).await?;
    let change = fields.change()?;
    let post = post.change(&ctx.db, &change).await?;
    super::ok_json(AdminPost::new(&post))
}

/// Deletes a post.
#[utoipa::path(delete, path = "/api/admin/blog-posts/{id}", tag = "admin", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn admin_delete(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    blog_posts::Model::find_for_admin(&ctx.db, &id)
        .await?
        .delete_post(&ctx.db)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PreviewParams {
    /// Markdown, at most 200,000 bytes.
    pub content: String,
}

/// The HTML the public page would show for `content`.
#[utoipa::path(post, path = "/api/admin/blog-posts/preview", tag = "admin", security(("bearer" = [])), request_body = PreviewParams,
    responses((status = 200, body = PostPreview), (status = 401, body = Envelope), (status = 403, body = Envelope),
        (status = 422, body = Envelope)))]
async fn admin_preview(_admin: AdminUser, ApiJson(params): ApiJson<PreviewParams>) -> ApiResult {
    blog_posts::check_content_length(&params.content)
        .map_err(|message| ApiError::from(field_error("content", message)))?;
    super::ok_json(PostPreview {
        html: markdown::render(&params.content),
    })
}

/// Published posts, newest first.
#[utoipa::path(get, path = "/api/blog-posts", tag = "blog", params(Paging),
    responses((status = 200, body = [PublicPostSummary])))]
async fn public_list(State(ctx): State<AppContext>, Query(paging): Query<Paging>) -> ApiResult {
    let (posts, total) = blog_posts::Model::list(&ctx.db, false, paging.page()?).await?;
    let body: Vec<PublicPostSummary> = posts.iter().map(PublicPostSummary::new).collect();
    list_response(&body, total)
}

/// One published post, by its slug or an old one (the answer carries the current slug).
#[utoipa::path(get, path = "/api/blog-posts/{slug}", tag = "blog", params(("slug" = String, Path)),
    responses((status = 200, body = PublicPost), (status = 404, body = Envelope)))]
async fn public_show(State(ctx): State<AppContext>, Path(slug): Path<String>) -> ApiResult {
    let post = blog_posts::Model::find_published(&ctx.db, &slug).await?;
    views::start_flushing(ctx.db.clone());
    views::count(post.id);
    super::ok_json(PublicPost::new(&post))
}

// ---- Pages for readers and crawlers -------------------------------------------------------

/// Text made safe inside HTML or XML, in an element or a quoted attribute.
fn escape(text: &str) -> String {
    // The escaping the mail templates get (`tera`, already a dependency).
    let mut out = Vec::with_capacity(text.len());
    let _ = tera::escape_html(text, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The built app's page, read once per process (the frontend changes only with a new build).
static INDEX_HTML: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    std::fs::read_to_string("assets/index.html").unwrap_or_else(|_| {
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Vendorwatch</title></head><body><div id=\"root\"></div></body></html>".to_string()
    })
});

/// The app's `index.html` with `head` added and `article` inside `#root` (React replaces it).
fn page(title: &str, head: &str, article: &str) -> Response {
    let shell = INDEX_HTML.as_str();
    let with_title = match (shell.find("<title>"), shell.find("</title>")) {
        (Some(a), Some(b)) if a < b => format!(
            "{}<title>{}</title>{}",
            &shell[..a],
            escape(title),
            &shell[b + 8..]
        ),
        _ => shell.to_string(),
    };
    let html = with_title
        .replacen("</head>", &format!("{head}</head>"), 1)
        .replacen(
            "<div id=\"root\"></div>",
            &format!("<div id=\"root\">{article}</div>"),
            1,
        );
    let mut res = Response::new(Body::from(html));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    res
}

fn meta_tags(title: &str, description: &str, url: &str, kind: &str) -> String {
    let (t, d, u) = (escape(title), escape(description), escape(url));
    format!(
        "<meta name=\"description\" content=\"{d}\"><link rel=\"canonical\" href=\"{u}\">\
         <meta property=\"og:type\" content=\"{kind}\"><meta property=\"og:title\" content=\"{t}\">\
         <meta property=\"og:description\" content=\"{d}\"><meta property=\"og:url\" content=\"{u}\">\
         <link rel=\"alternate\" type=\"application/rss+xml\" title=\"Vendorwatch blog\" href=\"/blog/rss.xml\">"
    )
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 3).collect();
    out.push_str("...");
    out
}

async fn blog_page(State(ctx): State<AppContext>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let base = settings.app_url.trim_end_matches('/');
    let posts = blog_posts::Model::list(
        &ctx.db,
        false,
        crate::models::search::Page {
            limit: Some(6),
            offset: None,
        },
    )
    .await?
    .0;
    let mut items = String::new();
    for p in &posts {
        let _ = write!(
            items,
            "<li><a href=\"/blog/{}\">{}</a><p>{}</p></li>",
            escape(&p.slug),
            escape(&p.title),
            escape(&p.excerpt)
        );
    }
    let description =
        "Guides on vendor compliance: W-9 forms, certificates of insurance, renewals.";
    let head = meta_tags(
        "Blog - Vendorwatch",
        description,
        &format!("{base}/blog"),
        "website",
    );
    Ok(page(
        "Blog - Vendorwatch",
        &head,
        &format!("<main><h1>Blog</h1><ul>{items}</ul></main>"),
    ))
}

async fn post_page(State(ctx): State<AppContext>, Path(slug): Path<String>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let base = settings.app_url.trim_end_matches('/');
    let Ok(post) = blog_posts::Model::find_published(&ctx.db, &slug).await else {
        let mut res = page(
            "Blog Post Not Found - Vendorwatch",
            "<meta name=\"robots\" content=\"noindex\">",
            "<main><h1>Blog Post Not Found</h1></main>",
        );
        *res.status_mut() = StatusCode::NOT_FOUND;
        return Ok(res);
    };
    if post.slug != slug {
        let mut res = Response::new(Body::empty());
        *res.status_mut() = StatusCode::MOVED_PERMANENTLY;
        if let Ok(v) = HeaderValue::from_str(&format!("/blog/{}", post.slug)) {
            res.headers_mut().insert(header::LOCATION, v);
        }
        return Ok(res);
    }
    let url = format!("{base}/blog/{}", post.slug);
    let title = post
        .meta_title
        .clone()
        .unwrap_or_else(|| post.title.clone());
    let description = cut(
        post.meta_description.as_deref().unwrap_or(&post.excerpt),
        160,
    );
    let ld = json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": post.title,
        "description": description,
        "author": {"@type": "Person", "name": post.author},
        "datePublished": post.published_at.map(|d| d.to_rfc3339()),
        "dateModified": post.updated_at.to_rfc3339(),
        "mainEntityOfPage": url,
        "keywords": post.tag_list().join(", "),
    })
    .to_string()
    .replace("</", "<\\/");
    let head = format!(
        "{}<meta property=\"article:published_time\" content=\"{}\"><script type=\"application/ld+json\">{ld}</script>",
        meta_tags(&title, &description, &url, "article"),
        post.published_at.map(|d| d.to_rfc3339()).unwrap_or_default()
    );
    views::start_flushing(ctx.db.clone());
    views::count(post.id);
    let article = format!(
        "<main><article><h1>{}</h1>{}</article></main>",
        escape(&post.title),
        post.html()
    );
    Ok(page(&format!("{title} - Vendorwatch"), &head, &article))
}

async fn sitemap(State(ctx): State<AppContext>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let base = settings.app_url.trim_end_matches('/');
    let posts = blog_posts::Model::all_published(&ctx.db).await?;
    let mut urls = format!("<url><loc>{base}/</loc></url><url><loc>{base}/blog</loc></url>");
    for p in &posts {
        let _ = write!(
            urls,
            "<url><loc>{base}/blog/{}</loc><lastmod>{}</lastmod></url>",
            escape(&p.slug),
            p.updated_at.date_naive()
        );
    }
    Ok(xml("application/xml", format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>")))
}

async fn rss(State(ctx): State<AppContext>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let base = settings.app_url.trim_end_matches('/');
    let posts = blog_posts::Model::all_published(&ctx.db).await?;
    let mut items = String::new();
    for p in posts.iter().take(50) {
        let _ = write!(
            items,
            "<item><title>{}</title><link>{base}/blog/{}</link><guid>{base}/blog/{}</guid><description>{}</description><pubDate>{}</pubDate></item>",
            escape(&p.title),
            escape(&p.slug),
            escape(&p.slug),
            escape(&p.excerpt),
            p.published_at.unwrap_or(p.created_at).to_rfc2822()
        );
    }
    Ok(xml("application/rss+xml", format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>Vendorwatch blog</title><link>{base}/blog</link><description>Vendor compliance, explained.</description>{items}</channel></rss>"
    )))
}

async fn robots(State(ctx): State<AppContext>) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let base = settings.app_url.trim_end_matches('/');
    Ok(xml(
        "text/plain; charset=utf-8",
        format!("User-agent: *\nDisallow: /api/\nDisallow: /admin\nSitemap: {base}/sitemap.xml\n"),
    ))
}

fn xml(content_type: &'static str, body: String) -> Response {
    let mut res = Response::new(Body::from(body));
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    res
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/admin/blog-posts", get(admin_list).post(admin_create))
        .add("/api/admin/blog-posts/preview", post(admin_preview))
        .add(
            "/api/admin/blog-posts/{id}",
            get(admin_show).put(admin_update).delete(admin_delete),
        )
        .add("/api/admin/blog-stats", get(admin_stats))
        .add("/api/blog-posts", get(public_list))
        .add("/api/blog-posts/{slug}", get(public_show))
        .add("/blog", get(blog_page))
        .add("/blog/rss.xml", get(rss))
        .add("/blog/{slug}", get(post_page))
        .add("/view-blog-post/{slug}", get(post_page))
        .add("/sitemap.xml", get(sitemap))
        .add("/robots.txt", get(robots))
}
