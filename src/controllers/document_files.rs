//! A document's file: the exact bytes as a download, the in-page view (HEIC and TIFF converted
//! to what a browser shows), and the short-lived signed link through which the viewer's frame
//! loads a PDF so that the browser's PDF viewer shows the file's name.

use std::{path::Path as FsPath, sync::LazyLock};

use axum::{
    body::Body,
    http::{header, HeaderValue},
};
use chrono::Utc;
use loco_rs::prelude::*;
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use tokio::sync::Semaphore;

use super::current::CurrentUser;
use crate::{
    errors::{ApiResult, Envelope},
    models::{
        documents,
        file_type::{convert, FileKind},
    },
    views::documents::ViewLinkResponse,
};

/// The view's sandbox: nothing in a shown file runs, loads or submits anything.
const SANDBOX: &str =
    "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";
/// Conversions at once in this process: one. Each decodes a whole picture (about 75 MB for a
/// 12 MP phone photo, up to 300 MB for a 48 MP one, for a moment), so a burst of views waits its
/// turn rather than growing the process.
static CONVERSIONS: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(1));

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

/// How a file is answered: downloaded, or shown (with or without the sandbox).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    Attachment,
    Inline { sandbox: bool },
}

fn header_value(s: &str) -> Result<HeaderValue> {
    HeaderValue::from_str(s).map_err(|e| Error::string(&e.to_string()))
}

/// The headers every answer with a file carries.
fn file_headers(res: &mut Response, content_type: &str, name: &str, shown: Shown) -> Result<()> {
    let disposition = content_disposition(
        if shown == Shown::Attachment {
            "attachment"
        } else {
            "inline"
        },
        name,
    );
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, header_value(content_type)?);
    headers.insert(header::CONTENT_DISPOSITION, header_value(&disposition)?);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    if shown == (Shown::Inline { sandbox: true }) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(SANDBOX),
        );
    }
    Ok(())
}

/// The stored bytes, streamed.
async fn stored_response(ctx: &AppContext, doc: &documents::Model, shown: Shown) -> ApiResult {
    let stream = ctx
        .storage
        .download_stream(FsPath::new(&doc.storage_key))
        .await
        .map_err(|e| Error::string(&format!("stored file missing: {e}")))?;
    let mut res = Response::new(Body::from_stream(stream));
    file_headers(&mut res, &doc.content_type, &doc.file_name, shown)?;
    res.headers_mut()
        .insert(header::CONTENT_LENGTH, header_value(&doc.size.to_string())?);
    Ok(res)
}

/// The name of a converted picture: the original's with the new type's extension.
fn converted_name(name: &str, content_type: &str) -> String {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let ext = if content_type == "image/png" {
        "png"
    } else {
        "jpg"
    };
    format!("{stem}.{ext}")
}

/// A HEIC or TIFF as a JPEG or PNG, upright. One the converters cannot read is offered as a
/// download, as Word files are.
async fn converted_response(ctx: &AppContext, doc: &documents::Model, kind: FileKind) -> ApiResult {
    let bytes: Vec<u8> = ctx
        .storage
        .download(FsPath::new(&doc.storage_key))
        .await
        .map_err(|e| Error::string(&format!("stored file missing: {e}")))?;
    let permit = CONVERSIONS
        .acquire()
        .await
        .map_err(|e| Error::string(&e.to_string()))?;
    let converted = tokio::task::spawn_blocking(move || convert::for_browser(kind, &bytes))
        .await
        .map_err(|e| Error::string(&format!("the conversion did not finish: {e}")))?;
    drop(permit);
    match converted {
        Ok(Some(picture)) => {
            let name = converted_name(&doc.file_name, picture.content_type);
            let mut res = Response::new(Body::from(picture.bytes));
            file_headers(
                &mut res,
                picture.content_type,
                &name,
                Shown::Inline { sandbox: true },
            )?;
            Ok(res)
        }
        Ok(None) => stored_response(ctx, doc, Shown::Inline { sandbox: true }).await,
        Err(err) => {
            tracing::warn!(document = %doc.pid, error = %err, "could not convert a picture for the view");
            stored_response(ctx, doc, Shown::Attachment).await
        }
    }
}

