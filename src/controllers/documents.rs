use crate::errors::ApiResult;
use std::path::Path as FsPath;

use axum::{
    body::Body,
    extract::Multipart,
    http::{header, HeaderValue, StatusCode},
};
use chrono::NaiveDate;
use loco_rs::prelude::*;
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use serde::{Deserialize, Deserializer};

use super::{
    current::CurrentUser,
    json::ApiJson,
    list_response,
    upload::{self, Received},
};
use crate::{
    errors::{self, field_error, Envelope},
    models::{
        compliance::{self, CoiType, DocumentType},
        documents::{self, DocumentInfo, DocumentQuery, SOURCE_USER},
        file_type::FileKind,
        vendors,
    },
    settings::Settings,
    views::documents::{DocumentResponse, DocumentWithHistory},
};

/// Accepts `YYYY-MM-DD` or a full RFC 3339 instant (the date it names); nothing else, so
/// that `2026-12-31garbage` is refused rather than read as a date.
fn parse_date(raw: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok().or_else(|| {
        chrono::DateTime::parse_from_rfc3339(raw)
            .ok()
            .map(|at| at.date_naive())
    })
}

/// An expiration date as the forms send it: `YYYY-MM-DD`, an RFC 3339 instant (its date), or
/// empty (no date).
pub struct DateInput;

impl utoipa::PartialSchema for DateInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            AnyOfBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type,
        };
        let string = |format: Option<KnownFormat>, pattern: Option<&str>| {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(format.map(SchemaFormat::KnownFormat))
                .pattern(pattern)
                .build()
        };
        AnyOfBuilder::new()
            .item(string(Some(KnownFormat::Date), None))
            .item(string(Some(KnownFormat::DateTime), None))
            .item(string(None, Some(r"^\s*$")))
            .description(Some(
                "YYYY-MM-DD, or an RFC 3339 instant (the date it names); empty means no date",
            ))
            .into()
    }
}

impl utoipa::ToSchema for DateInput {}

/// The 422 for a COI without a (known) insurance type, with SPEC.md's message.
fn coi_type_required() -> Error {
    field_error("coiType", "Please select an insurance type for the COI")
}

/// Reads the document fields of an upload (signed-in or portal).
///
/// # Errors
/// 422 with SPEC.md's messages for a missing type or COI type, or a bad date.
pub fn document_info(received: &Received) -> Result<DocumentInfo> {
    let document_type = received
        .field("documentType")
        .ok_or_else(|| field_error("documentType", "Please select a document type"))?;
    let document_type = DocumentType::parse(document_type)
        .ok_or_else(|| field_error("documentType", "Please select a document type"))?;
    if received
        .field("coiType")
        .is_some_and(|c| CoiType::parse(c).is_none())
    {
        return Err(coi_type_required());
    }
    let notes = received
        .field("notes")
        .map(|n| compliance::user_notes(Some(n)).unwrap_or_default());
    let coi_type = if document_type == DocumentType::Coi {
        let named = received
            .field("coiType")
            .map(|c| CoiType::parse(c).ok_or_else(coi_type_required));
        match named {
            Some(c) => Some(c?),
            None => Some(
                received
                    .field("notes")
                    .and_then(compliance::coi_type_in_notes)
                    .ok_or_else(coi_type_required)?,
            ),
        }
    } else {
        None
    };
    let expiration_date = match received.field("expirationDate") {
        Some(raw) => Some(
            parse_date(raw)
                .ok_or_else(|| field_error("expirationDate", "Use a date like 2026-12-31"))?,
        ),
        None => None,
    };
    Ok(DocumentInfo {
        document_type,
        coi_type,
        expiration_date,
        notes: notes.filter(|n| !n.is_empty()),
    })
}

/// The multipart form of an upload. Whether the file is accepted is decided by its content
/// (PDF, DOC, DOCX, PNG or JPEG, at most 10 MB, not empty, agreeing with its extension).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct UploadForm {
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    document_type: DocumentType,
    /// Required when `documentType` is `coi`.
    coi_type: Option<CoiType>,
    #[schema(value_type = Option<DateInput>)]
    expiration_date: Option<String>,
    #[schema(max_length = 4000)]
    notes: Option<String>,
    /// Ignored: the vendor is the one in the path.
    vendor_id: Option<String>,
}

