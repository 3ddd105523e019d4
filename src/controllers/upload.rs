//! Multipart uploads, streamed: the file goes chunk by chunk to a temporary file (never whole
//! in memory), with the 10 MB limit checked as it arrives; then its content is checked and it
//! is streamed on to storage. Anything refused or interrupted leaves nothing behind.

use std::{collections::HashMap, path::Path};

use axum::{extract::Multipart, http::StatusCode};
use loco_rs::{prelude::*, storage::stream::BytesStream};
use tokio::io::AsyncWriteExt;
use tokio_util::io::ReaderStream;

use crate::{
    errors::{api_error, field_error},
    models::{
        documents::{self, DocumentInfo, StoredFile, UploadContext},
        file_type::{self, FileKind, MAX_UPLOAD_BYTES},
        organizations, vendors,
    },
    settings::Settings,
};

/// How much of the start of a file is kept for type detection.
const HEAD_BYTES: usize = 8192;
/// Text fields beside the file are short.
const MAX_FIELD_BYTES: usize = 16 * 1024;

/// Body limit of the upload routes: the file plus room for the other fields.
pub const BODY_LIMIT: usize = 10 * 1024 * 1024 + 256 * 1024;

pub struct ReceivedFile {
    pub original_name: String,
    pub size: u64,
    head: Vec<u8>,
    temp: tempfile::TempPath,
}

pub struct Received {
    pub fields: HashMap<String, String>,
    pub file: Option<ReceivedFile>,
}

impl Received {
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .get(name)
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
    }
}

fn too_large() -> Error {
    api_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        "The file is too large. The limit is 10 MB.",
    )
}

fn multipart_error(err: &axum::extract::multipart::MultipartError) -> Error {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large();
    }
    api_error(
        StatusCode::BAD_REQUEST,
        "invalid_upload",
        &format!("The upload could not be read: {}", err.body_text()),
    )
}

/// The text fields of the signed-in upload form, beside `file` (`vendorId`, which clients
/// written to SPEC.md's first reading send, is taken and ignored: the vendor is the path's).
pub const UPLOAD_FIELDS: [&str; 5] = [
    "documentType",
    "coiType",
    "expirationDate",
    "notes",
    "vendorId",
];
/// The text fields of the portal's upload form, beside `file`.
pub const PORTAL_FIELDS: [&str; 5] = [
    "companyKey",
    "documentType",
    "coiType",
    "expirationDate",
    "notes",
];

/// Reads every part; the `file` part is written to a temporary file as it arrives.
///
/// # Errors
/// 413 past 10 MB, 400 for a broken or interrupted body or a field not in `known`, 422 for two
/// files.
pub async fn receive(mut multipart: Multipart, known: &[&str]) -> Result<Received> {
    let mut fields = HashMap::new();
    let mut file: Option<ReceivedFile> = None;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(&e))?
    {
        let name = field.name().unwrap_or_default().to_string();
        if name != "file" && !known.contains(&name.as_str()) {
            return Err(api_error(
                StatusCode::BAD_REQUEST,
                "invalid_upload",
                "The upload has a field that is not part of the form.",
            ));
        }
        if name != "file" {
            let bytes = field.bytes().await.map_err(|e| multipart_error(&e))?;
            if bytes.len() > MAX_FIELD_BYTES {
                return Err(field_error(&name, "This field is too long."));
            }
            if bytes.contains(&0) {
                return Err(field_error(
                    &name,
                    "This field may not contain NUL characters.",
                ));
            }
            fields.insert(name, String::from_utf8_lossy(&bytes).into_owned());
            continue;
        }
        if file.is_some() {
            return Err(field_error("file", "Send one file at a time."));
        }
        let original_name = field.file_name().unwrap_or_default().to_string();
        let temp = tempfile::NamedTempFile::new()?.into_temp_path();
        let mut out = tokio::fs::File::create(&temp).await?;
        let mut size: u64 = 0;
        let mut head = Vec::with_capacity(HEAD_BYTES);
        while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(&e))? {
            size += chunk.len() as u64;
            if size > MAX_UPLOAD_BYTES {
                return Err(too_large());
            }
            if head.len() < HEAD_BYTES {
                let take = (HEAD_BYTES - head.len()).min(chunk.len());
                head.extend_from_slice(&chunk[..take]);
            }
            out.write_all(&chunk).await?;
        }
        out.flush().await?;
        file = Some(ReceivedFile {
            original_name,
            size,
            head,
            temp,
        });
    }
    Ok(Received { fields, file })
}

