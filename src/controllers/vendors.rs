use crate::errors::ApiResult;
use axum::http::StatusCode;
use loco_rs::prelude::*;
use serde::Deserialize;

use super::{body_limit::BodyLimit, current::CurrentUser, json::ApiJson, list_response, Paging};
use crate::infra::answer_cache::{AnswerCache, Question};
use crate::models::search::Sort;
use crate::{
    errors::Envelope,
    models::{
        documents,
        gaps::Review,
        organizations,
        vendors::{self, PlanLimit, VendorFields, VendorParams, VendorQuery},
    },
    settings::Settings,
    views::{documents::DocumentResponse, vendors::VendorResponse},
};

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct VendorFilter {
    /// Text in the name, email or service type.
    pub q: Option<String>,
    /// `current`, `expiring_soon`, `expired` or `missing`.
    #[param(value_type = Option<super::StatusFilter>, inline)]
    pub status: Option<String>,
    /// The order: `name` (the default), `serviceType`, `status` (current, expiring soon,
    /// expired, missing), `documentCount` or `updatedAt`; a leading `-` for descending
    /// (`-updatedAt`). Ties by id.
    #[param(value_type = Option<super::VendorSortParam>, inline)]
    pub sort: Option<String>,
    /// `true`: only vendors whose certificates fall short of their requirement set (a gap not
    /// waived); `false`: only the others.
    pub gaps: Option<bool>,
}

pub(super) fn plan_limit(settings: &Settings, org: &organizations::Model) -> PlanLimit {
    let vendors = settings.plan_limits(org.plan()).vendor_limit;
    let plan = org.plan().name();
    PlanLimit {
        vendors,
        message: format!("{plan} accounts are limited to {vendors} vendors maximum."),
    }
}

/// The organization's vendors with their compliance standing.
#[utoipa::path(get, operation_id = "list_vendors", path = "/api/vendors", tag = "vendors", security(("bearer" = [])), params(VendorFilter, Paging),
    responses((status = 200, body = [VendorResponse]), (status = 401, body = Envelope), (status = 422, body = Envelope)))]
async fn list(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(filter): Query<VendorFilter>,
    Query(paging): Query<Paging>,
) -> ApiResult {
    let query = VendorQuery {
        status: super::status_filter(filter.status.as_deref())?,
        q: filter.q,
        gaps: filter.gaps,
        sort: super::sort_param(
            filter.sort.as_deref(),
            Sort::default(),
            &vendors::VendorSort::KEYS,
        )?,
        page: paging.page()?,
    };
    let answer = AnswerCache::from_context(&ctx)
        .answer(
            &ctx.db,
            &current.org,
            current.today,
            Question::VendorList(query),
        )
        .await?;
    Ok(answer.into_response())
}

/// Adds a vendor, within the plan's vendor limit.
#[utoipa::path(post, path = "/api/vendors", tag = "vendors", security(("bearer" = [])), request_body = VendorParams,
    responses((status = 201, body = VendorResponse), (status = 401, body = Envelope), (status = 402, body = Envelope),
        (status = 409, body = Envelope), (status = 422, body = Envelope)))]
async fn create(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<VendorParams>,
) -> ApiResult {
    let form = params.validate()?;
    let settings = Settings::from_context(&ctx)?;
    let vendor = vendors::Model::create(
        &ctx.db,
        current.org.id,
        &plan_limit(&settings, &current.org),
        &form,
        &current.actor(),
    )
    .await?;
    let (standing, _) = vendor.standing(&ctx.db, current.today).await?;
    let review = Review::of_vendor(&ctx.db, &standing.vendor, current.today).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(VendorResponse::new(&standing, &review)),
    )
        .into_response())
}

/// One vendor, with its current documents.
#[utoipa::path(get, operation_id = "show_vendor", path = "/api/vendors/{id}", tag = "vendors", security(("bearer" = [])),
    params(("id" = String, Path, description = "Company key")),
    responses((status = 200, body = VendorResponse), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn show(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let vendor = vendors::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let (standing, docs) = vendor.standing(&ctx.db, current.today).await?;
    let today = current.today;
    let review = Review::of_vendor(&ctx.db, &standing.vendor, today).await?;
    let mut body = VendorResponse::new(&standing, &review);
    body.documents = Some(
        docs.iter()
            .map(|d| DocumentResponse::new(d, &standing.vendor, today))
            .collect(),
    );
    super::ok_json(body)
}

/// Saves the vendor form; the company key never changes.
#[utoipa::path(put, operation_id = "update_vendor", path = "/api/vendors/{id}", tag = "vendors", security(("bearer" = [])), request_body = VendorFields,
    params(("id" = String, Path, description = "Company key")),
    responses((status = 200, body = VendorResponse), (status = 401, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn update(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<VendorFields>,
) -> ApiResult {
    let (standing, review) = vendors::Model::update_in_org(
        &ctx.db,
        current.org.id,
        &id,
        &fields,
        &current.actor(),
        current.today,
    )
    .await?;
    super::ok_json(VendorResponse::new(&standing, &review))
}

/// Deletes the vendor with its documents, files and reminders.
#[utoipa::path(delete, operation_id = "destroy_vendor", path = "/api/vendors/{id}", tag = "vendors", security(("bearer" = [])),
    params(("id" = String, Path, description = "Company key")),
    responses((status = 204), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn destroy(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let vendor = vendors::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let keys = vendor
        .delete_with_documents(&ctx.db, &current.actor())
        .await?;
    documents::remove_all_stored(&ctx, keys).await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Every version of every document of the vendor, current ones first.
#[utoipa::path(get, path = "/api/vendors/{id}/documents", tag = "vendors", security(("bearer" = [])),
    params(("id" = String, Path, description = "Company key"), Paging),
    responses((status = 200, body = [DocumentResponse]), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn documents_of(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    Query(paging): Query<Paging>,
) -> ApiResult {
    let vendor = vendors::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let (docs, total) = documents::Model::list_for_vendor(&ctx.db, &vendor, paging.page()?).await?;
    let today = current.today;
    let page: Vec<DocumentResponse> = docs
        .iter()
        .map(|d| DocumentResponse::new(d, &vendor, today))
        .collect();
    list_response(&page, total)
}

pub fn routes() -> Routes {
    Routes::new()
        .prefix("/api/vendors")
        .add("/", get(list))
        .add("/", post(create))
        .add("/{id}", get(show))
        .add("/{id}", put(update))
        .add("/{id}", delete(destroy))
        .add("/{id}/documents", get(documents_of))
        .add(
            "/{id}/documents",
            BodyLimit::Upload.on(post(super::documents::upload)),
        )
}
