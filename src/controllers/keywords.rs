//! The content engine's keywords (admins only): uploads ingested by background jobs, the
//! count, an upload's progress, and suggestions (docs/product.md, "Content engine").

use axum::http::StatusCode;
use loco_rs::prelude::*;
use serde::Deserialize;

use super::{body_limit::BodyLimit, current::AdminUser, json::ApiJson};
use crate::{
    errors::{ApiResult, Envelope},
    models::{
        keyword_ingests,
        keywords::{self, KeywordRow},
    },
    workers::keyword_chunk::{KeywordChunkArgs, KeywordChunkWorker},
};

/// Room for 20,000 rows of long keywords (the app's 2 MB holds about 15,000).
pub const UPLOAD_BODY_LIMIT: BodyLimit = BodyLimit::Body(8 * 1024 * 1024);

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct UploadParams {
    /// At most 20,000 rows, each an object (serde would read a row from an array of its cells).
    #[schema(max_items = 20_000, value_type = Vec<KeywordRow>)]
    pub keyword_data: Vec<serde_json::Map<String, serde_json::Value>>,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadAccepted {
    pub accepted: usize,
    pub dropped: usize,
    pub chunks: usize,
    pub ingest_id: i64,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IngestProgress {
    pub id: i64,
    pub accepted: i32,
    pub dropped: i32,
    pub chunks: i32,
    pub chunks_done: i32,
    pub inserted: i32,
    pub merged: i32,
    pub done: bool,
}

#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct KeywordCount {
    pub count: u64,
}

/// Checks every row, then queues the upload in chunks of 100 rows.
#[utoipa::path(post, operation_id = "upload_keywords", path = "/api/admin/keywords/upload", tag = "admin", security(("bearer" = [])), request_body = UploadParams,
    responses((status = 202, body = UploadAccepted), (status = 400, body = Envelope), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 413, body = Envelope), (status = 422, body = Envelope)))]
async fn upload(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<UploadParams>,
) -> ApiResult {
    if params.keyword_data.len() > 20_000 {
        return Err(
            crate::errors::field_error("keywordData", "At most 20,000 rows at a time").into(),
        );
    }
    let rows: Vec<KeywordRow> = params
        .keyword_data
        .into_iter()
        .map(|row| serde_json::from_value(serde_json::Value::Object(row)))
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| {
            crate::errors::bad_request(
                "invalid_body",
                &format!("The request body could not be read: {e}"),
            )
        })?;
    let (rows, dropped) = keywords::check_upload(&rows)?;
    let (ingest, chunk_ids) = keywords::start_ingest(&ctx.db, &rows, dropped).await?;
    // One round trip to the queue for all the chunks.
    KeywordChunkWorker::perform_all_later(
        &ctx,
        chunk_ids
            .iter()
            .map(|&chunk_id| KeywordChunkArgs { chunk_id })
            .collect(),
    )
    .await?;
    let body = UploadAccepted {
        accepted: rows.len(),
        dropped,
        chunks: chunk_ids.len(),
        ingest_id: ingest.id,
    };
    Ok((StatusCode::ACCEPTED, axum::Json(body)).into_response())
}

/// How far an upload is.
#[utoipa::path(get, path = "/api/admin/keyword-ingests/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = IngestProgress), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn progress(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    Path(id): Path<i64>,
) -> ApiResult {
    let ingest = keyword_ingests::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(crate::errors::not_found)?;
    super::ok_json(IngestProgress {
        id: ingest.id,
        accepted: ingest.accepted,
        dropped: ingest.dropped,
        chunks: ingest.chunks,
        chunks_done: ingest.chunks_done,
        inserted: ingest.inserted,
        merged: ingest.merged,
        done: ingest.chunks_done >= ingest.chunks,
    })
}

/// How many keywords there are.
#[utoipa::path(get, path = "/api/admin/keywords/count", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = KeywordCount), (status = 401, body = Envelope), (status = 403, body = Envelope)))]
async fn count(_admin: AdminUser, State(ctx): State<AppContext>) -> ApiResult {
    super::ok_json(KeywordCount {
        count: keywords::count(&ctx.db).await?,
    })
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
pub struct SuggestQuery {
    /// 1 to 20; 4 by default.
    #[param(minimum = 1, maximum = 20)]
    pub count: Option<u64>,
}

/// Unused keywords, best first.
#[utoipa::path(get, path = "/api/admin/suggest-keywords", tag = "admin", security(("bearer" = [])), params(SuggestQuery),
    responses((status = 200, body = [String]), (status = 401, body = Envelope), (status = 403, body = Envelope), (status = 422, body = Envelope)))]
async fn suggest(
    _admin: AdminUser,
    State(ctx): State<AppContext>,
    Query(q): Query<SuggestQuery>,
) -> ApiResult {
    let n = q.count.unwrap_or(4);
    if !(1..=20).contains(&n) {
        return Err(crate::errors::field_error("count", "Ask for 1 to 20 keywords").into());
    }
    super::ok_json(keywords::suggest(&ctx.db, n).await?)
}

pub fn routes() -> Routes {
    Routes::new()
        .add(
            "/api/admin/keywords/upload",
            UPLOAD_BODY_LIMIT.on(post(upload)),
        )
        .add("/api/admin/keywords/count", get(count))
        .add("/api/admin/keyword-ingests/{id}", get(progress))
        .add("/api/admin/suggest-keywords", get(suggest))
}