impl ReceivedFile {
    /// Checks the content, then streams it to storage under a generated key.
    ///
    /// # Errors
    /// 415/422 for a refused file; storage errors.
    pub async fn store(&self, ctx: &AppContext, folder: &str) -> Result<StoredFile> {
        let kind: FileKind =
            file_type::check(&self.original_name, self.size, &self.head, &self.temp)?;
        let ext = kind.extensions()[0];
        let key = format!("{folder}/{}.{ext}", uuid::Uuid::new_v4().simple());
        let reader = tokio::fs::File::open(&self.temp).await?;
        let stream = BytesStream::from_body_stream(ReaderStream::new(reader));
        ctx.storage
            .upload_stream(Path::new(&key), stream)
            .await
            .map_err(|e| Error::string(&format!("could not store the file: {e}")))?;
        Ok(StoredFile {
            file_name: file_type::display_name(&self.original_name),
            storage_key: key,
            content_type: kind.content_type().to_string(),
            size: self.size,
        })
    }
}

/// A document about to be made from an accepted upload: whose it is, what it is, who sent it.
pub struct NewDocument {
    pub org: organizations::Model,
    pub vendor: vendors::Model,
    pub info: DocumentInfo,
    pub source: &'static str,
}

/// Checks the file, writes it to storage and records its row, all or nothing. The work runs in
/// a task of its own: a client that goes away mid-way drops the request's future, and that must
/// not stop the work between the file written and its row committed (a file no row points to).
/// A refused row removes the file; a crash in between leaves one for `storage_orphans`.
///
/// # Errors
/// 415/422 for a refused file, 402 at the plan's limit, storage and database errors.
pub async fn store_and_record(
    ctx: &AppContext,
    file: ReceivedFile,
    new: NewDocument,
) -> Result<documents::Model> {
    let ctx = ctx.clone();
    tokio::spawn(async move {
        let settings = Settings::from_context(&ctx)?;
        let stored = file
            .store(&ctx, &format!("documents/{}", new.org.pid))
            .await?;
        let rules = UploadContext {
            org: &new.org,
            documents_per_vendor: settings.plan_limits(&new.org.plan).documents_per_vendor,
            reminder_offsets: &settings.reminders.offsets_days,
            source: new.source,
        };
        let created =
            documents::Model::create(&ctx.db, &rules, &new.vendor, &new.info, &stored).await;
        if created.is_err() {
            remove_stored(&ctx, &stored.storage_key).await;
        }
        created
    })
    .await
    .map_err(|e| Error::string(&format!("the upload task did not finish: {e}")))?
}

/// Removes stored files once their rows are gone, in a task of its own so that a client going
/// away does not leave them behind.
pub async fn remove_all_stored(ctx: &AppContext, keys: Vec<String>) {
    let ctx = ctx.clone();
    let removal = tokio::spawn(async move {
        for key in keys {
            remove_stored(&ctx, &key).await;
        }
    });
    if let Err(err) = removal.await {
        tracing::warn!(error = %err, "the removal of stored files did not finish");
    }
}

/// Removes a stored file, logging (not failing) when it is already gone.
pub async fn remove_stored(ctx: &AppContext, key: &str) {
    if let Err(err) = ctx.storage.delete(Path::new(key)).await {
        tracing::warn!(key, error = %err, "could not remove a stored file");
    }
}
