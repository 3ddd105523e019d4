//! Insurance requirements and certificate review (docs/product.md, "Requirements and gaps"):
//! requirement sets (admins and the owner write them), their assignment to vendors, a COI's
//! coverage, and waivers of gaps. Who may call what is said by each handler's extractor
//! (`controllers::current`).

use axum::http::StatusCode;
use loco_rs::prelude::*;
use serde::Deserialize;

use super::{
    current::{CurrentUser, OrgAdmin},
    json::ApiJson,
};
use crate::{
    errors::{ApiResult, Envelope},
    mailers::vendors::VendorMailer,
    models::{
        bulk::Selection,
        coverage::{CoverageForm, CoverageSource},
        documents, gap_requests,
        gaps::{self, WaiverForm},
        refusal::Refusal,
        requirement_sets::{self as requirements, SetForm, Template},
        vendors,
    },
    settings::Settings,
    views::{
        documents::DocumentResponse,
        requirements::{AssignedResponse, RequirementSetResponse, WaiverResponse},
    },
};

async fn with_count(
    db: &DatabaseConnection,
    set: &requirements::Model,
) -> Result<RequirementSetResponse> {
    let counts = requirements::vendor_counts(db, set.organization_id).await?;
    Ok(RequirementSetResponse::new(
        set,
        counts.get(&set.id).copied().unwrap_or(0),
    ))
}

/// The organization's requirement sets, by name.
#[utoipa::path(get, operation_id = "list_requirement_sets", path = "/api/requirement-sets", tag = "requirements", security(("bearer" = [])),
    responses((status = 200, body = [RequirementSetResponse]), (status = 401, body = Envelope)))]
async fn list(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let sets = requirements::list(&ctx.db, current.org.id).await?;
    let counts = requirements::vendor_counts(&ctx.db, current.org.id).await?;
    let body: Vec<RequirementSetResponse> = sets
        .iter()
        .map(|set| RequirementSetResponse::new(set, counts.get(&set.id).copied().unwrap_or(0)))
        .collect();
    super::ok_json(body)
}

/// The three templates a new set can start from (general contractor, professional services,
/// low-risk supplier).
#[utoipa::path(get, operation_id = "requirement_templates", path = "/api/requirement-sets/templates", tag = "requirements", security(("bearer" = [])),
    responses((status = 200, body = [Template]), (status = 401, body = Envelope)))]
async fn templates(_current: CurrentUser) -> ApiResult {
    super::ok_json(requirements::templates())
}

/// One requirement set.
#[utoipa::path(get, operation_id = "show_requirement_set", path = "/api/requirement-sets/{id}", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = RequirementSetResponse), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn show(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let set = requirements::find(&ctx.db, current.org.id, &id).await?;
    super::ok_json(with_count(&ctx.db, &set).await?)
}

/// Creates a requirement set (admins and the owner). Amounts as people type them.
#[utoipa::path(post, operation_id = "create_requirement_set", path = "/api/requirement-sets", tag = "requirements", security(("bearer" = [])),
    request_body = SetForm,
    responses((status = 201, body = RequirementSetResponse), (status = 401, body = Envelope), (status = 422, body = Envelope)))]
async fn create(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    ApiJson(form): ApiJson<SetForm>,
) -> ApiResult {
    let valid = form.validate()?;
    let set = requirements::create(&ctx.db, current.org.id, &valid).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(with_count(&ctx.db, &set).await?),
    )
        .into_response())
}

