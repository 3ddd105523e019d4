//! The content engine's AI drafts and weekly plan (admins only; docs/product.md, "Content
//! engine"): drafts are written by background jobs, whose state is readable.

use axum::http::StatusCode;
use chrono::Utc;
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

use super::{current::AdminUser, json::ApiJson};
use crate::{
    errors::{ai_not_configured, ApiResult, Envelope},
    models::{
        blog_posts,
        generation_jobs::{self, rfc3339, GenerateFields},
        keywords,
        weekly_plans::{self, Plan, WeeklyPlanStatus},
    },
    settings::Settings,
    workers::generate_post::{GeneratePostArgs, GeneratePostWorker},
};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobAccepted {
    pub job_id: i64,
}

/// A generation job as the admin screen shows it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerationJob {
    pub id: i64,
    pub status: generation_jobs::JobStatus,
    pub keywords: Vec<String>,
    pub category: String,
    pub tone: String,
    pub word_count: i32,
    pub scheduled_for: Option<String>,
    pub post_id: Option<i64>,
    pub post_slug: Option<String>,
    /// Why the job failed.
    pub error: Option<String>,
    pub model: Option<String>,
    pub prompt_tokens: Option<i64>,
    pub completion_tokens: Option<i64>,
    /// US dollars.
    pub cost: Option<f64>,
    pub created_at: String,
    pub finished_at: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct JobList {
    pub jobs: Vec<GenerationJob>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanItem {
    pub job_id: i64,
    pub keyword: String,
    pub scheduled_for: String,
    pub status: generation_jobs::JobStatus,
    pub post_id: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WeeklyPlan {
    pub id: i64,
    pub posts_per_week: i32,
    /// US dollars a month.
    pub monthly_cost: i32,
    pub status: WeeklyPlanStatus,
    pub created_at: String,
    pub plan: Vec<PlanItem>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentPlan {
    pub weekly_plan: Option<WeeklyPlan>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContentStats {
    pub ai_configured: bool,
    pub ai_model: Option<String>,
    pub keywords: u64,
    pub unused_keywords: u64,
    pub generations_this_month: u64,
    /// US dollars.
    pub generation_cost_this_month: f64,
    /// Certificates read with AI this month, over every organization.
    pub readings_this_month: u64,
    /// US dollars.
    pub reading_cost_this_month: f64,
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanParams {
    /// 3, 5 or 7.
    #[schema(required = true, value_type = PostsPerWeek)]
    pub posts_per_week: i64,
}

/// The posts a weekly plan writes, for the `OpenAPI` document: 3, 5 or 7.
pub struct PostsPerWeek;

impl utoipa::PartialSchema for PostsPerWeek {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Integer)
            .enum_values(Some([3, 5, 7]))
            .into()
    }
}

impl utoipa::ToSchema for PostsPerWeek {}

fn job_view(job: generation_jobs::Model, slug: Option<String>) -> GenerationJob {
    GenerationJob {
        keywords: job.keyword_list(),
        scheduled_for: job.scheduled_for.as_ref().map(rfc3339),
        created_at: rfc3339(&job.created_at),
        finished_at: job.finished_at.as_ref().map(rfc3339),
        cost: job.cost_micros.map(crate::services::ai::dollars),
        id: job.id,
        status: job.status(),
        category: job.category,
        tone: job.tone,
        word_count: job.word_count,
        post_id: job.blog_post_id,
        post_slug: slug,
        error: job.error,
        model: job.model,
        prompt_tokens: job.prompt_tokens,
        completion_tokens: job.completion_tokens,
    }
}

/// The jobs with the slugs of their posts (one query).
async fn job_views(
    db: &DatabaseConnection,
    jobs: Vec<generation_jobs::Model>,
) -> Result<Vec<GenerationJob>> {
    let ids: Vec<i64> = jobs.iter().filter_map(|j| j.blog_post_id).collect();
    let slugs: std::collections::HashMap<i64, String> = blog_posts::Entity::find()
        .select_only()
        .column(blog_posts::Column::Id)
        .column(blog_posts::Column::Slug)
        .filter(blog_posts::Column::Id.is_in(ids))
        .into_tuple::<(i64, String)>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    Ok(jobs
        .into_iter()
        .map(|j| {
            let slug = j.blog_post_id.and_then(|id| slugs.get(&id).cloned());
            job_view(j, slug)
        })
        .collect())
}

fn plan_view(plan: Plan) -> WeeklyPlan {
    let status = plan.status();
    WeeklyPlan {
        id: plan.plan.id,
        posts_per_week: plan.plan.posts_per_week,
        monthly_cost: plan.plan.monthly_cost,
        status,
        created_at: rfc3339(&plan.plan.created_at),
        plan: plan
            .jobs
            .into_iter()
            .map(|j| PlanItem {
                job_id: j.id,
                keyword: j.keyword_list().join(", "),
                scheduled_for: j.scheduled_for.as_ref().map(rfc3339).unwrap_or_default(),
                status: j.status(),
                post_id: j.blog_post_id,
            })
            .collect(),
    }
}

fn ai_enabled(ctx: &AppContext) -> Result<bool> {
    Ok(Settings::from_context(ctx)?.ai.is_enabled())
}

/// Queues an AI draft for the keywords.
#[utoipa::path(post, path = "/api/admin/generate-content", tag = "admin", security(("bearer" = [])), request_body = GenerateFields,
    responses((status = 202, body = JobAccepted), (status = 400, body = Envelope), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 422, body = Envelope), (status = 503, body = Envelope)))]
