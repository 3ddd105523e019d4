//! What an uploaded file really is: decided from its bytes, never from its name or the
//! client's Content-Type, and required to agree with its extension.

use std::{fs::File, io::Read, path::Path};

use loco_rs::prelude::*;

use super::refusal::Refusal;

/// Largest accepted upload: 10 MB.
pub const MAX_UPLOAD_BYTES: u64 = 10 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Pdf,
    Doc,
    Docx,
    Png,
    Jpeg,
}

impl FileKind {
    pub const ALL: [Self; 5] = [Self::Pdf, Self::Doc, Self::Docx, Self::Png, Self::Jpeg];

    #[must_use]
    pub const fn content_type(self) -> &'static str {
        match self {
            Self::Pdf => "application/pdf",
            Self::Doc => "application/msword",
            Self::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
        }
    }

    #[must_use]
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            Self::Pdf => &["pdf"],
            Self::Doc => &["doc"],
            Self::Docx => &["docx"],
            Self::Png => &["png"],
            Self::Jpeg => &["jpg", "jpeg"],
        }
    }

    /// Shown inline by the view endpoint (PDFs and images); Word files are downloaded.
    #[must_use]
    pub const fn is_viewable(self) -> bool {
        !matches!(self, Self::Doc | Self::Docx)
    }

    #[must_use]
    pub fn from_content_type(ct: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.content_type() == ct)
    }
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
fn is_word_zip(path: &Path) -> bool {
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

/// The kind of the file at `path`, whose first bytes are `head`.
#[must_use]
pub fn detect(head: &[u8], path: &Path) -> Option<FileKind> {
    if head.starts_with(b"PK\x03\x04") {
        return is_word_zip(path).then_some(FileKind::Docx);
    }
    match infer::get(head)?.mime_type() {
        "application/pdf" => Some(FileKind::Pdf),
        "image/png" => Some(FileKind::Png),
        "image/jpeg" => Some(FileKind::Jpeg),
        "application/msword" => Some(FileKind::Doc),
        _ => None,
    }
}

/// The lower-case extension of a file name, taken from its last path component only; a name
/// that is nothing but dots and an extension (`.pdf`, `../.pdf`) has none.
#[must_use]
pub fn extension(name: &str) -> Option<String> {
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let (stem, ext) = last.rsplit_once('.')?;
    let stem_is_empty = stem.trim_matches('.').trim().is_empty();
    (!stem_is_empty && !ext.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// Checks the stored bytes against the accepted types and the name's extension.
///
/// # Errors
/// 422 for an empty file or a name whose extension does not match the content, 415 for any
/// other type.
pub fn check(name: &str, size: u64, head: &[u8], path: &Path) -> Result<FileKind> {
    if size == 0 {
        return Err(Refusal::EmptyFile.into());
    }
    let Some(kind) = detect(head, path) else {
        return Err(Refusal::UnsupportedFileType.into());
    };
    match extension(name) {
        Some(ext) if kind.extensions().contains(&ext.as_str()) => Ok(kind),
        Some(ext) => Err(Refusal::FileTypeMismatch(format!(
            "The file's content does not match its .{ext} extension."
        ))
        .into()),
        None => Err(Refusal::FileTypeMismatch(
            "The file name needs an extension: .pdf, .doc, .docx, .png, .jpg or .jpeg.".to_string(),
        )
        .into()),
    }
}

/// Unicode bidirectional controls: shown as nothing, they reorder what follows
/// (`invoice\u{202e}fdp.exe` reads as `invoiceexe.pdf`), so they never reach a display name.
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// The original name as display text: no path parts, no control or bidirectional characters,
/// at most 255 characters.
#[must_use]
pub fn display_name(original: &str) -> String {
    let last = original.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last
        .chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').trim();
    let cleaned: String = cleaned
        .chars()
        .rev()
        .take(255)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if cleaned.is_empty() {
        "document".to_string()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, bytes).unwrap();
        f
    }

    #[test]
    fn names_lose_path_parts_and_control_characters() {
        assert_eq!(display_name("../../etc/passwd.pdf"), "passwd.pdf");
        assert_eq!(display_name("C:\\Users\\ann\\coi.pdf"), "coi.pdf");
        assert_eq!(display_name("a\u{0}b\r\nc.pdf"), "abc.pdf");
        assert_eq!(display_name("../"), "document");
        assert_eq!(display_name("..hidden.pdf"), "hidden.pdf");
    }

    #[test]
    fn names_lose_bidirectional_controls() {
        assert_eq!(
            display_name("invoice\u{202E}fdp.exe.pdf"),
            "invoicefdp.exe.pdf"
        );
        assert_eq!(
            display_name("a\u{2066}b\u{2069}\u{200F}\u{061C}c.pdf"),
            "abc.pdf"
        );
    }

    #[test]
    fn the_extension_comes_from_the_last_path_component() {
        assert_eq!(extension("./etc/passwd"), None);
        assert_eq!(extension("a.b/c"), None);
        assert_eq!(extension("../.pdf"), None);
        assert_eq!(extension(".pdf"), None);
        assert_eq!(extension("...pdf"), None);
        assert_eq!(extension("dir.d\\scan.PNG").as_deref(), Some("png"));
        assert_eq!(extension("w9.final.pdf").as_deref(), Some("pdf"));
        let pdf = b"%PDF-1.4\n";
        let f = write(pdf);
        let err = check("../.pdf", 9, pdf, f.path()).unwrap_err().to_string();
        assert!(!err.contains(".pdf extension"), "{err}");
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
        assert_eq!(detect(b"PK\x03\x04", f.path()), Some(FileKind::Docx));
        let f = office_docx(b"<Types/>");
        assert_eq!(
            detect(b"PK\x03\x04", f.path()),
            None,
            "no Word main part declared"
        );
    }

    #[test]
    fn a_zip_bomb_is_read_no_further_than_the_limit() {
        let mut bomb = vec![b' '; 5 * 1024 * 1024];
        bomb.extend_from_slice(WORD_MAIN_PART.as_bytes());
        let f = office_docx(&bomb);
        assert!(std::fs::metadata(f.path()).unwrap().len() < 1024 * 1024);
        assert_eq!(
            detect(b"PK\x03\x04", f.path()),
            None,
            "what lies past the first 64 KiB is never inflated"
        );
    }

    #[test]
    fn content_decides_and_must_agree_with_the_extension() {
        let pdf = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n";
        let f = write(pdf);
        assert_eq!(check("coi.PDF", 20, pdf, f.path()).unwrap(), FileKind::Pdf);
        assert!(check("coi.png", 20, pdf, f.path()).is_err());
        let exe = b"MZ\x90\x00\x03\x00\x00\x00";
        let f = write(exe);
        assert!(check("coi.pdf", 8, exe, f.path()).is_err());
        assert!(check("coi.pdf", 0, b"", f.path()).is_err());
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
        assert_eq!(detect(b"PK\x03\x04", plain.path()), None);
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
        assert_eq!(detect(b"PK\x03\x04", word.path()), Some(FileKind::Docx));
    }
}
