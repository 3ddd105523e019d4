//! Reading certificates with AI (docs/product.md, "Reading certificates with AI"): ask for a
//! reading of a COI document, and see the latest one. Readings on upload start from
//! [`read_on_upload`].

use axum::http::StatusCode;
use loco_rs::prelude::*;

use crate::{
    controllers::{current::CurrentUser, json::ApiJson},
    errors::{ai_not_configured, ApiResult, Envelope},
    models::{
        _entities::{documents, organizations},
        coverage::CoverageForm,
        documents as document_model,
        extractions::{self, ExtractionStatus, Queued, RequestedBy},
        refusal::Refusal,
    },
    settings::Settings,
    views::extractions::{ExtractionAccepted, ExtractionResponse},
    workers::extract_coverage::{ExtractCoverageArgs, ExtractCoverageWorker},
};

fn not_a_certificate() -> Refusal {
    Refusal::field(
        "documentType",
        "Only certificates of insurance are read with AI.",
    )
}

/// Queues a reading (within the plan's month) and its job.
async fn queue(
    ctx: &AppContext,
    settings: &Settings,
    org: &organizations::Model,
    doc: &documents::Model,
    requested_by: RequestedBy,
) -> Result<Queued> {
    let allowance = settings.plan_limits(org.plan()).ai_readings_per_month;
    let queued = extractions::queue(&ctx.db, org, doc, requested_by, allowance).await?;
    if let Queued::Reading(reading) = &queued {
        if reading.status() == ExtractionStatus::Queued {
            ExtractCoverageWorker::perform_later(
                ctx,
                ExtractCoverageArgs {
                    extraction_id: reading.id,
                },
            )
            .await?;
        }
    }
    Ok(queued)
}

/// After a COI is uploaded (signed in or through the portal), when AI is configured: queues
/// its reading, or records why there is none this month. Never fails the upload: a problem is
/// logged. Returns the reading queued, if any.
pub async fn read_on_upload(
    ctx: &AppContext,
    org: &organizations::Model,
    doc: &documents::Model,
) -> Option<extractions::Model> {
    if doc.document_type != "coi" {
        return None;
    }
    let result: Result<Option<extractions::Model>> = async {
        let settings = Settings::from_context(ctx)?;
        if !settings.ai.is_enabled() {
            return Ok(None);
        }
        match queue(ctx, &settings, org, doc, None).await? {
            Queued::Reading(reading) => Ok(Some(*reading)),
            Queued::UsedUp(why) => {
                extractions::unavailable(&ctx.db, doc, None, &why).await?;
                Ok(None)
            }
        }
    }
    .await;
    result
        .map_err(
            |e| tracing::warn!(document = doc.id, error = %e, "certificate reading not queued"),
        )
        .ok()
        .flatten()
}

/// Reads the certificate with AI, in the background: 202 with the job's id (the reading
/// already under way, if any). The result is at `GET /api/documents/{id}/extraction`.
#[utoipa::path(post, operation_id = "extract_coverage", path = "/api/documents/{id}/extract", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 202, body = ExtractionAccepted), (status = 401, body = Envelope), (status = 402, body = Envelope),
        (status = 404, body = Envelope), (status = 422, body = Envelope), (status = 503, body = Envelope)))]
async fn extract(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let (doc, _) =
        document_model::Model::find_with_vendor_in_org(&ctx.db, current.org.id, &id).await?;
    if doc.document_type != "coi" {
        return Err(not_a_certificate().into());
    }
    let settings = Settings::from_context(&ctx)?;
    if !settings.ai.is_enabled() {
        return Err(ai_not_configured().into());
    }
    let reading = match queue(&ctx, &settings, &current.org, &doc, Some(current.user.pid)).await? {
        Queued::Reading(reading) => reading,
        Queued::UsedUp(why) => return Err(Refusal::PlanLimit(why).into()),
    };
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(ExtractionAccepted {
            job_id: reading.pid.to_string(),
        }),
    )
        .into_response())
}

/// The document's latest reading by AI: queued, running, done (with the suggestion and each
/// field's confidence), failed or unavailable (with the reason). 404 when it was never read.
#[utoipa::path(get, operation_id = "show_extraction", path = "/api/documents/{id}/extraction", tag = "requirements", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = ExtractionResponse), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn show(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let (doc, vendor) =
        document_model::Model::find_with_vendor_in_org(&ctx.db, current.org.id, &id).await?;
    let reading = extractions::latest(&ctx.db, doc.id)
        .await?
        .ok_or(Refusal::NotFound)?;
    let checks = reading.suggestion().map_or_else(Vec::new, |read| {
        extractions::checks(&read, &vendor.name, &current.org.name, current.today)
    });
    super::ok_json(ExtractionResponse::new(&reading, checks))
}

#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct PortalReadingQuery {
    /// The `readingToken` the portal upload answered.
    pub token: String,
}

/// The vendor's view of the certificate it just uploaded through the portal, as read by AI:
/// the `readingToken` of the upload shows that one reading (for two hours) and nothing else.
#[utoipa::path(get, operation_id = "show_portal_reading", path = "/api/portal/reading", tag = "portal", params(PortalReadingQuery),
    responses((status = 200, body = ExtractionResponse), (status = 404, body = Envelope)))]
async fn portal_show(
    State(ctx): State<AppContext>,
    Query(query): Query<PortalReadingQuery>,
) -> ApiResult {
    let reading = extractions::Model::of_portal_token(&ctx.db, &query.token).await?;
    super::ok_json(ExtractionResponse::new(&reading, Vec::new()))
}

/// The vendor corrects what was read before sending it: the coverage, checked as the coverage
/// form checks it, becomes the suggestion the organization accepts. 409
/// `reading_in_progress` while it is still being read.
#[utoipa::path(put, operation_id = "correct_portal_reading", path = "/api/portal/reading", tag = "portal", params(PortalReadingQuery),
    request_body = CoverageForm,
    responses((status = 200, body = ExtractionResponse), (status = 404, body = Envelope), (status = 409, body = Envelope),
        (status = 422, body = Envelope)))]
async fn portal_correct(
    State(ctx): State<AppContext>,
    Query(query): Query<PortalReadingQuery>,
    ApiJson(form): ApiJson<CoverageForm>,
) -> ApiResult {
    let reading = extractions::Model::of_portal_token(&ctx.db, &query.token).await?;
    let coverage = form.validate()?;
    let reading = reading.correct_by_vendor(&ctx.db, &coverage).await?;
    super::ok_json(ExtractionResponse::new(&reading, Vec::new()))
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/documents/{id}/extract", post(extract))
        .add("/api/documents/{id}/extraction", get(show))
        .add("/api/portal/reading", get(portal_show).put(portal_correct))
}
