//! A backup restored: the `backup` task's archive, put back by the `restore` task after the
//! data was changed and files lost, gives every document back with its exact bytes, and what
//! was added after the backup is gone. On `SQLite` (`VACUUM INTO`) and `PostgreSQL`
//! (`pg_dump` / `pg_restore`), whichever the test run uses.

use std::path::Path;

use loco_rs::boot::run_task;
use serde_json::Value;

use crate::support::{
    create_vendor, get, register, task_vars, upload, with_app_config, Account, UploadSpec,
};
use vendorwatch::app::App;

/// The archive again, with one stored file's bytes changed (its manifest checksum kept).
fn damage_one_file(from: &Path, to: &Path) {
    use std::io::Write;
    let mut source = zip::ZipArchive::new(std::fs::File::open(from).unwrap()).unwrap();
    let mut out = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let mut damaged = false;
    for i in 0..source.len() {
        let file = source.by_index(i).unwrap();
        if !damaged && file.name().starts_with("files/") {
            let name = file.name().to_string();
            drop(file);
            out.start_file(name, zip::write::SimpleFileOptions::default())
                .unwrap();
            out.write_all(&pdf_with("not what was backed up")).unwrap();
            damaged = true;
        } else {
            out.raw_copy_file(file).unwrap();
        }
    }
    out.finish().unwrap();
    assert!(damaged);
}

fn pdf_with(marker: &str) -> Vec<u8> {
    let mut bytes = crate::fixtures::pdf();
    bytes.extend_from_slice(format!("\n% {marker}\n").as_bytes());
    bytes
}

#[tokio::test]
async fn a_restored_backup_gives_back_every_document_byte_for_byte() {
    with_app_config(
        |_| {},
        |server, ctx| async move {
            let (ann, second, originals) = seed(&server).await;
            let dir = tempfile::tempdir().unwrap();
            let archive = dir.path().join("nightly.zip");
            let archive_arg = archive.display().to_string();

            run_task::<App>(
                &ctx,
                Some(&"backup".to_string()),
                &task_vars(&[("file", &archive_arg)]),
            )
            .await
            .unwrap();
            let manifest = vendorwatch::backup::manifest(&archive).unwrap();
            assert_eq!(manifest.files.len(), 3, "{manifest:?}");
            assert!(manifest.missing.is_empty());

            // After the backup: a vendor deleted with its documents and files, every other
            // file lost, a vendor added.
            let (h, v) = crate::support::bearer(&ann.token);
            let res = server
                .delete(&format!("/api/vendors/{second}"))
                .add_header(h, v)
                .await;
            assert!(res.status_code().is_success(), "{}", res.text());
            for entry in &manifest.files {
                let _ = ctx.storage.delete(Path::new(&entry.key)).await;
            }
            let later = create_vendor(&server, &ann, "Added Later").await["id"]
                .as_str()
                .unwrap()
                .to_string();

            // Refused without confirm:yes, and an archive without its manifest: nothing changes.
            assert!(run_task::<App>(
                &ctx,
                Some(&"restore".to_string()),
                &task_vars(&[("file", &archive_arg)])
            )
            .await
            .is_err());
            let cut = dir.path().join("cut.zip");
            let bytes = std::fs::read(&archive).unwrap();
            std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
            let damaged = dir.path().join("damaged.zip");
            damage_one_file(&archive, &damaged);
            for bad in [&cut, &damaged] {
                assert!(run_task::<App>(
                    &ctx,
                    Some(&"restore".to_string()),
                    &task_vars(&[("file", &bad.display().to_string()), ("confirm", "yes")])
                )
                .await
                .is_err());
            }
            assert_eq!(
                get(&server, &ann, &format!("/api/vendors/{later}"))
                    .await
                    .status_code(),
                200
            );

            run_task::<App>(
                &ctx,
                Some(&"restore".to_string()),
                &task_vars(&[("file", &archive_arg), ("confirm", "yes")]),
            )
            .await
            .unwrap();

            for (id, bytes) in &originals {
                let res = get(&server, &ann, &format!("/api/documents/{id}/download")).await;
                assert_eq!(res.status_code(), 200, "document {id}: {}", res.text());
                assert_eq!(&res.as_bytes().to_vec(), bytes, "document {id}");
            }
            assert_eq!(
                get(&server, &ann, &format!("/api/vendors/{second}"))
                    .await
                    .status_code(),
                200
            );
            assert_eq!(
                get(&server, &ann, &format!("/api/vendors/{later}"))
                    .await
                    .status_code(),
                404
            );
        },
    )
    .await;
}

/// An account with two vendors: two versions of one W-9 (the first kept as history) and a
/// vendor agreement. Returns the account, the second vendor's id and each document's id and
/// bytes.
async fn seed(server: &axum_test::TestServer) -> (Account, String, Vec<(String, Vec<u8>)>) {
    let ann = register(server, "Ann Backup", Some("Backup Co")).await;
    let first = create_vendor(server, &ann, "First Vendor").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let second = create_vendor(server, &ann, "Second Vendor").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Two versions of one W-9 (the first kept as history), and a vendor agreement.
    let mut originals: Vec<(String, Vec<u8>)> = Vec::new();
    for (vendor, kind, marker) in [
        (&first, "w9", "w9 version one"),
        (&first, "w9", "w9 version two"),
        (&second, "vendor_agreement", "agreement"),
    ] {
        let spec = UploadSpec {
            bytes: pdf_with(marker),
            ..UploadSpec::pdf(kind)
        };
        let res = upload(server, &ann, vendor, &spec).await;
        assert_eq!(res.status_code(), 201, "{}", res.text());
        let doc: Value = res.json();
        originals.push((doc["id"].as_str().unwrap().to_string(), spec.bytes));
    }
    (ann, second, originals)
}
