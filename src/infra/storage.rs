//! The file storage beside Loco's: the local driver (atomic writes, no retries on writes), the
//! error an upload answers when storage cannot take a file, the readiness probe that writes,
//! and the clean-up of temporary files a crash left (docs/architecture.md, "Storage").

use std::{
    io,
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, Instant, SystemTime},
};

use axum::http::StatusCode;
use bytes::Bytes;
use futures_util::StreamExt;
use loco_rs::{
    prelude::*,
    storage::{
        drivers::{
            opendal_adapter::OpendalAdapter, GetResponse, ListEntry, PresignPutOptions,
            PresignedRequest, StoreDriver, UploadResponse,
        },
        stream::BytesStream,
        StorageError, StorageResult,
    },
};
use opendal::{services::Fs, Operator};

use crate::errors::api_error;

/// Where the local driver writes a file before renaming it to its key: inside the storage
/// folder, so that the rename stays on one file system and a file appears under its key whole
/// or not at all. Nothing else lives there; what a crash left is removed after an hour.
pub const PARTIAL_DIR: &str = ".partial";

/// Temporary files older than this belong to no upload still under way (an upload is at most
/// 10 MB and its request times out long before).
pub const STALE_AFTER: Duration = Duration::from_hours(1);

/// The local file system, through `OpenDAL` as Loco's own `local` driver, with two changes:
/// every write goes to a temporary file in [`PARTIAL_DIR`] and is renamed to its key once
/// complete (Loco's writes in place, so a crash left a truncated file under its final name), and
/// writes are not retried. Loco wraps every operator in `OpenDAL`'s retry layer, which takes any
/// unclassified I/O error (a full or read-only disk, a folder that is a file) as temporary and
/// tries again three times with growing pauses: 10 seconds before an upload failed, each try
/// leaving a partial file. Reads keep Loco's adapter and its retries.
pub struct LocalStore {
    writes: Operator,
    reads: OpendalAdapter,
}

/// The local driver rooted at `root` (created when missing).
///
/// # Errors
/// When the folder or its [`PARTIAL_DIR`] cannot be created.
pub fn local(root: &Path) -> StorageResult<Box<dyn StoreDriver>> {
    let partial = root.join(PARTIAL_DIR);
    let fs = Fs::default()
        .root(&root.display().to_string())
        .atomic_write_dir(&partial.display().to_string());
    let op = Operator::new(fs)?;
    Ok(Box::new(LocalStore {
        reads: OpendalAdapter::new(op.clone()),
        writes: op,
    }))
}

fn key(path: &Path) -> String {
    path.display().to_string()
}

#[async_trait]
impl StoreDriver for LocalStore {
    async fn upload(&self, path: &Path, content: &Bytes) -> StorageResult<UploadResponse> {
        self.writes.write(&key(path), content.clone()).await?;
        Ok(UploadResponse::new(None, None))
    }

    async fn get(&self, path: &Path) -> StorageResult<GetResponse> {
        self.reads.get(path).await
    }

    async fn delete(&self, path: &Path) -> StorageResult<()> {
        Ok(self.writes.delete(&key(path)).await?)
    }

    async fn rename(&self, from: &Path, to: &Path) -> StorageResult<()> {
        Ok(self.writes.rename(&key(from), &key(to)).await?)
    }

    async fn copy(&self, from: &Path, to: &Path) -> StorageResult<()> {
        self.writes.copy(&key(from), &key(to)).await?;
        Ok(())
    }

    async fn exists(&self, path: &Path) -> StorageResult<bool> {
        self.reads.exists(path).await
    }

    async fn list(&self, path: &Path, recursive: bool) -> StorageResult<Vec<ListEntry>> {
        self.reads.list(path, recursive).await
    }

    async fn stat(&self, path: &Path) -> StorageResult<ListEntry> {
        self.reads.stat(path).await
    }

    async fn presign_get(&self, path: &Path, expire: Duration) -> StorageResult<PresignedRequest> {
        self.reads.presign_get(path, expire).await
    }