/// Uploads a document for a vendor (multipart: `file`, `documentType`, `coiType`, `expirationDate`, `notes`).
#[utoipa::path(post, path = "/api/vendors/{id}/documents", tag = "documents", security(("bearer" = [])),
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
    let info = document_info(&received)?;
    let new = upload::NewDocument {
        org: current.org,
        vendor,
        info,
        source: SOURCE_USER,
    };
    let vendor = new.vendor.clone();
    let doc = upload::store_and_record(&ctx, file, new).await?;
    let body = DocumentResponse::new(&doc, &vendor, documents::today());
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
}

/// The organization's current documents.
#[utoipa::path(get, path = "/api/documents", tag = "documents", security(("bearer" = [])), params(DocumentFilter, super::Paging),
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
        page: paging.page()?,
    };
    let (rows, total) = documents::Model::list_current(&ctx.db, current.org.id, &query).await?;
    let today = documents::today();
    let body: Vec<DocumentResponse> = rows
        .iter()
        .map(|(d, v)| DocumentResponse::new(d, v, today))
        .collect();
    list_response(&body, total)
}

async fn with_vendor(
    ctx: &AppContext,
    org_id: i64,
    id: &str,
) -> Result<(documents::Model, vendors::Model)> {
    let doc = documents::Model::find_in_org(&ctx.db, org_id, id).await?;
    let vendor = vendors::Entity::find_by_id(doc.vendor_id)
        .one(&ctx.db)
        .await?
        .ok_or_else(errors::not_found)?;
    Ok((doc, vendor))
}

/// One document and the other versions of its slot.
#[utoipa::path(get, path = "/api/documents/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = DocumentWithHistory), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn show(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let (doc, vendor) = with_vendor(&ctx, current.org.id, &id).await?;
    let today = documents::today();
    let history = doc.history(&ctx.db).await?;
    super::ok_json(DocumentWithHistory {
        document: DocumentResponse::new(&doc, &vendor, today),
        history: history
            .iter()
            .map(|d| DocumentResponse::new(d, &vendor, today))
            .collect(),
    })
}

fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<Option<T>>, D::Error> {
    Ok(Some(Option::deserialize(d)?))
}

/// `PUT /api/documents/{id}`: absent fields stay; `null` clears a date or notes.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct DocumentUpdate {
    #[schema(value_type = Option<DocumentType>)]
    pub document_type: Option<String>,
    /// Required (here or already on the document) when the type is `coi`.
    #[serde(deserialize_with = "present")]
    #[schema(value_type = Option<CoiType>)]
    pub coi_type: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    #[schema(value_type = Option<DateInput>)]
    pub expiration_date: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 5000)]
    pub notes: Option<Option<String>>,
}

impl DocumentUpdate {
    fn apply(self, doc: &documents::Model) -> Result<DocumentInfo> {
        if let Some(Some(c)) = &self.coi_type {
            CoiType::parse(c).ok_or_else(coi_type_required)?;
        }
        let document_type = match self.document_type {
            Some(t) => DocumentType::parse(&t)
                .ok_or_else(|| field_error("documentType", "Please select a document type"))?,
            None => DocumentType::parse(&doc.document_type).unwrap_or(DocumentType::Other),
        };
        let coi_type = match (document_type, self.coi_type) {
            (DocumentType::Coi, Some(Some(c))) => {
                Some(CoiType::parse(&c).ok_or_else(coi_type_required)?)
            }
            (DocumentType::Coi, Some(None)) => return Err(coi_type_required()),
            (DocumentType::Coi, None) => Some(
                doc.coi_type
                    .as_deref()
                    .and_then(CoiType::parse)
                    .ok_or_else(coi_type_required)?,
            ),
            _ => None,
        };
        let expiration_date = match self.expiration_date {
            Some(Some(raw)) if !raw.trim().is_empty() => Some(
                parse_date(raw.trim())
                    .ok_or_else(|| field_error("expirationDate", "Use a date like 2026-12-31"))?,
            ),
            Some(_) => None,
            None => doc.expiration_date,
        };
        let notes = match self.notes {
            Some(n) => n.map(|n| n.trim().to_string()).filter(|n| !n.is_empty()),
            None => compliance::user_notes(doc.notes.as_deref()),
        };
        if notes.as_ref().is_some_and(|n| n.chars().count() > 5000) {
            return Err(field_error(
                "notes",
                "Notes must be at most 5000 characters",
            ));
        }
        Ok(DocumentInfo {
            document_type,
            coi_type,
            expiration_date,
            notes,
        })
    }
}

