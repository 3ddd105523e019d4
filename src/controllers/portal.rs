//! The vendor upload portal: no login, a company key, and nothing revealed but the vendor's
//! name, the client's name and the requested document types.

use axum::{extract::Multipart, http::StatusCode};
use loco_rs::prelude::*;
use serde::Deserialize;
use serde_json::json;

use super::{body_limit::BodyLimit, upload};
use crate::{
    errors::{api_error, bad_request, field_error, rate_limited, ApiError, ApiResult, Envelope},
    infra::rate_limit::{client_key, RateLimiters},
    mailers::portal::PortalMailer,
    models::{
        compliance::{CoiType, CompanyKey, DocumentType},
        documents::{self, DocumentSource, NewDocument},
        organizations, vendors,
    },
    views::portal::{PortalUploadResponse, PortalVendor},
};

const KEY_REQUIRED: &str = "Company key is required";
const KEY_UNKNOWN: &str = "No vendor was found for this company key. Check the key and try again.";

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct KeyQuery {
    /// The company key the client gave the vendor (blank is 400 `company_key_required`).
    #[param(required = true, pattern = "^[A-Za-z0-9]{8}$")]
    pub key: Option<String>,
}

/// The multipart form of a portal upload: an upload form with the company key.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct PortalUploadForm {
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    #[schema(pattern = "^[A-Za-z0-9]{8}$")]
    company_key: String,
    document_type: DocumentType,
    /// Required when `documentType` is `coi`. (A form field is text or absent, never null.)
    #[schema(nullable = false)]
    coi_type: Option<CoiType>,
    /// Required, and not in the past, when `documentType` is `coi`.
    #[schema(value_type = Option<documents::DateInput>, nullable = false)]
    expiration_date: Option<String>,
    #[schema(max_length = 5000, nullable = false)]
    notes: Option<String>,
}

/// A refused key, with the portal's `valid: false` beside the code and message.
fn key_refused(key: &str) -> ApiError {
    let error = if key.is_empty() {
        bad_request("company_key_required", KEY_REQUIRED)
    } else {
        api_error(StatusCode::NOT_FOUND, "company_key_not_found", KEY_UNKNOWN)
    };
    ApiError::from(error).with_field("valid", json!(false))
}

/// The vendor and its organization for a known key, or the key's refusal.
async fn vendor_for_key(
    ctx: &AppContext,
    key: &str,
) -> ApiResult<(vendors::Model, organizations::Model)> {
    let found = match CompanyKey::parse(key) {
        Some(key) => vendors::Model::find_by_company_key(&ctx.db, &key).await?,
        None => None,
    };
    found.ok_or_else(|| key_refused(key))
}

/// Checks a company key (rate limited per client address).
#[utoipa::path(get, path = "/api/validate-company-key", tag = "portal", params(KeyQuery),
    responses((status = 200, body = PortalVendor), (status = 400, body = Envelope), (status = 404, body = Envelope), (status = 429, body = Envelope)))]
async fn validate_key(
    State(ctx): State<AppContext>,
    ip: RemoteIP,
    Query(query): Query<KeyQuery>,
) -> ApiResult {
    RateLimiters::from_context(&ctx)?
        .portal_keys
        .spend(&client_key(&ip))
        .await
        .map_err(rate_limited)?;
    let key = query.key.as_deref().map(str::trim).unwrap_or_default();
    let (vendor, org) = vendor_for_key(&ctx, key).await?;
    let today = org.today_at(crate::infra::clock::Clock::from_context(&ctx).now());
    let (standing, _) = vendor.standing(&ctx.db, today).await?;
    let review = crate::models::gaps::Review::of_vendor(&ctx.db, &standing.vendor, today).await?;
    super::ok_json(PortalVendor::new(&standing, &org, &review))
}

/// A document sent by the vendor: it lands in the client's vendor like one the client uploaded.
#[utoipa::path(post, path = "/api/vendor-upload-document", tag = "portal",
    request_body(content_type = "multipart/form-data", content = PortalUploadForm),
    responses((status = 201, body = PortalUploadResponse), (status = 404, body = Envelope), (status = 413, body = Envelope),
        (status = 415, body = Envelope), (status = 422, body = Envelope), (status = 429, body = Envelope)))]
async fn portal_upload(
    State(ctx): State<AppContext>,
    ip: RemoteIP,
    multipart: Multipart,
) -> ApiResult {
    let limiters = RateLimiters::from_context(&ctx)?;
    let client = client_key(&ip);
    limiters
        .portal_uploads
        .spend(&client)
        .await
        .map_err(rate_limited)?;
    let mut received = upload::receive(multipart, &upload::PORTAL_FIELDS).await?;
    let key = received.field("companyKey").unwrap_or_default().to_string();
    let (vendor, org) = match vendor_for_key(&ctx, &key).await {
        Ok(found) => found,
        // A wrong key here costs the same as a wrong key at validation.
        Err(refused) => {
            limiters
                .portal_keys
                .spend(&client)
                .await
                .map_err(rate_limited)?;
            return Err(refused);
        }
    };
    let file = received
        .file
        .take()
        .ok_or_else(|| field_error("file", "Please select a document file"))?;
    let info = documents::DocumentInfo::from_form(|name| received.field(name))?;
    let label = info.slot().portal_label();
    let today = org.today_at(crate::infra::clock::Clock::from_context(&ctx).now());
    info.check_portal_rules(today)?;
    let new = NewDocument {
        org: org.clone(),
        vendor: vendor.clone(),
        info,
        source: DocumentSource::VendorPortal,
        actor: crate::models::activities::Actor::vendor_portal(),
    };
    let doc = documents::Model::store_and_record(&ctx, file, new).await?;
    let reading = super::extractions::read_on_upload(&ctx, &org, &doc).await;
    PortalMailer::document_received(&ctx, &org, &vendor, &doc, label).await?;
    let mut body = PortalUploadResponse::new(&vendor, &doc, today);
    if let Some(reading) = reading {
        body.reading_token = Some(reading.grant_portal_token(&ctx.db).await?);
    }
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/validate-company-key", get(validate_key))
        .add(
            "/api/vendor-upload-document",
            BodyLimit::Upload.on(post(portal_upload)),
        )
}
