//! What an uploaded file really is: decided from its bytes, never from its name or the
//! client's Content-Type, and required to agree with its extension.

use std::{fs::File, path::Path};

use axum::http::StatusCode;
use loco_rs::prelude::*;

use crate::errors::api_error;

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
        [Self::Pdf, Self::Doc, Self::Docx, Self::Png, Self::Jpeg]
            .into_iter()
            .find(|k| k.content_type() == ct)
    }
}

/// A zip is a .docx only when it holds the parts of a Word document.
fn is_word_zip(path: &Path) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let Ok(mut archive) = zip::ZipArchive::new(file) else {
        return false;
    };
    archive.by_name("[Content_Types].xml").is_ok() && archive.by_name("word/document.xml").is_ok()
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

/// The lower-case extension of a file name.
#[must_use]
pub fn extension(name: &str) -> Option<String> {
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty() && !ext.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// Checks the stored bytes against the accepted types and the name's extension.
///
/// # Errors
/// 422 for an empty file or a name whose extension does not match the content, 415 for any
/// other type.
pub fn check(name: &str, size: u64, head: &[u8], path: &Path) -> Result<FileKind> {
    if size == 0 {
        return Err(api_error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "empty_file",
            "The file is empty.",
        ));
    }
    let Some(kind) = detect(head, path) else {
        return Err(api_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_file_type",
            "Only PDF, DOC, DOCX, PNG and JPG files are accepted.",
        ));
    };
    match extension(name) {
        Some(ext) if kind.extensions().contains(&ext.as_str()) => Ok(kind),
        Some(ext) => Err(api_error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "file_type_mismatch",
            &format!("The file's content does not match its .{ext} extension."),
        )),
        None => Err(api_error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "file_type_mismatch",
            "The file name needs an extension: .pdf, .doc, .docx, .png, .jpg or .jpeg.",
        )),
    }
}

/// The original name as display text: no path parts, no control characters, at most 255
/// characters.
#[must_use]
pub fn display_name(original: &str) -> String {
    let last = original.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last.chars().filter(|c| !c.is_control()).collect();
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
            std::io::Write::write_all(&mut w, b"<Types/>").unwrap();
            w.start_file("word/document.xml", opts).unwrap();
            std::io::Write::write_all(&mut w, b"<w:document/>").unwrap();
            w.finish().unwrap();
        }
        assert_eq!(detect(b"PK\x03\x04", word.path()), Some(FileKind::Docx));
    }
}
