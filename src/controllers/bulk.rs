//! Many at once: the Professional plan's bulk operations (a ZIP of documents, deleting,
//! renewal requests), and import (docs/product.md, "Importing vendors") and export (CSV or
//! Excel) for both plans (docs/product.md, "Bulk operations").

use std::{collections::HashMap, path::Path as FsPath};

use async_zip::{base::write::ZipFileWriter, Compression, ZipEntryBuilder};
use axum::{
    body::Body,
    extract::{FromRequest, Multipart},
};
use futures_util::{AsyncWriteExt, StreamExt};
use loco_rs::{prelude::*, storage::Storage};
use serde::Deserialize;

use super::{
    body_limit::BodyLimit,
    current::{CurrentUser, Reader},
    json::ApiJson,
};
use crate::{
    errors::{ApiResult, Envelope},
    mailers::vendors::VendorMailer,
    models::{
        bulk::{self, Selection},
        documents, exports,
        sheet::ExportFormat,
        vendor_import::{self, ImportChoices, ImportColumn, ImportDefaults, ImportRow},
        vendors,
    },
    settings::Settings,
};

/// An import's body: the largest file it reads and room for the mapping beside it.
const IMPORT_BODY_BYTES: usize = vendor_import::file::MAX_FILE_BYTES + 512 * 1024;

/// The ids of a bulk call.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BulkIds {
    /// Document ids, or vendor ids (company keys); at least one, at most
    /// `settings.bulk.max_ids` (500); none blank.
    #[schema(required = true, value_type = Vec<BulkId>, min_items = 1)]
    pub ids: Vec<String>,
}

/// One id of a bulk call, for the `OpenAPI` document: not blank, no NUL.
pub struct BulkId;

impl utoipa::PartialSchema for BulkId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some(super::openapi::NOT_BLANK))
            .into()
    }
}