async fn generate(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<GenerateFields>,
) -> ApiResult {
    let brief = params.brief()?;
    if !ai_enabled(&ctx)? {
        return Err(ai_not_configured().into());
    }
    let job = generation_jobs::Model::create(&ctx.db, &brief, None, None).await?;
    GeneratePostWorker::perform_later(&ctx, GeneratePostArgs { job_id: job.id }).await?;
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(JobAccepted { job_id: job.id }),
    )
        .into_response())
}

/// One job's state.
#[utoipa::path(get, path = "/api/admin/generation-jobs/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = GenerationJob), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn job(_admin: AdminUser, State(ctx): State<AppContext>, Path(id): Path<i64>) -> ApiResult {
    let job = generation_jobs::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(crate::errors::not_found)?;
    let mut views = job_views(&ctx.db, vec![job]).await?;
    super::ok_json(views.remove(0))
}

/// The 20 newest jobs.
#[utoipa::path(get, path = "/api/admin/generation-jobs", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = JobList), (status = 401, body = Envelope), (status = 403, body = Envelope)))]
async fn jobs(_admin: AdminUser, State(ctx): State<AppContext>) -> ApiResult {
    let recent = generation_jobs::Model::recent(&ctx.db, 20).await?;
    super::ok_json(JobList {
        jobs: job_views(&ctx.db, recent).await?,
    })
}

/// Schedules a week of AI drafts.
#[utoipa::path(post, path = "/api/admin/generate-weekly-plan", tag = "admin", security(("bearer" = [])), request_body = PlanParams,
    responses((status = 201, body = WeeklyPlan), (status = 400, body = Envelope), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 409, body = Envelope), (status = 422, body = Envelope), (status = 503, body = Envelope)))]
async fn start_plan(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<PlanParams>,
) -> ApiResult {
    let plan = weekly_plans::plan_of(params.posts_per_week)?;
    if !ai_enabled(&ctx)? {
        return Err(ai_not_configured().into());
    }
    let plan = weekly_plans::Model::start(&ctx.db, plan, Utc::now()).await?;
    Ok((StatusCode::CREATED, axum::Json(plan_view(plan))).into_response())
}

/// The active plan, else the newest one.
#[utoipa::path(get, path = "/api/admin/weekly-plan", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = CurrentPlan), (status = 401, body = Envelope), (status = 403, body = Envelope)))]
async fn show_plan(_admin: AdminUser, State(ctx): State<AppContext>) -> ApiResult {
    let plan = weekly_plans::Model::latest(&ctx.db).await?;
    super::ok_json(CurrentPlan {
        weekly_plan: plan.map(plan_view),
    })
}

/// Cancels the active plan's drafts still to come.
#[utoipa::path(delete, path = "/api/admin/weekly-plan", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = WeeklyPlan), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn cancel_plan(_admin: AdminUser, State(ctx): State<AppContext>) -> ApiResult {
    let plan = weekly_plans::Model::cancel(&ctx.db, Utc::now())
        .await?
        .ok_or_else(crate::errors::not_found)?;
    super::ok_json(plan_view(plan))
}

/// The content engine's cards: AI set-up, keywords, generations this month and their cost.
#[utoipa::path(get, path = "/api/admin/content-stats", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = ContentStats), (status = 401, body = Envelope), (status = 403, body = Envelope)))]
async fn stats(_admin: AdminUser, State(ctx): State<AppContext>) -> ApiResult {
    let ai = Settings::from_context(&ctx)?.ai;
    let usage = generation_jobs::Model::month_usage(&ctx.db, Utc::now()).await?;
    let readings = crate::models::extractions::month_readings(&ctx.db, Utc::now()).await?;
    super::ok_json(ContentStats {
        ai_configured: ai.is_enabled(),
        ai_model: ai.is_enabled().then_some(ai.model),
        keywords: keywords::count(&ctx.db).await?,
        unused_keywords: keywords::count_unused(&ctx.db).await?,
        generations_this_month: usage.generations,
        generation_cost_this_month: crate::services::ai::dollars(usage.cost_micros),
        readings_this_month: readings.readings,
        reading_cost_this_month: crate::services::ai::dollars(readings.cost_micros),
    })
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/admin/generate-content", post(generate))
        .add("/api/admin/generation-jobs", get(jobs))
        .add("/api/admin/generation-jobs/{id}", get(job))
        .add("/api/admin/generate-weekly-plan", post(start_plan))
        .add("/api/admin/weekly-plan", get(show_plan).delete(cancel_plan))
        .add("/api/admin/content-stats", get(stats))
}
