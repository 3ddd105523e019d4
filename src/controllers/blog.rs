//! The blog: the admin's posts (`/api/admin/*`, admins only, checked here whatever a screen
//! shows), the public API, and the public pages served with their article, title, description,
//! canonical link, Open Graph tags and JSON-LD in the HTML, for readers and crawlers that run no
//! JavaScript (docs/product.md, "Blog").

use axum::{
    body::Body,
    http::{header, HeaderValue, StatusCode},
};
use loco_rs::{controller::views::ViewRenderer, prelude::*};
use serde::Serialize;
use serde_json::json;

use super::{current::AdminUser, json::ApiJson, list_response, Paging};
use crate::{
    errors::{field_error, ApiError, ApiResult, Envelope},
    infra::rate_limit,
    models::blog_posts::{self, markdown, views, BlogStats, PostFields},
    settings::Settings,
    views::{
        blog::{AdminPost, PostPreview, PublicPost, PublicPostSummary},
        pages::{self, Shell, PAGES, SHELL},
    },
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
    views::Reads::of(&ctx)?.flush(&ctx.db).await?;
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
async fn public_show(
    State(ctx): State<AppContext>,
    Path(slug): Path<String>,
    reader: Reader,
) -> ApiResult {
    let post = blog_posts::Model::find_published(&ctx.db, &slug).await?;
    reader.counts(&ctx, post.id)?;
    super::ok_json(PublicPost::new(&post))
}

// ---- Pages for readers and crawlers -------------------------------------------------------

/// Who is reading (client address and user agent), for counting a reader once a day.
struct Reader {
    address: String,
    user_agent: String,
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Reader {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> std::result::Result<Self, Self::Rejection> {
        let address = match RemoteIP::from_request_parts(parts, state).await {
            Ok(ip) => rate_limit::client_key(&ip),
            Err(_) => "unknown".to_string(),
        };
        let user_agent = parts
            .headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        Ok(Self {
            address,
            user_agent,
        })
    }
}

impl Reader {
    /// Notes a read of `post_id`: one view per reader a day (`views`).
    fn counts(&self, ctx: &AppContext, post_id: i64) -> Result<()> {
        let secret = ctx
            .config
            .auth
            .as_ref()
            .and_then(|a| a.jwt.as_ref())
            .map(|jwt| jwt.secret.as_str())
            .unwrap_or_default();
        let day = chrono::Utc::now().date_naive();
        views::Reads::of(ctx)?.count(
            post_id,
            views::reader(secret, day, &self.address, &self.user_agent),
        );
        Ok(())
    }
}

/// What every HTML page of the blog shows in its head.
#[derive(Serialize)]
struct Meta<'a> {
    shell: &'a Shell,
    base: &'a str,
    /// The document's `<title>`: the page's title and the site's name.
    page_title: String,
    /// The title on its own, for cards and feeds (Open Graph, Twitter).
    title: String,
    description: String,
    url: String,
    kind: &'static str,
    image: String,
}

impl<'a> Meta<'a> {
    fn new(
        base: &'a str,
        title: String,
        description: String,
        url: String,
        kind: &'static str,
    ) -> Self {
        Self {
            shell: &SHELL,
            base,
            page_title: format!("{title} - Vendorwatch"),
            title,
            description,
            url,
            kind,
            image: format!("{base}/og-image.png"),
        }
    }
}

/// A rendered page, or the error page (500) when it could not be made: a database that does not
/// answer is not a missing post.
fn html_page(status: StatusCode, rendered: Result<Response>) -> Response {
    let mut res = rendered.unwrap_or_else(|err| {
        tracing::error!(error = %err, "a public page could not be made");
        let plain = Meta::new(
            "",
            "Something went wrong".into(),
            String::new(),
            String::new(),
            "website",
        );
        let mut res = format::view(&*PAGES, "error.html", &plain).unwrap_or_else(|_| {
            (StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong").into_response()
        });
        *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        res
    });
    if res.status() == StatusCode::OK {
        *res.status_mut() = status;
    }
    res
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 3).collect();
    out.push_str("...");
    out
}

#[derive(Serialize)]
struct ListedPost<'a> {
    slug: &'a str,
    title: &'a str,
    excerpt: &'a str,
}

#[derive(Serialize)]
struct ListPage<'a> {
    #[serde(flatten)]
    meta: Meta<'a>,
    posts: Vec<ListedPost<'a>>,
}

#[derive(Serialize)]
struct PostPage<'a> {
    #[serde(flatten)]
    meta: Meta<'a>,
    heading: &'a str,
    article: String,
    published: Option<String>,
    /// The post's JSON-LD, made safe inside a `<script>` element.
    ld: String,
}

