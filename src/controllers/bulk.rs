//! Many at once: the Professional plan's bulk operations (a ZIP of documents, deleting,
//! renewal requests), and CSV import and export for both plans (docs/product.md, "Bulk
//! operations").

use std::path::Path as FsPath;

use async_zip::{base::write::ZipFileWriter, Compression, ZipEntryBuilder};
use axum::body::Body;
use futures_util::{AsyncWriteExt, StreamExt};
use loco_rs::{prelude::*, storage::Storage};
use serde::Deserialize;

use super::{
    current::{CurrentUser, Reader},
    json::ApiJson,
};
use crate::{
    errors::{ApiResult, Envelope},
    mailers::vendors::VendorMailer,
    models::{
        bulk::{self, Selection},
        csv_io::{self, ImportRow},
        documents,
        vendors::{self, VendorQuery},
    },
    settings::Settings,
};

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

/// Every vendor of the organization as CSV.
#[utoipa::path(get, path = "/api/vendors/export", tag = "bulk", security(("bearer" = [])),
    responses((status = 200, content_type = "text/csv", body = String), (status = 401, body = Envelope)))]
async fn export_vendors(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let query = VendorQuery::default();
    let (standings, _) =
        vendors::Model::list(&ctx.db, current.org.id, &query, current.today).await?;
    let csv = csv_io::vendors_csv(&standings)?;
    let name = format!("vendors-{}.csv", current.today);
    Ok(super::attachment(
        "text/csv; charset=utf-8",
        &name,
        Body::from(csv),
    ))
}

/// Every current document of the organization as CSV.
#[utoipa::path(get, path = "/api/documents/export", tag = "bulk", security(("bearer" = [])),
    responses((status = 200, content_type = "text/csv", body = String), (status = 401, body = Envelope)))]
async fn export_documents(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let query = documents::DocumentQuery::default();
    let (rows, _) =
        documents::Model::list_current(&ctx.db, current.org.id, &query, current.today).await?;
    let csv = csv_io::documents_csv(&rows, current.today)?;
    let name = format!("documents-{}.csv", current.today);
    Ok(super::attachment(
        "text/csv; charset=utf-8",
        &name,
        Body::from(csv),
    ))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ImportParams {
    /// The CSV file's text: a header row naming the Add Vendor form's fields, then a vendor a row.
    #[schema(max_length = 1_000_000)]
    pub csv: String,
    /// `false` (the default): only preview. `true`: create the rows that can be created.
    pub commit: bool,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportResult {
    pub rows: Vec<ImportRow>,
    pub would_create: usize,
    pub created: usize,
}

/// Imports vendors from CSV: a preview of every row, then a commit that creates the valid ones
/// within the plan's limit.
#[utoipa::path(post, path = "/api/vendors/import", tag = "bulk", security(("bearer" = [])), request_body = ImportParams,
    responses((status = 200, body = ImportResult), (status = 401, body = Envelope), (status = 422, body = Envelope)))]
async fn import_vendors(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<ImportParams>,
) -> ApiResult {
    if params.csv.len() > 1_000_000 {
        return Err(crate::errors::field_error(
            "csv",
            "The file is too large: at most 1 MB of CSV.",
        )
        .into());
    }
    let settings = Settings::from_context(&ctx)?;
    let limit = super::vendors::plan_limit(&settings, &current.org);
    let (plan, created) = csv_io::import_vendors(
        &ctx.db,
        current.org.id,
        &limit,
        &params.csv,
        params.commit,
        &current.actor(),
    )
    .await?;
    let would_create = plan.to_create.len();
    super::ok_json(ImportResult {
        rows: plan.rows,
        would_create,
        created,
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
        .add("/api/vendors/import", post(import_vendors))
}
