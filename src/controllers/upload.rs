//! Multipart uploads, streamed: the file goes chunk by chunk to a temporary file (never whole
//! in memory), with the 10 MB limit checked as it arrives. What happens to it next is the
//! model's (`documents::Model::store_and_record`). Anything refused or interrupted leaves
//! nothing behind.

use std::collections::HashMap;

use axum::{
    extract::{multipart::Field, Multipart},
    http::StatusCode,
};
use loco_rs::prelude::*;
use tokio::io::AsyncWriteExt;

use crate::{
    errors::{bad_request, field_error, payload_too_large},
    infra::storage::{io_write_error, upload_temp_dir, UPLOAD_TEMP_PREFIX},
    models::{
        documents::{UploadedFile, MAX_UPLOAD_NOTES},
        file_type::MAX_UPLOAD_BYTES,
    },
};

/// How much of the start of a file is kept for type detection.
const HEAD_BYTES: usize = 8192;
/// Text fields beside the file are short: room for the longest notes in any characters.
const MAX_FIELD_BYTES: usize = 20 * 1024;

pub struct Received {
    pub fields: HashMap<String, String>,
    pub file: Option<UploadedFile>,
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

#[must_use]
pub fn multipart_error(err: &axum::extract::multipart::MultipartError) -> Error {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return payload_too_large();
    }
    bad_request(
        "invalid_upload",
        &format!("The upload could not be read: {}", err.body_text()),
    )
}

/// The text fields of the signed-in upload form, beside `file` (`vendorId`, which older
/// clients send, is taken and ignored: the vendor is the path's).
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
    let mut file: Option<UploadedFile> = None;
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(&e))?
    {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            if file.is_some() {
                return Err(field_error("file", "Send one file at a time."));
            }
            file = Some(receive_file(field).await?);
        } else if known.contains(&name.as_str()) {
            let text = receive_text(&name, field).await?;
            fields.insert(name, text);
        } else {
            return Err(bad_request(
                "invalid_upload",
                "The upload has a field that is not part of the form.",
            ));
        }
    }
    Ok(Received { fields, file })
}

/// A short text field: at most 20 KiB (notes at most 5000 characters), without NUL characters.
async fn receive_text(name: &str, field: Field<'_>) -> Result<String> {
    let bytes = field.bytes().await.map_err(|e| multipart_error(&e))?;
    if bytes.len() > MAX_FIELD_BYTES {
        return Err(field_error(name, "This field is too long."));
    }
    if bytes.contains(&0) {
        return Err(field_error(
            name,
            "This field may not contain NUL characters.",
        ));
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // As sent, as the document's `maxLength` counts (and as `PUT /api/documents/{id}` allows).
    if name == "notes" && text.chars().count() > MAX_UPLOAD_NOTES {
        return Err(field_error(
            name,
            &format!("Notes must be at most {MAX_UPLOAD_NOTES} characters"),
        ));
    }
    Ok(text)
}

/// The temporary file could not be written: the same answer as storage refusing the file.
fn temp_error(err: &std::io::Error) -> Error {
    tracing::error!(error = %err, "could not write an upload's temporary file");
    io_write_error(err.kind())
}

/// A temporary file named `upload-…` in [`upload_temp_dir`], removed when dropped. The name
/// and the folder are known so that what a crash left can be found and removed
/// (`storage::remove_stale_files`, at start-up and by the `storage_orphans` task).
fn upload_temp_file() -> std::io::Result<tempfile::TempPath> {
    let dir = upload_temp_dir();
    std::fs::create_dir_all(&dir)?;
    Ok(tempfile::Builder::new()
        .prefix(UPLOAD_TEMP_PREFIX)
        .tempfile_in(dir)?
        .into_temp_path())
}

/// The file, chunk by chunk into a temporary file, refused as soon as it passes 10 MB.
async fn receive_file(mut field: Field<'_>) -> Result<UploadedFile> {
    let original_name = field.file_name().unwrap_or_default().to_string();
    let temp = upload_temp_file().map_err(|e| temp_error(&e))?;
    let mut out = tokio::fs::File::create(&temp)
        .await
        .map_err(|e| temp_error(&e))?;
    let mut size: u64 = 0;
    let mut head = Vec::with_capacity(HEAD_BYTES);
    while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(&e))? {
        size += chunk.len() as u64;
        if size > MAX_UPLOAD_BYTES {
            return Err(payload_too_large());
        }
        if head.len() < HEAD_BYTES {
            let take = (HEAD_BYTES - head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..take]);
        }
        out.write_all(&chunk).await.map_err(|e| temp_error(&e))?;
    }
    out.flush().await.map_err(|e| temp_error(&e))?;
    Ok(UploadedFile {
        original_name,
        size,
        head,
        temp,
    })
}
