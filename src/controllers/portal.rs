//! The vendor upload portal: no login, a company key, and nothing revealed but the vendor's
//! name, the client's name and the requested document types.

use crate::errors::ApiResult;
use axum::{
    extract::{DefaultBodyLimit, Multipart},
    http::StatusCode,
};
use loco_rs::prelude::*;
use serde::Deserialize;
use serde_json::json;

use super::upload;
use crate::{
    errors::{envelope_with, field_error, too_many_requests, Envelope},
    mailers::portal::PortalMailer,
    models::{
        compliance::{self, CoiType, DocumentType},
        documents::{self, SOURCE_PORTAL},
        organizations, vendors,
    },
    rate_limit::{client_key, RateLimiters},
    views::portal::{PortalDocument, PortalUploadResponse, PortalVendor, RequestedDocument},
};

const KEY_REQUIRED: &str = "Company key is required";
const KEY_UNKNOWN: &str = "No vendor was found for this company key. Check the key and try again.";

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct KeyQuery {
    /// The company key the client gave the vendor.
    #[param(required = true)]
    pub key: Option<String>,
}

/// The multipart form of a portal upload: an upload form with the company key.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct PortalUploadForm {
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    company_key: String,
    document_type: DocumentType,
    /// Required when `documentType` is `coi`.
    coi_type: Option<CoiType>,
    /// Required, and not in the past, when `documentType` is `coi`.
    #[schema(value_type = Option<documents::DateInput>)]
    expiration_date: Option<String>,
    #[schema(max_length = 4000)]
    notes: Option<String>,
}

fn key_required() -> Response {
    envelope_with(
        StatusCode::BAD_REQUEST,
        "company_key_required",
        KEY_REQUIRED,
        json!({"valid": false}),
    )
}

fn key_unknown() -> Response {
    envelope_with(
        StatusCode::NOT_FOUND,
        "company_key_not_found",
        KEY_UNKNOWN,
        json!({"valid": false}),
    )
}

/// The vendor and its organization for a well-formed, known key.
async fn vendor_for_key(
    ctx: &AppContext,
    key: &str,
) -> Result<Option<(vendors::Model, organizations::Model)>> {
    if !compliance::is_company_key(key) {
        return Ok(None);
    }
    let Some(vendor) = vendors::Entity::find()
        .filter(vendors::vendors::Column::Key.eq(key))
        .one(&ctx.db)
        .await?
    else {
        return Ok(None);
    };
    let org = organizations::Model::find_by_id(&ctx.db, vendor.organization_id).await?;
    Ok(Some((vendor, org)))
}

/// Checks a company key (rate limited per client address).
#[utoipa::path(get, path = "/api/validate-company-key", tag = "portal", params(KeyQuery),
    responses((status = 200, body = PortalVendor), (status = 400, body = Envelope), (status = 404, body = Envelope), (status = 429, body = Envelope)))]
async fn validate_key(
    State(ctx): State<AppContext>,
    ip: RemoteIP,
    Query(query): Query<KeyQuery>,
) -> ApiResult {
    if let Err(wait) = RateLimiters::from_context(&ctx)?
        .portal_keys
        .check(&client_key(&ip))
    {
        return Ok(too_many_requests(wait));
    }
    let key = query.key.as_deref().map(str::trim).unwrap_or_default();
    if key.is_empty() {
        return Ok(key_required());
    }
    let Some((vendor, org)) = vendor_for_key(&ctx, key).await? else {
        return Ok(key_unknown());
    };
    let (standing, _) = vendor.standing(&ctx.db).await?;
    let requested = standing
        .required_documents()
        .into_iter()
        .map(|slot| {
            let (document_type, coi_type) = slot.document_type();
            // Expiring or expired documents are what a renewal request asks for again.
            let uploaded = standing.slots.iter().any(|(s, status, doc)| {
                *s == slot && doc.is_some() && *status == compliance::Status::Current
            });
            RequestedDocument {
                slot: slot.as_str().to_string(),
                document_type: document_type.as_str().to_string(),
                coi_type: coi_type.map(|c| c.as_str().to_string()),
                label: slot.portal_label().to_string(),
                uploaded,
            }
        })
        .collect();
    super::ok_json(PortalVendor {
        valid: true,
        company_name: standing.vendor.name.clone(),
        client_name: org.name,
        required_documents: requested,
    })
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
    if let Err(wait) = limiters.portal_uploads.check(&client) {
        return Ok(too_many_requests(wait));
    }
    let mut received = upload::receive(multipart, &upload::PORTAL_FIELDS).await?;
    let key = received.field("companyKey").unwrap_or_default().to_string();
    let Some((vendor, org)) = vendor_for_key(&ctx, &key).await? else {
        // A wrong key here costs the same as a wrong key at validation.
        if let Err(wait) = limiters.portal_keys.check(&client) {
            return Ok(too_many_requests(wait));
        }
        return Ok(if key.is_empty() {
            key_required()
        } else {
            key_unknown()
        });
    };
    let file = received
        .file
        .take()
        .ok_or_else(|| field_error("file", "Please select a document file"))?;
    let info = documents::DocumentInfo::from_form(|name| received.field(name))?;
    let label = info.slot().portal_label();
    info.check_portal_rules(documents::today())?;
    let new = upload::NewDocument {
        org: org.clone(),
        vendor: vendor.clone(),
        info,
        source: SOURCE_PORTAL,
    };
    let doc = upload::store_and_record(&ctx, file, new).await?;
    PortalMailer::document_received(&ctx, &org, &vendor, &doc, label).await?;
    let body = PortalUploadResponse {
        company_name: vendor.name.clone(),
        document: PortalDocument {
            id: doc.pid.to_string(),
            document_type: doc.document_type.clone(),
            coi_type: doc.coi_type.clone(),
            file_name: doc.file_name.clone(),
            expiration_date: doc.expiration_date,
            status: doc.status(documents::today()),
        },
    };
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/validate-company-key", get(validate_key))
        .add(
            "/api/vendor-upload-document",
            post(portal_upload).layer(DefaultBodyLimit::max(upload::BODY_LIMIT)),
        )
}