/// The view of a document: PDFs and images inline, HEIC and TIFF converted, Word files as a
/// download. `sandbox_pdf` is false only for the signed link the viewer's frame loads:
/// Chrome's PDF viewer does not run in a sandboxed document. That PDF gets the app's own
/// policy (`security_headers`), as the `blob:` document the viewer used before inherited it;
/// `nosniff` and the detected `application/pdf` keep it from being read as anything else.
async fn view_response(ctx: &AppContext, doc: &documents::Model, sandbox_pdf: bool) -> ApiResult {
    match FileKind::from_content_type(&doc.content_type) {
        Some(kind) if kind.needs_conversion() => converted_response(ctx, doc, kind).await,
        Some(FileKind::Pdf) => {
            stored_response(
                ctx,
                doc,
                Shown::Inline {
                    sandbox: sandbox_pdf,
                },
            )
            .await
        }
        Some(kind) if kind.is_viewable() => {
            stored_response(ctx, doc, Shown::Inline { sandbox: true }).await
        }
        _ => stored_response(ctx, doc, Shown::Attachment).await,
    }
}

/// The exact bytes uploaded, as an attachment.
#[utoipa::path(get, path = "/api/documents/{id}/download", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, description = "The file"), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
pub(crate) async fn download(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let doc = documents::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    stored_response(&ctx, &doc, Shown::Attachment).await
}

/// PDFs and images inline, in a sandboxed response (HEIC as a JPEG, TIFF as a PNG); Word
/// files as an attachment.
#[utoipa::path(get, path = "/api/documents/{id}/view", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, description = "The file, inline"), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
pub(crate) async fn view(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let doc = documents::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    view_response(&ctx, &doc, true).await
}

/// A link to the document's view that works without a token for ten minutes, ending with the
/// file's name: what the viewer's frame loads a PDF from.
#[utoipa::path(get, path = "/api/documents/{id}/view-link", tag = "documents", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = ViewLinkResponse), (status = 401, body = Envelope), (status = 404, body = Envelope)))]
pub(crate) async fn view_link(
    current: CurrentUser,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    let doc = documents::Model::find_in_org(&ctx.db, current.org.id, &id).await?;
    let link = doc.view_link(&ctx.config.get_jwt_config()?.secret, Utc::now());
    super::ok_json(ViewLinkResponse {
        url: link.path,
        expires_at: link.expires_at.to_rfc3339(),
    })
}

/// The view through a signed link (from `view-link`): no token; the link's signature and
/// expiry are the permission. The last segment, the file's name, is for the browser only.
#[utoipa::path(get, path = "/api/documents/{id}/file/{expires}/{signature}/{name}", tag = "documents",
    params(("id" = String, Path), ("expires" = i64, Path, description = "Unix time the link stops working"),
        ("signature" = String, Path), ("name" = String, Path, description = "The file's name")),
    responses((status = 200, description = "The file, inline"), (status = 404, body = Envelope),
        (status = 410, body = Envelope, description = "The link has expired")))]
pub(crate) async fn signed_view(
    State(ctx): State<AppContext>,
    Path((id, expires, signature, _name)): Path<(String, i64, String, String)>,
) -> ApiResult {
    let secret = &ctx.config.get_jwt_config()?.secret;
    let doc =
        documents::Model::find_by_view_link(&ctx.db, secret, &id, expires, &signature, Utc::now())
            .await?;
    view_response(&ctx, &doc, false).await
}

pub fn routes() -> Routes {
    Routes::new()
        .prefix("/api/documents")
        .add("/{id}/download", get(download))
        .add("/{id}/view", get(view))
        .add("/{id}/view-link", get(view_link))
        .add("/{id}/file/{expires}/{signature}/{name}", get(signed_view))
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
    fn a_converted_picture_is_named_for_its_new_type() {
        assert_eq!(
            converted_name("IMG_0001.HEIC", "image/jpeg"),
            "IMG_0001.jpg"
        );
        assert_eq!(
            converted_name("scan.2026.tif", "image/png"),
            "scan.2026.png"
        );
        assert_eq!(converted_name("noext", "image/png"), "noext.png");
    }
}