/// Changes a document's type, COI type, expiration date or notes.
#[utoipa::path(put, path = "/api/documents/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)), request_body = DocumentUpdate,
    responses((status = 200, body = DocumentResponse), (status = 401, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn update(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(params): ApiJson<DocumentUpdate>,
) -> ApiResult {
    let (doc, vendor) = with_vendor(&ctx, current.org.id, &id).await?;
    let info = params.apply(&doc)?;
    let settings = Settings::from_context(&ctx)?;
    let doc = doc
        .update_info(&ctx.db, &vendor, &info, &settings.reminders.offsets_days)
        .await?;
    super::ok_json(DocumentResponse::new(&doc, &vendor, documents::today()))
}

/// Deletes a document and its file.
#[utoipa::path(delete, path = "/api/documents/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 204), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn destroy(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let (doc, vendor) = with_vendor(&ctx, current.org.id, &id).await?;
    let settings = Settings::from_context(&ctx)?;
    let key = doc
        .delete_with_history(&ctx.db, &vendor, &settings.reminders.offsets_days)
        .await?;
    upload::remove_all_stored(&ctx, vec![key]).await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `attachment` or `inline`, with an ASCII fallback name and the RFC 6266 `filename*`.
#[must_use]
pub fn content_disposition(kind: &str, name: &str) -> String {
    let fallback: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded = utf8_percent_encode(name, NON_ALPHANUMERIC);
    format!("{kind}; filename=\"{fallback}\"; filename*=UTF-8''{encoded}")
}

async fn file_response(ctx: &AppContext, doc: &documents::Model, inline: bool) -> ApiResult {
    let stream = ctx
        .storage
        .download_stream(FsPath::new(&doc.storage_key))
        .await
        .map_err(|e| Error::string(&format!("stored file missing: {e}")))?;
    let disposition =
        content_disposition(if inline { "inline" } else { "attachment" }, &doc.file_name);
    let mut res = Response::new(Body::from_stream(stream));
    let headers = res.headers_mut();
    let value = |s: &str| HeaderValue::from_str(s).map_err(|e| Error::string(&e.to_string()));
    headers.insert(header::CONTENT_TYPE, value(&doc.content_type)?);
    headers.insert(header::CONTENT_LENGTH, value(&doc.size.to_string())?);
    headers.insert(header::CONTENT_DISPOSITION, value(&disposition)?);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    if inline {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
            ),
        );
    }
    Ok(res)
}

/// The exact bytes uploaded, as an attachment.
#[utoipa::path(get, path = "/api/documents/{id}/download", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, description = "The file"), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn download(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let doc = documents::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    file_response(&ctx, &doc, false).await
}

/// PDFs and images inline, in a sandboxed response; Word files as an attachment.
#[utoipa::path(get, path = "/api/documents/{id}/view", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, description = "The file, inline"), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
async fn view(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let doc = documents::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let inline = FileKind::from_content_type(&doc.content_type).is_some_and(FileKind::is_viewable);
    file_response(&ctx, &doc, inline).await
}

pub fn routes() -> Routes {
    Routes::new()
        .prefix("/api/documents")
        .add("/", get(list))
        .add("/{id}", get(show))
        .add("/{id}", put(update))
        .add("/{id}", delete(destroy))
        .add("/{id}/download", get(download))
        .add("/{id}/view", get(view))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_disposition_has_an_ascii_fallback_and_an_encoded_name() {
        assert_eq!(
            content_disposition("attachment", "Zoë \"COI\".pdf"),
            "attachment; filename=\"Zo_ _COI_.pdf\"; filename*=UTF-8''Zo%C3%AB%20%22COI%22%2Epdf"
        );
    }

    #[test]
    fn dates_accept_a_plain_date_or_an_iso_instant() {
        assert_eq!(
            parse_date("2026-12-31"),
            NaiveDate::from_ymd_opt(2026, 12, 31)
        );
        assert_eq!(
            parse_date("2026-12-31T00:00:00.000Z"),
            NaiveDate::from_ymd_opt(2026, 12, 31)
        );
        assert_eq!(parse_date("31/12/2026"), None);
    }
}