    async fn presign_put(
        &self,
        path: &Path,
        expire: Duration,
        options: PresignPutOptions,
    ) -> StorageResult<PresignedRequest> {
        self.reads.presign_put(path, expire, options).await
    }

    async fn get_stream(&self, path: &Path) -> StorageResult<BytesStream> {
        self.reads.get_stream(path).await
    }

    /// Streams into the temporary file; on any failure the temporary file is removed, so a
    /// refused write leaves nothing (a crash leaves it to [`remove_stale_files`]).
    async fn upload_stream(
        &self,
        path: &Path,
        stream: BytesStream,
    ) -> StorageResult<UploadResponse> {
        let mut writer = self.writes.writer(&key(path)).await?;
        let mut stream = Box::pin(stream);
        let written: StorageResult<()> = async {
            while let Some(chunk) = stream.next().await {
                writer
                    .write(chunk.map_err(|e| StorageError::Any(Box::new(e)))?)
                    .await?;
            }
            Ok(())
        }
        .await;
        if let Err(err) = written {
            if let Err(abort) = writer.abort().await {
                tracing::warn!(error = %abort, "could not remove a partial file");
            }
            return Err(err);
        }
        writer.close().await?;
        Ok(UploadResponse::new(None, None))
    }
}

/// The I/O error kind at the root of a storage error, when there is one.
fn io_kind(err: &StorageError) -> Option<io::ErrorKind> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(io) = e.downcast_ref::<io::Error>() {
            return Some(io.kind());
        }
        current = e.source();
    }
    None
}

/// What an upload answers when storage refuses its file: 507 `storage_full` for a full disk or
/// quota, 503 `storage_unavailable` for anything else (read-only, missing, unreachable). Both
/// say that nothing was saved; the details go to the log.
#[must_use]
pub fn write_error(err: &StorageError) -> Error {
    tracing::error!(error = %err, "storage refused a file");
    match io_kind(err) {
        Some(kind) => io_write_error(kind),
        None => unavailable(),
    }
}

/// [`write_error`] for an I/O error of our own (the upload's temporary file).
#[must_use]
pub fn io_write_error(kind: io::ErrorKind) -> Error {
    match kind {
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => api_error(
            StatusCode::INSUFFICIENT_STORAGE,
            "storage_full",
            "The server has no room left to store files. Nothing was saved; please try again later.",
        ),
        _ => unavailable(),
    }
}

fn unavailable() -> Error {
    api_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "storage_unavailable",
        "The server cannot store files right now. Nothing was saved; please try again in a few minutes.",
    )
}

/// How long a readiness answer about storage is reused: probing writes a file.
pub const PROBE_CACHE: Duration = Duration::from_secs(5);

/// The last write probe and when it ran, shared by the requests of one process.
#[derive(Clone, Default)]
pub struct StorageProbe {
    last: Arc<tokio::sync::Mutex<Option<(Instant, bool)>>>,
}

impl StorageProbe {
    /// Whether storage takes a small file and gives it back up, at most once per
    /// [`PROBE_CACHE`] (concurrent callers wait for the one probe). Each probe writes
    /// `documents/.readiness-<uuid>` (where uploads go) and deletes it; a probe slower than
    /// `timeout` fails.
    pub async fn writable(&self, ctx: &AppContext, timeout: Duration) -> bool {
        let mut last = self.last.lock().await;
        if let Some((at, ok)) = *last {
            if at.elapsed() < PROBE_CACHE {
                return ok;
            }
        }
        let ok = match tokio::time::timeout(timeout, write_and_delete(ctx)).await {
            Ok(Ok(())) => true,
            Ok(Err(error)) => {
                tracing::warn!(dependency = "storage", %error, "readiness check failed");
                false
            }
            Err(_) => {
                tracing::warn!(dependency = "storage", "readiness check timed out");
                false
            }
        };
        *last = Some((Instant::now(), ok));
        ok
    }
}