/// Replaces a requirement set's name and lines (admins and the owner).
#[utoipa::path(put, operation_id = "update_requirement_set", path = "/api/requirement-sets/{id}", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path)), request_body = SetForm,
    responses((status = 200, body = RequirementSetResponse), (status = 401, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn update(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<SetForm>,
) -> ApiResult {
    requirements::find(&ctx.db, current.org.id, &id).await?;
    let valid = form.validate()?;
    let set = requirements::update(&ctx.db, current.org.id, &id, &valid).await?;
    super::ok_json(with_count(&ctx.db, &set).await?)
}

/// Deletes a requirement set; its vendors have none after (admins and the owner).
#[utoipa::path(delete, operation_id = "destroy_requirement_set", path = "/api/requirement-sets/{id}", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 204), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn destroy(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    requirements::delete(&ctx.db, current.org.id, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/vendors/requirement-set`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct AssignParams {
    /// Vendor ids (company keys); at least one, at most `settings.bulk.max_ids` (500).
    #[schema(required = true, min_items = 1)]
    pub ids: Vec<String>,
    /// The set's id; null for no requirements.
    #[schema(required = true, nullable)]
    pub requirement_set_id: Option<String>,
}

/// Gives many vendors one requirement set (or none), all or none.
#[utoipa::path(post, operation_id = "assign_requirement_set", path = "/api/vendors/requirement-set", tag = "requirements", security(("bearer" = [])),
    request_body = AssignParams,
    responses((status = 200, body = AssignedResponse), (status = 401, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn assign(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<AssignParams>,
) -> ApiResult {
    let settings = Settings::from_context(&ctx)?;
    let chosen = Selection::parse(&params.ids, settings.bulk.max_ids)?;
    let set = requirements::resolve(
        &ctx.db,
        current.org.id,
        params.requirement_set_id.as_deref(),
        "requirementSetId",
    )
    .await?;
    let updated = requirements::assign(&ctx.db, current.org.id, chosen.ids(), set).await?;
    super::ok_json(AssignedResponse { updated })
}

/// Sets what a COI certificate shows, as typed: amounts like "1,000,000" or "$1M". A COI with
/// no expiration date takes the earliest line's. 422 for a document that is not a COI.
#[utoipa::path(put, operation_id = "update_coverage", path = "/api/documents/{id}/coverage", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path)), request_body = CoverageForm,
    responses((status = 200, body = DocumentResponse), (status = 401, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn put_coverage(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<CoverageForm>,
) -> ApiResult {
    let (doc, vendor) =
        documents::Model::find_with_vendor_in_org(&ctx.db, current.org.id, &id).await?;
    if doc.document_type != "coi" {
        return Err(Refusal::field(
            "documentType",
            "Coverage is entered on certificates of insurance only.",
        )
        .into());
    }
    let coverage = form.validate()?;
    let settings = Settings::from_context(&ctx)?;
    let doc = doc
        .set_coverage(
            &ctx.db,
            &coverage,
            if form.confirmed {
                CoverageSource::Confirmed
            } else {
                CoverageSource::Manual
            },
            &settings.reminders.offsets_days,
        )
        .await?;
    super::ok_json(DocumentResponse::new(&doc, &vendor, current.today))
}

/// Waives a gap of the vendor until a date: it is listed with the waiver and stops counting.
#[utoipa::path(post, operation_id = "create_waiver", path = "/api/vendors/{id}/waivers", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path, description = "Company key")), request_body = WaiverForm,
    responses((status = 201, body = WaiverResponse), (status = 401, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn waive(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(form): ApiJson<WaiverForm>,
) -> ApiResult {
    let vendor = vendors::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let waiver = gaps::waive(&ctx.db, &vendor, &form, &current.actor(), current.today).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(WaiverResponse {
            id: waiver.pid.to_string(),
            line: waiver.line,
            kind: waiver.kind,
            reason: waiver.reason,
            until: waiver.until,
            by: waiver.given_by_name,
        }),
    )
        .into_response())
}

/// Withdraws a waiver: its gap counts again at once.
#[utoipa::path(delete, operation_id = "destroy_waiver", path = "/api/vendors/{id}/waivers/{waiverId}", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path, description = "Company key"), ("waiverId" = String, Path)),
    responses((status = 204), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn unwaive(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path((id, waiver)): Path<(String, String)>,
) -> ApiResult {
    let vendor = vendors::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    gaps::unwaive(&ctx.db, &vendor, &waiver, &current.actor()).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/vendors/{id}/gap-request`: who was asked, and for what.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GapRequestResponse {
    /// The vendor's company key.
    pub id: String,
    /// The email it was sent to.
    pub email: String,
    /// The gaps it names, in words.
    pub gaps: Vec<String>,
}

/// "Request corrections": emails the vendor its gaps that count, in words, with the portal
/// link and its company key; at most once a day per vendor (429 `already_requested`).
#[utoipa::path(post, operation_id = "request_gap_corrections", path = "/api/vendors/{id}/gap-request", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path, description = "Company key")),
    responses((status = 200, body = GapRequestResponse), (status = 401, body = Envelope), (status = 404, body = Envelope),
        (status = 409, body = Envelope), (status = 429, body = Envelope)))]
async fn gap_request(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let vendor = vendors::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let review = gaps::Review::of_vendor(&ctx.db, &vendor, current.today).await?;
    let counting = review.counting();
    if counting.is_empty() {
        return Err(Refusal::Taken {
            code: "nothing_to_correct",
            message: "This vendor meets its requirements: there is nothing to correct.".into(),
        }
        .into());
    }
    gap_requests::record(&ctx.db, &vendor, current.today).await?;
    if let Err(err) =
        VendorMailer::gaps_request(&ctx, &current.org, &vendor, &counting, &current.user).await
    {
        gap_requests::forget(&ctx.db, &vendor, current.today).await?;
        return Err(err.into());
    }
    super::ok_json(GapRequestResponse {
        id: vendor.key,
        email: vendor.email,
        gaps: counting,
    })
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/requirement-sets", get(list).post(create))
        .add("/api/requirement-sets/templates", get(templates))
        .add(
            "/api/requirement-sets/{id}",
            get(show).put(update).delete(destroy),
        )
        .add("/api/vendors/requirement-set", post(assign))
        .add("/api/documents/{id}/coverage", put(put_coverage))
        .add("/api/vendors/{id}/waivers", post(waive))
        .add("/api/vendors/{id}/gap-request", post(gap_request))
        .add("/api/vendors/{id}/waivers/{waiverId}", delete(unwaive))
}