impl utoipa::ToSchema for BulkId {}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Deleted {
    pub deleted: usize,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Skipped {
    pub id: String,
    /// `already_requested_today`.
    pub reason: String,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct RenewalRequests {
    pub sent: Vec<String>,
    pub skipped: Vec<Skipped>,
}

/// The ids of a Professional bulk call, checked: the plan first, then the list.
fn professional_selection(
    current: &CurrentUser,
    ctx: &AppContext,
    ids: &[String],
) -> Result<Selection> {
    current
        .org
        .require_professional("Bulk document operations")?;
    let settings = Settings::from_context(ctx)?;
    Ok(Selection::parse(ids, settings.bulk.max_ids)?)
}

/// The selected documents as one ZIP, streamed as each file is read from storage.
#[utoipa::path(post, path = "/api/documents/archive", tag = "bulk", security(("bearer" = [])), request_body = BulkIds,
    responses((status = 200, content_type = "application/zip", body = Vec<u8>), (status = 401, body = Envelope),
        (status = 402, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn archive(
    Reader(current): Reader,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<BulkIds>,
) -> ApiResult {
    let chosen = professional_selection(&current, &ctx, &params.ids)?;
    let selected = bulk::documents_of(&ctx.db, current.org.id, &chosen).await?;
    let entries = archive_entries(&selected);
    let (writer, reader) = tokio::io::duplex(64 * 1024);
    let storage = ctx.storage.clone();
    tokio::spawn(async move {
        if let Err(err) = write_zip(&storage, writer, entries).await {
            tracing::error!(error = %err, "the document archive stopped before its end");
        }
    });
    let name = format!("documents-{}.zip", current.today);
    let body = Body::from_stream(tokio_util::io::ReaderStream::new(reader));
    Ok(super::attachment("application/zip", &name, body))
}

/// `Vendor name/file name` for each document with its storage key: names that stay inside the
/// folder the archive is unpacked in, unique (`models::bulk::archive`).
fn archive_entries(selected: &[(documents::Model, vendors::Model)]) -> Vec<(String, String)> {
    let names = bulk::archive::entry_names(
        selected
            .iter()
            .map(|(doc, vendor)| (vendor.name.as_str(), doc.file_name.as_str())),
    );
    names
        .into_iter()
        .zip(selected)
        .map(|(name, (doc, _))| (name, doc.storage_key.clone()))
        .collect()
}

async fn write_zip(
    storage: &Storage,
    writer: tokio::io::DuplexStream,
    entries: Vec<(String, String)>,
) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::string(&format!("zip: {e}"));
    let mut zip = ZipFileWriter::with_tokio(writer);
    for (name, key) in entries {
        let mut stream = storage
            .download_stream(FsPath::new(&key))
            .await
            .map_err(|e| fail(&e))?;
        let mut entry = zip
            .write_entry_stream(ZipEntryBuilder::new(name.into(), Compression::Stored))
            .await
            .map_err(|e| fail(&e))?;
        while let Some(chunk) = stream.next().await {
            entry.write_all(&chunk?).await?;
        }
        entry.close().await.map_err(|e| fail(&e))?;
    }
    zip.close().await.map_err(|e| fail(&e))?;
    Ok(())
}

/// Deletes the selected documents (all or none), each with its activity entry.
#[utoipa::path(post, path = "/api/documents/bulk-delete", tag = "bulk", security(("bearer" = [])), request_body = BulkIds,
    responses((status = 200, body = Deleted), (status = 401, body = Envelope), (status = 402, body = Envelope),
        (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn delete_documents(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<BulkIds>,
) -> ApiResult {
    let chosen = professional_selection(&current, &ctx, &params.ids)?;
    let settings = Settings::from_context(&ctx)?;
    let keys = bulk::delete_documents(
        &ctx.db,
        current.org.id,
        &chosen,
        &settings.reminders.offsets_days,
        &current.actor(),
    )
    .await?;
    let deleted = keys.len();
    documents::remove_all_stored(&ctx, keys).await;
    super::ok_json(Deleted { deleted })
}

/// Deletes the selected vendors with their documents (all or none).
#[utoipa::path(post, path = "/api/vendors/bulk-delete", tag = "bulk", security(("bearer" = [])), request_body = BulkIds,
    responses((status = 200, body = Deleted), (status = 401, body = Envelope), (status = 402, body = Envelope),
        (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn delete_vendors(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<BulkIds>,
) -> ApiResult {
    let chosen = professional_selection(&current, &ctx, &params.ids)?;
    let keys = bulk::delete_vendors(&ctx.db, current.org.id, &chosen, &current.actor()).await?;
    documents::remove_all_stored(&ctx, keys).await;
    super::ok_json(Deleted {
        deleted: chosen.ids().len(),
    })
}

/// Asks the selected vendors for their documents, each at most once a day.
#[utoipa::path(post, path = "/api/vendors/renewal-requests", tag = "bulk", security(("bearer" = [])), request_body = BulkIds,
    responses((status = 200, body = RenewalRequests), (status = 401, body = Envelope), (status = 402, body = Envelope),
        (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn renewal_requests(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<BulkIds>,
) -> ApiResult {
    let chosen = professional_selection(&current, &ctx, &params.ids)?;
    let today = current.today;
    let (asks, already) =
        bulk::record_renewal_requests(&ctx.db, current.org.id, &chosen, today).await?;
    let mut sent = Vec::with_capacity(asks.len());
    for ask in &asks {
        if let Err(err) =
            VendorMailer::documents_request(&ctx, &current.org, ask, &current.user).await
        {
            bulk::forget_renewal_request(&ctx.db, ask.vendor.id, today).await?;
            return Err(err.into());
        }
        sent.push(ask.vendor.key.clone());
    }
    let skipped = already
        .into_iter()
        .map(|id| Skipped {
            id,
            reason: "already_requested_today".to_string(),
        })
        .collect();
    super::ok_json(RenewalRequests { sent, skipped })
}

/// `?format=`: `csv` (the default) or `xlsx`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct ExportQuery {
    /// `csv` (the default) or `xlsx` (an Excel workbook).
    #[param(value_type = Option<String>, pattern = "^(csv|xlsx)?$")]
    pub format: Option<String>,
}

impl ExportQuery {
    fn format(&self) -> Result<ExportFormat> {
        match self.format.as_deref().unwrap_or("csv") {
            "" | "csv" => Ok(ExportFormat::Csv),
            "xlsx" => Ok(ExportFormat::Xlsx),
            _ => Err(crate::errors::field_error("format", "Use csv or xlsx")),
        }
    }
}

/// Every vendor of the organization as CSV or an Excel workbook.
#[utoipa::path(get, path = "/api/vendors/export", tag = "bulk", security(("bearer" = [])), params(ExportQuery),
    responses((status = 200, content((String = "text/csv"), (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 401, body = Envelope), (status = 422, description = "A format other than csv or xlsx", body = Envelope)))]
async fn export_vendors(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(q): Query<ExportQuery>,
) -> ApiResult {
    let format = q.format()?;
    // Sent while it is read (`exports::vendors_export`).
    let (db, org_id, today) = (ctx.db.clone(), current.org.id, current.today);
    let body = axum::body::Body::from_stream(exports::vendors_export(db, org_id, today, format));
    Ok(super::file_download("vendors", today, format, body))
}

/// Every current document of the organization as CSV or an Excel workbook.
#[utoipa::path(get, path = "/api/documents/export", tag = "bulk", security(("bearer" = [])), params(ExportQuery),
    responses((status = 200, content((String = "text/csv"), (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))),
        (status = 401, body = Envelope), (status = 422, description = "A format other than csv or xlsx", body = Envelope)))]
async fn export_documents(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Query(q): Query<ExportQuery>,
) -> ApiResult {
    let format = q.format()?;
    // Sent while it is read (`exports::documents_export`).
    let (db, org_id, today) = (ctx.db.clone(), current.org.id, current.today);
    let body = axum::body::Body::from_stream(exports::documents_export(db, org_id, today, format));
    Ok(super::file_download("documents", today, format, body))
}

/// The JSON form of an import: the file's text.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ImportParams {
    /// The CSV file's text.
    #[schema(max_length = 1_000_000)]
    pub csv: String,
    /// `false` (the default): only preview. `true`: create the rows that can be created.
    pub commit: bool,
    /// Which vendor field each column fills, by its header (null: ignored); a column not named
    /// keeps the field guessed from its header.
    #[schema(value_type = Option<Object>)]
    pub mapping: Option<HashMap<String, Option<String>>>,
    /// Fields for every row that lacks them.
    pub defaults: Option<ImportDefaults>,
}

/// The multipart form of an import: the file's bytes as saved. Any other part is a 400.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct ImportUpload {
    /// The file as saved (CSV in UTF-8, UTF-16 or Windows-1252; comma, semicolon or tab).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// `true` to create the rows that can be created; else only a preview.
    #[schema(value_type = Option<String>, pattern = "^(true|false)?$")]
    commit: Option<String>,
    /// JSON: `{"<column header>": "<vendor field>" | null}`.
    mapping: Option<String>,
    /// JSON: `{"serviceType": ..., "requirementSet": ...}`.
    defaults: Option<String>,
}

/// What the plan allows, stated before anything is imported.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VendorLimit {
    /// The most vendors the plan allows.
    pub allowed: u64,
    /// The vendors there are now.
    pub existing: u64,
    /// How many more can be created.
    pub room: u64,
    pub message: String,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportResult {
    /// The encoding the file was read in: `UTF-8`, `UTF-16LE`, `UTF-16BE`, `windows-1252`.
    pub encoding: String,
    /// `,`, `;` or a tab.
    pub delimiter: String,
    /// The header's line in the file (lines above it were titles).
    pub header_line: u64,
    pub columns: Vec<ImportColumn>,
    /// The headers of the columns no field takes.
    pub ignored_columns: Vec<String>,
    pub rows: Vec<ImportRow>,
    pub would_create: usize,
    pub created: usize,
    pub vendor_limit: VendorLimit,
}

/// A multipart import read: the file's bytes and the choices beside it.
async fn receive_import(mut multipart: Multipart) -> Result<(Vec<u8>, bool, ImportChoices)> {
    let (mut file, mut commit, mut choices) = (None, false, ImportChoices::default());
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| super::upload::multipart_error(&e))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let bytes = field
            .bytes()
            .await
            .map_err(|e| super::upload::multipart_error(&e))?;
        let text = || String::from_utf8_lossy(&bytes).trim().to_string();
        match name.as_str() {
            "file" => file = Some(bytes.to_vec()),
            "commit" => commit = text() == "true",
            "mapping" if !text().is_empty() => {
                choices.mapping = serde_json::from_str(&text()).map_err(|_| {
                    crate::errors::field_error(
                        "mapping",
                        "The mapping must be a JSON object of column headers to field names or null.",
                    )
                })?;
            }
            "defaults" if !text().is_empty() => {
                choices.defaults = serde_json::from_str(&text()).map_err(|e| {
                    crate::errors::field_error(
                        "defaults",
                        &format!("The defaults could not be read: {e}."),
                    )
                })?;
            }
            "mapping" | "defaults" => {}
            _ => {
                return Err(crate::errors::bad_request(
                    "invalid_upload",
                    "The upload has a field that is not part of the form.",
                ))
            }
        }
    }
    let file = file
        .filter(|f| !f.is_empty())
        .ok_or_else(|| crate::errors::field_error("file", "Choose a CSV file to import."))?;
    Ok((file, commit, choices))
}

/// Imports vendors from the file a customer has: a preview of every row with the mapping
/// guessed from the headers, then a commit that creates the valid ones within the plan's
/// limit.
#[utoipa::path(post, path = "/api/vendors/import", tag = "bulk", security(("bearer" = [])),
    request_body(content((ImportUpload = "multipart/form-data"), (ImportParams = "application/json"))),
    responses((status = 200, body = ImportResult), (status = 401, body = Envelope),
        (status = 413, description = "The body is past 5.5 MB (the file may be at most 5 MB)", body = Envelope),
        (status = 422, description = "A file that is not a vendor list, or a mapping or defaults that cannot be applied, field by field in `errors`", body = Envelope)))]
