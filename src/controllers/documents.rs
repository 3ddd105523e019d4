use crate::errors::ApiResult;

use axum::{extract::Multipart, http::StatusCode};
use loco_rs::prelude::*;
use serde::Deserialize;

use super::{current::CurrentUser, json::ApiJson, list_response, upload};
use crate::{
    errors::{field_error, Envelope},
    models::{
        compliance::{CoiType, DocumentType},
        documents::{
            self, DateInput, DocumentInfo, DocumentQuery, DocumentSource, DocumentUpdate,
            NewDocument,
        },
        vendors,
    },
    settings::Settings,
    views::documents::{DocumentResponse, DocumentWithHistory},
};

/// The multipart form of an upload. Whether the file is accepted is decided by its content
/// (PDF, DOC, DOCX, PNG, JPEG, HEIC, TIFF or WebP, at most 10 MB, not empty, agreeing with its
/// extension; a PDF that needs a password to open is refused).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct UploadForm {
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    document_type: DocumentType,
    /// Required when `documentType` is `coi`. (A form field is text or absent, never null.)
    #[schema(nullable = false)]
    coi_type: Option<CoiType>,
    #[schema(value_type = Option<DateInput>, nullable = false)]
    expiration_date: Option<String>,
    #[schema(max_length = 5000, nullable = false)]
    notes: Option<String>,
    /// Ignored: the vendor is the one in the path.
    #[schema(nullable = false)]
    vendor_id: Option<String>,
}

/// Uploads a document for a vendor (multipart: `file`, `documentType`, `coiType`, `expirationDate`, `notes`).
#[utoipa::path(post, operation_id = "upload_document", path = "/api/vendors/{id}/documents", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path, description = "Company key")),
    request_body(content_type = "multipart/form-data", content = UploadForm),
    responses((status = 201, body = DocumentResponse), (status = 401, body = Envelope), (status = 402, body = Envelope),
        (status = 404, body = Envelope), (status = 413, body = Envelope), (status = 415, body = Envelope), (status = 422, body = Envelope)))]
pub(crate) async fn upload(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    multipart: Multipart,
) -> ApiResult {
    let vendor = vendors::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let mut received = upload::receive(multipart, &upload::UPLOAD_FIELDS).await?;
    let file = received
        .file
        .take()
        .ok_or_else(|| field_error("file", "Please select a file to upload"))?;
    let info = DocumentInfo::from_form(|name| received.field(name))?;
    let new = NewDocument {
        actor: current.actor(),
        org: current.org.clone(),
        vendor: vendor.clone(),
        info,
        source: DocumentSource::User,
    };
    let doc = documents::Model::store_and_record(&ctx, file, new).await?;
    super::extractions::read_on_upload(&ctx, &current.org, &doc).await;
    let body = DocumentResponse::new(&doc, &vendor, current.today);
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct DocumentFilter {
    /// `current`, `expiring_soon` or `expired`.
    #[param(value_type = Option<super::StatusFilter>, inline)]
    pub status: Option<String>,
    /// A document type: `coi`, `w9`, `sales_tax`, `vendor_agreement`, `other`.
    #[serde(rename = "type")]
    #[param(value_type = Option<super::DocumentTypeFilter>, inline)]
    pub document_type: Option<String>,
    /// Text in the file name, type or notes.
    pub q: Option<String>,
    /// The order: `uploadedAt`, `fileName`, `documentType`, `expirationDate` (none last),
    /// `status` (current, expiring soon, expired) or `vendor` (its name); a leading `-` for
    /// descending. Ties by id. The default: `-uploadedAt`, newest first.
    #[param(value_type = Option<super::DocumentSortParam>, inline)]
    pub sort: Option<String>,
}

/// The organization's current documents.
#[utoipa::path(get, operation_id = "list_documents", path = "/api/documents", tag = "documents", security(("bearer" = [])), params(DocumentFilter, super::Paging),
    responses((status = 200, body = [DocumentResponse]), (status = 401, body = Envelope), (status = 422, body = Envelope)))]
async fn list(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(filter): Query<DocumentFilter>,
    Query(paging): Query<super::Paging>,
) -> ApiResult {
    let status = super::status_filter(filter.status.as_deref())?;
    let document_type = match super::filter_value(filter.document_type.as_deref()) {
        Some(t) => Some(
            DocumentType::parse(t)
                .ok_or_else(|| field_error("type", "Unknown document type"))?
                .as_str()
                .to_string(),
        ),
        None => None,
    };
    let query = DocumentQuery {
        status,
        document_type,
        q: filter.q,
        sort: super::sort_param(
            filter.sort.as_deref(),
            documents::DocumentSort::NEWEST_FIRST,
            &documents::DocumentSort::KEYS,
        )?,
        page: paging.page()?,
    };
    let (rows, total) =
        documents::Model::list_current(&ctx.db, current.org.id, &query, current.today).await?;
    let today = current.today;
    let body: Vec<DocumentResponse> = rows
        .iter()
        .map(|(d, v)| DocumentResponse::new(d, v, today))
        .collect();
    list_response(&body, total)
}

/// One document and the other versions of its slot.
#[utoipa::path(get, operation_id = "show_document", path = "/api/documents/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = DocumentWithHistory), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn show(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let (doc, vendor) =
        documents::Model::find_with_vendor_in_org(&ctx.db, current.org.id, &id).await?;
    let today = current.today;
    let history = doc.history(&ctx.db).await?;
    super::ok_json(DocumentWithHistory {
        document: DocumentResponse::new(&doc, &vendor, today),
        history: history
            .iter()
            .map(|d| DocumentResponse::new(d, &vendor, today))
            .collect(),
    })
}

/// Changes a document's type, COI type, expiration date or notes.
#[utoipa::path(put, operation_id = "update_document", path = "/api/documents/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)), request_body = DocumentUpdate,
    responses((status = 200, body = DocumentResponse), (status = 401, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn update(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(params): ApiJson<DocumentUpdate>,
) -> ApiResult {
    let (doc, vendor) =
        documents::Model::find_with_vendor_in_org(&ctx.db, current.org.id, &id).await?;
    let info = params.apply(&doc)?;
    let settings = Settings::from_context(&ctx)?;
    let doc = doc
        .update_info(
            &ctx.db,
            &vendor,
            &info,
            &settings.reminders.offsets_days,
            &current.actor(),
        )
        .await?;
    super::ok_json(DocumentResponse::new(&doc, &vendor, current.today))
}

/// Deletes a document and its file.
#[utoipa::path(delete, operation_id = "destroy_document", path = "/api/documents/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 204), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn destroy(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let (doc, vendor) =
        documents::Model::find_with_vendor_in_org(&ctx.db, current.org.id, &id).await?;
    let settings = Settings::from_context(&ctx)?;
    let key = doc
        .delete_with_history(
            &ctx.db,
            &vendor,
            &settings.reminders.offsets_days,
            &current.actor(),
        )
        .await?;
    documents::remove_all_stored(&ctx, vec![key]).await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub fn routes() -> Routes {
    Routes::new()
        .prefix("/api/documents")
        .add("/", get(list))
        .add("/{id}", get(show))
        .add("/{id}", put(update))
        .add("/{id}", delete(destroy))
}
