//! Backups: the database and the stored files together, in one ZIP archive (docs/deploy.md,
//! "Backups"), written by the `backup` task and put back by the `restore` task.
//!
//! - The database first, as one consistent snapshot: `VACUUM INTO` on `SQLite` (the app may
//!   keep running), `pg_dump --format=custom` on `PostgreSQL` (one repeatable-read
//!   transaction).
//! - Then every file a document row points to (current versions and history), read after the
//!   snapshot so it covers every row in it. Files are never changed in place, only added and
//!   deleted: a file missing by then belonged to a document deleted after the snapshot, and is
//!   listed in the manifest as such.
//! - `manifest.json` last: the time, the database kind, the files with their sizes and SHA-256.
//!   An archive without it is incomplete, and `restore` refuses it.

use std::{
    fmt::Write as _,
    io::{Read, Write},
    path::{Path, PathBuf},
    process::Command,
};

use futures_util::StreamExt;
use loco_rs::prelude::*;
use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zip::{write::SimpleFileOptions, CompressionMethod, ZipArchive, ZipWriter};

use crate::models::_entities::documents;

const MANIFEST: &str = "manifest.json";
const SQLITE_SNAPSHOT: &str = "database.sqlite";
const PG_DUMP: &str = "database.pgdump";
const FILES: &str = "files/";

#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub app_version: String,
    /// `sqlite` or `postgres`.
    pub database: String,
    pub files: Vec<FileEntry>,
    /// Keys of rows in the snapshot whose file was deleted before it could be copied.
    pub missing: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct FileEntry {
    pub key: String,
    pub size: u64,
    pub sha256: String,
}

fn fail(what: &str, e: impl std::fmt::Display) -> Error {
    Error::string(&format!("{what}: {e}"))
}

fn stored() -> SimpleFileOptions {
    // Uploads are PDFs, images and Office files: compressed already.
    SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .large_file(true)
}

/// Writes a backup of the database and the stored files to `archive`.
///
/// # Errors
/// Database, storage and file errors; a partly written archive is removed.
pub async fn write(ctx: &AppContext, archive: &Path, app_version: &str) -> Result<Manifest> {
    let result = write_inner(ctx, archive, app_version).await;
    if result.is_err() {
        let _ = std::fs::remove_file(archive);
    }
    result
}

async fn write_inner(ctx: &AppContext, archive: &Path, app_version: &str) -> Result<Manifest> {
    let work = tempfile::tempdir()?;
    let (database, snapshot, entry) = match ctx.db.get_database_backend() {
        DatabaseBackend::Sqlite => {
            let path = work.path().join(SQLITE_SNAPSHOT);
            let sql = format!(
                "VACUUM INTO '{}'",
                path.display().to_string().replace('\'', "''")
            );
            ctx.db
                .execute_raw(Statement::from_string(DatabaseBackend::Sqlite, sql))
                .await?;
            ("sqlite", path, SQLITE_SNAPSHOT)
        }
        DatabaseBackend::Postgres => {
            let path = work.path().join(PG_DUMP);
            run(Command::new("pg_dump")
                .args(["--format=custom", "--no-owner", "--no-privileges", "--file"])
                .arg(&path)
                .arg("--dbname")
                .arg(&ctx.config.database.uri))?;
            ("postgres", path, PG_DUMP)
        }
        other => return Err(Error::string(&format!("no backup for {other:?}"))),
    };
    let keys: Vec<String> = documents::Entity::find()
        .select_only()
        .column(documents::Column::StorageKey)
        .distinct()
        .into_tuple::<String>()
        .all(&ctx.db)
        .await?;

    let mut zip = ZipWriter::new(std::fs::File::create(archive)?);
    zip.start_file(entry, stored())
        .map_err(|e| fail("archive", e))?;
    std::io::copy(&mut std::fs::File::open(&snapshot)?, &mut zip)?;
    let mut manifest = Manifest {
        created_at: chrono::Utc::now(),
        app_version: app_version.to_string(),
        database: database.to_string(),
        files: Vec::with_capacity(keys.len()),
        missing: Vec::new(),
    };
    for key in keys {
        let mut stream = match ctx.storage.download_stream(Path::new(&key)).await {
            Ok(stream) => stream,
            Err(e) => {
                tracing::warn!(key, error = %e, "a document's file is gone: deleted after the snapshot?");
                manifest.missing.push(key);
                continue;
            }
        };
        zip.start_file(format!("{FILES}{key}"), stored())
            .map_err(|e| fail("archive", e))?;
        let (mut size, mut hash) = (0u64, Sha256::new());
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| fail(&key, e))?;
            hash.update(&chunk);
            size += chunk.len() as u64;
            zip.write_all(&chunk)?;
        }
        manifest.files.push(FileEntry {
            key,
            size,
            sha256: hex::encode(hash.finalize()),
        });
    }
    zip.start_file(MANIFEST, SimpleFileOptions::default())
        .map_err(|e| fail("archive", e))?;
    zip.write_all(&serde_json::to_vec_pretty(&manifest)?)?;
    zip.finish().map_err(|e| fail("archive", e))?.sync_all()?;
    Ok(manifest)
}

