//! An accepted upload becoming a document: the file's content is checked, the file is written
//! to storage and its row recorded, all or nothing (docs/product.md, "Uploads"). Both
//! upload routes, the signed-in one and the portal's, come through here.

use std::path::Path;

use loco_rs::{prelude::*, storage::stream::BytesStream};
use tokio_util::io::ReaderStream;

use super::{DocumentInfo, Model, StoredFile, UploadContext};
use crate::{
    models::{
        file_type::{self, FileKind},
        organizations, vendors,
    },
    settings::Settings,
};

/// A file received whole into a temporary file, not yet checked. The temporary file goes
/// when this is dropped.
pub struct UploadedFile {
    pub original_name: String,
    pub size: u64,
    /// The start of the file, for type detection.
    pub head: Vec<u8>,
    pub temp: tempfile::TempPath,
}

/// A document about to be made from an upload: whose it is, what it is, who sent it.
pub struct NewDocument {
    pub org: organizations::Model,
    pub vendor: vendors::Model,
    pub info: DocumentInfo,
    pub source: super::DocumentSource,
    pub actor: crate::models::activities::Actor,
}

impl UploadedFile {
    /// Checks the content, then streams it to storage under a generated key.
    ///
    /// # Errors
    /// `EmptyFile`, `UnsupportedFileType`, `FileTypeMismatch` or `PasswordProtectedPdf`;
    /// storage errors.
    async fn store(&self, ctx: &AppContext, folder: &str) -> Result<StoredFile> {
        // The check reads the whole file for Word files and PDFs: a blocking thread's work.
        let (name, size, head) = (self.original_name.clone(), self.size, self.head.clone());
        let path = self.temp.to_path_buf();
        let kind: FileKind =
            tokio::task::spawn_blocking(move || file_type::check(&name, size, &head, &path))
                .await
                .map_err(|e| Error::string(&format!("the file check did not finish: {e}")))??;
        let ext = kind.extensions()[0];
        let key = format!("{folder}/{}.{ext}", uuid::Uuid::new_v4().simple());
        let reader = tokio::fs::File::open(&self.temp).await?;
        let stream = BytesStream::from_body_stream(ReaderStream::new(reader));
        // A refused write leaves nothing under the key (the local driver writes aside and
        // renames; an S3 PUT is whole or nothing), and answers at once: 507 or 503.
        ctx.storage
            .upload_stream(Path::new(&key), stream)
            .await
            .map_err(|e| crate::infra::storage::write_error(&e))?;
        Ok(StoredFile {
            file_name: file_type::display_name(&self.original_name),
            storage_key: key,
            content_type: kind.content_type().to_string(),
            size: self.size,
        })
    }
}

impl Model {
    /// Checks the file, writes it to storage and records its row, all or nothing. The work
    /// runs in a task of its own: a client that goes away mid-way drops the request's future,
    /// and that must not stop the work between the file written and its row committed (a file
    /// no row points to). A refused row removes the file; a crash in between leaves one for
    /// the `storage_orphans` task.
    ///
    /// # Errors
    /// A refused file, `PlanLimit` at the plan's limit, storage and database errors.
    pub async fn store_and_record(
        ctx: &AppContext,
        file: UploadedFile,
        new: NewDocument,
    ) -> Result<Self> {
        let ctx = ctx.clone();
        tokio::spawn(async move {
            let settings = Settings::from_context(&ctx)?;
            let stored = file
                .store(&ctx, &format!("documents/{}", new.org.pid))
                .await?;
            let rules = UploadContext {
                org: &new.org,
                documents_per_vendor: settings.plan_limits(new.org.plan()).documents_per_vendor,
                reminder_offsets: &settings.reminders.offsets_days,
                source: new.source,
                actor: &new.actor,
            };
            let created = Self::create(&ctx.db, &rules, &new.vendor, &new.info, &stored).await;
            if created.is_err() {
                remove_stored(&ctx, &stored.storage_key).await;
            }
            created
        })
        .await
        .map_err(|e| Error::string(&format!("the upload task did not finish: {e}")))?
    }
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