#[derive(Serialize)]
struct SitemapEntry {
    slug: String,
    modified: String,
}

#[derive(Serialize)]
struct FeedItem {
    title: String,
    slug: String,
    excerpt: String,
    published: String,
}

async fn blog_page(State(ctx): State<AppContext>) -> Response {
    let made = async {
        let settings = Settings::from_context(&ctx)?;
        let base = settings.app_url.trim_end_matches('/');
        let page = crate::models::search::Page {
            limit: Some(6),
            offset: None,
        };
        let posts = blog_posts::Model::list(&ctx.db, false, page).await?.0;
        let data = ListPage {
            meta: Meta::new(
                base,
                "Blog".into(),
                "Guides on vendor compliance: W-9 forms, certificates of insurance, renewals."
                    .into(),
                format!("{base}/blog"),
                "website",
            ),
            posts: posts
                .iter()
                .map(|p| ListedPost {
                    slug: &p.slug,
                    title: &p.title,
                    excerpt: &p.excerpt,
                })
                .collect(),
        };
        format::view(&*PAGES, "blog/list.html", &data)
    };
    html_page(StatusCode::OK, made.await)
}

async fn post_page(
    State(ctx): State<AppContext>,
    Path(slug): Path<String>,
    reader: Reader,
) -> Response {
    let made = async {
        let settings = Settings::from_context(&ctx)?;
        let base = settings.app_url.trim_end_matches('/');
        let Some(post) = blog_posts::Model::published(&ctx.db, &slug).await? else {
            let meta = Meta::new(
                base,
                "Blog Post Not Found".into(),
                String::new(),
                String::new(),
                "website",
            );
            let mut res = format::view(&*PAGES, "blog/not_found.html", &meta)?;
            *res.status_mut() = StatusCode::NOT_FOUND;
            return Ok(res);
        };
        if post.slug != slug {
            let to = format!("/blog/{}", post.slug);
            return Ok((StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, to)]).into_response());
        }
        reader.counts(&ctx, post.id)?;
        let url = format!("{base}/blog/{}", post.slug);
        let title = post
            .meta_title
            .clone()
            .unwrap_or_else(|| post.title.clone());
        let description = cut(
            post.meta_description.as_deref().unwrap_or(&post.excerpt),
            160,
        );
        let meta = Meta::new(base, title, description.clone(), url.clone(), "article");
        let published = post.published_at.map(|d| d.to_rfc3339());
        let ld = json!({
            "@context": "https://schema.org",
            "@type": "BlogPosting",
            "headline": post.title,
            "description": description,
            "image": meta.image,
            "author": {"@type": "Person", "name": post.author},
            "publisher": {
                "@type": "Organization",
                "name": "Vendorwatch",
                "url": format!("{base}/"),
                "logo": {"@type": "ImageObject", "url": format!("{base}/og-image.png")},
            },
            "datePublished": published,
            "dateModified": post.updated_at.to_rfc3339(),
            "mainEntityOfPage": url,
            "keywords": post.tag_list().join(", "),
        });
        let data = PostPage {
            heading: &post.title,
            article: post.html(),
            published,
            ld: pages::structured_data(&ld),
            meta,
        };
        format::view(&*PAGES, "blog/post.html", &data)
    };
    html_page(StatusCode::OK, made.await)
}

async fn sitemap(State(ctx): State<AppContext>) -> Result<Response> {
    let settings = Settings::from_context(&ctx)?;
    let base = settings.app_url.trim_end_matches('/');
    let posts = blog_posts::Model::all_published(&ctx.db).await?;
    let posts: Vec<SitemapEntry> = posts
        .iter()
        .map(|p| SitemapEntry {
            slug: p.slug.clone(),
            modified: p.updated_at.date_naive().to_string(),
        })
        .collect();
    let body = PAGES.render("sitemap.xml", json!({ "base": base, "posts": posts }))?;
    Ok(xml("application/xml", body))
}

async fn rss(State(ctx): State<AppContext>) -> Result<Response> {
    let settings = Settings::from_context(&ctx)?;
    let base = settings.app_url.trim_end_matches('/');
    let posts = blog_posts::Model::all_published(&ctx.db).await?;
    let items: Vec<FeedItem> = posts
        .iter()
        .take(50)
        .map(|p| FeedItem {
            title: pages::xml_text(&p.title),
            slug: pages::xml_text(&p.slug),
            excerpt: pages::xml_text(&p.excerpt),
            published: p.published_at.unwrap_or(p.created_at).to_rfc2822(),
        })
        .collect();
    let body = PAGES.render("blog/rss.xml", json!({ "base": base, "items": items }))?;
    Ok(xml("application/rss+xml", body))
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