fn run(cmd: &mut Command) -> Result<()> {
    let program = cmd.get_program().to_string_lossy().to_string();
    let out = cmd
        .output()
        .map_err(|e| fail(&format!("{program} (is it installed?)"), e))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(Error::string(&format!(
            "{program} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

/// Reads the manifest of an archive: `Err` when it has none (an incomplete archive).
///
/// # Errors
/// When the file is no ZIP archive or has no manifest.
pub fn manifest(archive: &Path) -> Result<Manifest> {
    let mut zip = ZipArchive::new(std::fs::File::open(archive)?).map_err(|e| fail("archive", e))?;
    let mut text = String::new();
    zip.by_name(MANIFEST)
        .map_err(|_| Error::string("the archive has no manifest.json: it is incomplete"))?
        .read_to_string(&mut text)?;
    Ok(serde_json::from_str(&text)?)
}

/// Puts an archive back: every table's rows replaced by the snapshot's (in one transaction on
/// `SQLite`; `pg_restore --clean --single-transaction` on `PostgreSQL`), after the
/// migrations have made the tables of an empty database (a fresh host), then every file
/// written to storage after its checksum is checked. Run it with the servers and workers
/// stopped.
///
/// # Errors
/// An archive that is incomplete, of another database kind, or whose file does not match its
/// checksum (nothing is changed then); database and storage errors.
pub async fn restore(ctx: &AppContext, archive: &Path) -> Result<Manifest> {
    let manifest = manifest(archive)?;
    let mut zip = ZipArchive::new(std::fs::File::open(archive)?).map_err(|e| fail("archive", e))?;
    let backend = ctx.db.get_database_backend();
    let kind = match backend {
        DatabaseBackend::Sqlite => "sqlite",
        DatabaseBackend::Postgres => "postgres",
        _ => "other",
    };
    if manifest.database != kind {
        return Err(Error::string(&format!(
            "the archive holds a {} database; this app runs on {kind}",
            manifest.database
        )));
    }
    // Every file checked before anything is changed; one file in memory at a time (an
    // archive may hold far more than memory), so each is read again when it is written.
    for entry in &manifest.files {
        checked_file(&mut zip, entry)?;
    }
    let work = tempfile::tempdir()?;
    let name = if backend == DatabaseBackend::Sqlite {
        SQLITE_SNAPSHOT
    } else {
        PG_DUMP
    };
    let snapshot: PathBuf = work.path().join(name);
    std::io::copy(
        &mut zip.by_name(name).map_err(|e| fail(name, e))?,
        &mut std::fs::File::create(&snapshot)?,
    )?;
    // A fresh host's database is empty (a task does not run the migrations, as `start` does):
    // the tables are made first, as this version has them, for the rows to go into.
    Migrator::up(&ctx.db, None).await?;
    // Each organization's `data_version` (which keys the answers servers keep, `answer_cache`)
    // is lifted past every version the live database had: a server still running would
    // otherwise take the restored rows, and the writes after them, for ones it has seen; and
    // the raise names no vendor, so no kept list is carried forward across it.
    let lift = max_data_version(&ctx.db).await?;
    if backend == DatabaseBackend::Sqlite {
        restore_sqlite(&ctx.db, &snapshot).await?;
    } else {
        run(Command::new("pg_restore")
            .args([
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--dbname",
            ])
            .arg(&ctx.config.database.uri)
            .arg(&snapshot))?;
    }
    ctx.db
        .execute_raw(Statement::from_string(
            backend,
            format!(
                "UPDATE organizations \
                 SET data_version = data_version + {lift} + 1, changed_vendor_id = NULL"
            ),
        ))
        .await?;
    for entry in &manifest.files {
        let bytes = checked_file(&mut zip, entry)?;
        ctx.storage
            .upload(Path::new(&entry.key), &bytes.into())
            .await
            .map_err(|e| fail(&entry.key, e))?;
    }
    Ok(manifest)
}

/// The highest `data_version` of the live organizations (0: none).
async fn max_data_version(db: &DatabaseConnection) -> Result<i64> {
    let row = db
        .query_one_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT COALESCE(MAX(data_version), 0) AS v FROM organizations",
        ))
        .await?;
    Ok(row.map_or(Ok(0), |r| r.try_get::<i64>("", "v"))?)
}

/// A stored file's bytes from the archive, once they match the manifest's checksum.
fn checked_file(zip: &mut ZipArchive<std::fs::File>, entry: &FileEntry) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(usize::try_from(entry.size).unwrap_or(0));
    zip.by_name(&format!("{FILES}{}", entry.key))
        .map_err(|e| fail(&entry.key, e))?
        .read_to_end(&mut bytes)?;
    if hex::encode(Sha256::digest(&bytes)) != entry.sha256 {
        return Err(Error::string(&format!(
            "{} does not match its checksum: the archive is damaged",
            entry.key
        )));
    }
    Ok(bytes)
}

/// The snapshot attached, and each of its tables copied over the live one's rows, in one
/// transaction (foreign keys checked at its end). `ATTACH` cannot run inside a transaction, so
/// all of it runs on one connection taken from the pool.
async fn restore_sqlite(db: &DatabaseConnection, snapshot: &Path) -> Result<()> {
    use sea_orm::sqlx::{self, Row};
    let sqlx_error = |e: sqlx::Error| fail("restore", e);
    let mut conn = db
        .get_sqlite_connection_pool()
        .acquire()
        .await
        .map_err(sqlx_error)?;
    let path = snapshot.display().to_string().replace('\'', "''");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "ATTACH DATABASE '{path}' AS backup"
    )))
    .execute(&mut *conn)
    .await
    .map_err(sqlx_error)?;
    let copied: std::result::Result<(), sqlx::Error> = async {
        let tables: Vec<String> = sqlx::query(
            "SELECT name FROM backup.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| row.get::<String, _>("name"))
        .collect();
        let mut script = String::from("BEGIN IMMEDIATE; PRAGMA defer_foreign_keys = ON;");
        for table in &tables {
            let quoted = format!("\"{}\"", table.replace('"', "\"\""));
            let _ = write!(
                script,
                " DELETE FROM main.{quoted}; INSERT INTO main.{quoted} SELECT * FROM backup.{quoted};"
            );
        }
        script.push_str(" COMMIT;");
        if let Err(e) = sqlx::raw_sql(sqlx::AssertSqlSafe(script)).execute(&mut *conn).await {
            let _ = sqlx::raw_sql("ROLLBACK").execute(&mut *conn).await;
            return Err(e);
        }
        Ok(())
    }
    .await;
    let detached = sqlx::raw_sql("DETACH DATABASE backup")
        .execute(&mut *conn)
        .await;
    copied.map_err(sqlx_error)?;
    detached.map_err(sqlx_error)?;
    Ok(())
}
