//! Word files: a .docx is a zip holding a Word document, a .doc an OLE compound file holding a
//! `WordDocument` stream. Both are judged from their whole structure, wherever in the file it
//! lies, and without inflating or reading more than that structure needs.

use std::{fs::File, io::Read, path::Path};

/// The first bytes of every OLE compound file (`.doc`, `.xls`, `.ppt`, `.msg`, ...).
pub const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// A compound file is a .doc only when its directory holds a `WordDocument` stream (Word 97 to
/// 2003, and `LibreOffice` saving as such). The directory usually lies past the first few KiB
/// (a `LibreOffice`-saved 18 KB file has it at byte 17,408), so the file is opened whole;
/// `cfb` reads its header, allocation tables and directory, not the streams.
pub fn is_word_cfb(path: &Path) -> bool {
    cfb::open(path).is_ok_and(|file| file.is_stream("/WordDocument"))
}

/// Limits on what is read of a zip: its central directory lists at most this many entries,
/// and of its content only `[Content_Types].xml` is inflated, at most this many bytes.
const MAX_ZIP_ENTRIES: usize = 10_000;
const MAX_CONTENT_TYPES_BYTES: u64 = 64 * 1024;
/// The content type a Word document's main part is declared with in `[Content_Types].xml`.
const WORD_MAIN_PART: &str =
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";

/// A zip is a .docx only when its central directory lists the parts of a Word document and
/// its `[Content_Types].xml` declares a Word main part. Nothing else is inflated, and that one
/// entry only up to `MAX_CONTENT_TYPES_BYTES`, so a zip bomb costs nothing.
pub fn is_word_zip(path: &Path) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let Ok(mut archive) = zip::ZipArchive::new(file) else {
        return false;
    };
    if archive.len() > MAX_ZIP_ENTRIES || archive.index_for_name("word/document.xml").is_none() {
        return false;
    }
    let Ok(entry) = archive.by_name("[Content_Types].xml") else {
        return false;
    };
    let mut declared = Vec::new();
    if entry
        .take(MAX_CONTENT_TYPES_BYTES)
        .read_to_end(&mut declared)
        .is_err()
    {
        return false;
    }
    String::from_utf8_lossy(&declared).contains(WORD_MAIN_PART)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn a_compound_file_is_a_doc_only_with_a_word_stream() {
        let mut word = tempfile::NamedTempFile::new().unwrap();
        {
            let mut cfb = cfb::CompoundFile::create(word.as_file_mut()).unwrap();
            let mut stream = cfb.create_stream("/WordDocument").unwrap();
            stream.write_all(&[0xEC, 0xA5, 0xC1, 0x00]).unwrap();
            drop(stream);
            cfb.flush().unwrap();
        }
        assert!(is_word_cfb(word.path()));
        let mut sheet = tempfile::NamedTempFile::new().unwrap();
        {
            let mut cfb = cfb::CompoundFile::create(sheet.as_file_mut()).unwrap();
            cfb.create_stream("/Workbook").unwrap();
            cfb.flush().unwrap();
        }
        assert!(!is_word_cfb(sheet.path()), "an .xls is no .doc");
        let mut broken = tempfile::NamedTempFile::new().unwrap();
        broken.write_all(&CFB_MAGIC).unwrap();
        broken.write_all(&[0u8; 600]).unwrap();
        assert!(!is_word_cfb(broken.path()));
    }

    /// A .docx the way Word, `LibreOffice` and Google Docs write it: deflated entries.
    fn office_docx(content_types: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        {
            let mut w = zip::ZipWriter::new(&mut f);
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            for (name, body) in [
                ("[Content_Types].xml", content_types),
                ("_rels/.rels", b"<Relationships/>".as_slice()),
                (
                    "word/document.xml",
                    b"<w:document><w:body/></w:document>".as_slice(),
                ),
            ] {
                w.start_file(name, opts).unwrap();
                std::io::Write::write_all(&mut w, body).unwrap();
            }
            w.finish().unwrap();
        }
        f
    }

    #[test]
    fn a_deflated_word_document_is_a_docx() {
        let types = format!(
            "<?xml version=\"1.0\"?><Types><Override PartName=\"/word/document.xml\" \
             ContentType=\"{WORD_MAIN_PART}\"/></Types>"
        );
        let f = office_docx(types.as_bytes());
        assert!(is_word_zip(f.path()));
        let f = office_docx(b"<Types/>");
        assert!(!is_word_zip(f.path()), "no Word main part declared");
    }

    #[test]
    fn a_zip_bomb_is_read_no_further_than_the_limit() {
        let mut bomb = vec![b' '; 5 * 1024 * 1024];
        bomb.extend_from_slice(WORD_MAIN_PART.as_bytes());
        let f = office_docx(&bomb);
        assert!(std::fs::metadata(f.path()).unwrap().len() < 1024 * 1024);
        assert!(
            !is_word_zip(f.path()),
            "what lies past the first 64 KiB is never inflated"
        );
    }

    #[test]
    fn a_zip_is_a_docx_only_with_word_parts() {
        let mut plain = tempfile::NamedTempFile::new().unwrap();
        {
            let mut w = zip::ZipWriter::new(&mut plain);
            w.start_file(
                "hello.txt",
                zip::write::SimpleFileOptions::default()
                    .compression_method(zip::CompressionMethod::Stored),
            )
            .unwrap();
            std::io::Write::write_all(&mut w, b"hi").unwrap();
            w.finish().unwrap();
        }
        assert!(!is_word_zip(plain.path()));
        let mut word = tempfile::NamedTempFile::new().unwrap();
        {
            let mut w = zip::ZipWriter::new(&mut word);
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored);
            w.start_file("[Content_Types].xml", opts).unwrap();
            std::io::Write::write_all(&mut w, WORD_MAIN_PART.as_bytes()).unwrap();
            w.start_file("word/document.xml", opts).unwrap();
            std::io::Write::write_all(&mut w, b"<w:document/>").unwrap();
            w.finish().unwrap();
        }
        assert!(is_word_zip(word.path()));
    }
}