async fn import_vendors(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    request: axum::extract::Request,
) -> ApiResult {
    let multipart = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let (bytes, commit, choices, file_field) = if multipart {
        let form = Multipart::from_request(request, &ctx)
            .await
            .map_err(|e| crate::errors::bad_request("invalid_upload", &e.body_text()))?;
        let (bytes, commit, choices) = receive_import(form).await?;
        (bytes, commit, choices, "file")
    } else {
        let ApiJson(params) = ApiJson::<ImportParams>::from_request(request, &ctx).await?;
        if params.csv.len() > 1_000_000 {
            return Err(crate::errors::field_error(
                "csv",
                "The file is too large: at most 1 MB of CSV.",
            )
            .into());
        }
        let choices = ImportChoices {
            mapping: params.mapping.unwrap_or_default(),
            defaults: params.defaults.unwrap_or_default(),
        };
        (params.csv.into_bytes(), params.commit, choices, "csv")
    };
    let settings = Settings::from_context(&ctx)?;
    let limit = super::vendors::plan_limit(&settings, &current.org);
    let (plan, created) = vendor_import::import_vendors(
        &ctx.db,
        current.org.id,
        &limit,
        (&bytes, file_field),
        &choices,
        commit,
        &current.actor(),
    )
    .await?;
    let ignored_columns = plan
        .columns
        .iter()
        .filter(|c| c.field.is_none() && !(c.header.is_empty() && c.sample.is_empty()))
        .map(|c| c.header.clone())
        .collect();
    super::ok_json(ImportResult {
        encoding: plan.encoding.to_string(),
        delimiter: char::from(plan.delimiter).to_string(),
        header_line: plan.header_line,
        ignored_columns,
        would_create: plan.to_create.len(),
        created,
        vendor_limit: VendorLimit {
            allowed: limit.vendors,
            existing: plan.existing,
            room: plan.room,
            message: limit.message,
        },
        columns: plan.columns,
        rows: plan.rows,
    })
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/documents/archive", post(archive))
        .add("/api/documents/bulk-delete", post(delete_documents))
        .add("/api/documents/export", get(export_documents))
        .add("/api/vendors/bulk-delete", post(delete_vendors))
        .add("/api/vendors/renewal-requests", post(renewal_requests))
        .add("/api/vendors/export", get(export_vendors))
        .add(
            "/api/vendors/import",
            BodyLimit::Body(IMPORT_BODY_BYTES).on(post(import_vendors)),
        )
}