async fn write_and_delete(ctx: &AppContext) -> StorageResult<()> {
    let key = format!(
        "{}/.readiness-{}",
        crate::models::orphan_files::DOCUMENTS_FOLDER,
        uuid::Uuid::new_v4().simple()
    );
    let path = Path::new(&key);
    ctx.storage
        .upload(path, &Bytes::from_static(b"readiness probe"))
        .await?;
    ctx.storage.delete(path).await
}

/// Where uploads are received before they are checked and stored: `vendorwatch-uploads` in the
/// system's temporary folder (`TMPDIR`), each file named `upload-…`.
#[must_use]
pub fn upload_temp_dir() -> PathBuf {
    std::env::temp_dir().join("vendorwatch-uploads")
}

/// The prefix of an upload's temporary file.
pub const UPLOAD_TEMP_PREFIX: &str = "upload-";

/// The folders whose files are all temporary: the uploads' and, for local storage under
/// `local_root`, its [`PARTIAL_DIR`].
#[must_use]
pub fn temp_dirs(local_root: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = vec![upload_temp_dir()];
    dirs.extend(local_root.map(|root| root.join(PARTIAL_DIR)));
    dirs
}

/// Removes the files of `dirs` last modified more than `older_than` ago (left by a process that
/// died mid-upload) and returns them; younger ones may be uploads under way and are kept. A
/// missing folder is nothing to do.
///
/// # Errors
/// When a folder exists but cannot be read; a file that cannot be removed is logged.
pub fn remove_stale_files(dirs: &[PathBuf], older_than: Duration) -> io::Result<Vec<PathBuf>> {
    stale_files(dirs, older_than, true)
}

/// The files [`remove_stale_files`] would remove, removing them only when `remove`.
///
/// # Errors
/// When a folder exists but cannot be read.
pub fn stale_files(
    dirs: &[PathBuf],
    older_than: Duration,
    remove: bool,
) -> io::Result<Vec<PathBuf>> {
    let cutoff = SystemTime::now()
        .checked_sub(older_than)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let mut removed = Vec::new();
    for dir in dirs {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() || meta.modified().is_ok_and(|at| at > cutoff) {
                continue;
            }
            let path = entry.path();
            if !remove {
                removed.push(path);
                continue;
            }
            match std::fs::remove_file(&path) {
                Ok(()) => removed.push(path),
                Err(error) => {
                    tracing::warn!(path = %path.display(), %error, "could not remove a stale temporary file");
                }
            }
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn storage_error(kind: io::ErrorKind) -> StorageError {
        opendal::Error::new(opendal::ErrorKind::Unexpected, "write failed")
            .set_source(io::Error::from(kind))
            .into()
    }

    fn status(err: Error) -> (StatusCode, String) {
        match err {
            Error::CustomError(status, detail) => (status, detail.error.unwrap_or_default()),
            other => panic!("not an answer of ours: {other:?}"),
        }
    }

    #[test]
    fn a_full_disk_is_507_storage_full_and_any_other_write_failure_503() {
        assert_eq!(
            status(write_error(&storage_error(io::ErrorKind::StorageFull))),
            (StatusCode::INSUFFICIENT_STORAGE, "storage_full".into())
        );
        assert_eq!(
            status(write_error(&storage_error(io::ErrorKind::QuotaExceeded))),
            (StatusCode::INSUFFICIENT_STORAGE, "storage_full".into())
        );
        for kind in [
            io::ErrorKind::ReadOnlyFilesystem,
            io::ErrorKind::NotADirectory,
            io::ErrorKind::PermissionDenied,
        ] {
            assert_eq!(
                status(write_error(&storage_error(kind))),
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "storage_unavailable".into()
                ),
                "{kind:?}"
            );
        }
        assert_eq!(
            status(write_error(&StorageError::Any("no route to host".into()))),
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "storage_unavailable".into()
            )
        );
    }
}
