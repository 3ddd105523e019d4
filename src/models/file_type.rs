//! What an uploaded file really is: decided from its bytes, never from its name or the
//! client's Content-Type, and required to agree with its extension.

use std::path::Path;

use loco_rs::prelude::*;

use super::refusal::Refusal;

pub mod convert;
mod office;
mod pdf;

/// Largest accepted upload: 10 MB.
pub const MAX_UPLOAD_BYTES: u64 = 10 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Pdf,
    Doc,
    Docx,
    Png,
    Jpeg,
    /// iPhone photos (HEIF holding HEVC pictures).
    Heic,
    /// Office scanners' output.
    Tiff,
    Webp,
}

impl FileKind {
    pub const ALL: [Self; 8] = [
        Self::Pdf,
        Self::Doc,
        Self::Docx,
        Self::Png,
        Self::Jpeg,
        Self::Heic,
        Self::Tiff,
        Self::Webp,
    ];

    #[must_use]
    pub const fn content_type(self) -> &'static str {
        match self {
            Self::Pdf => "application/pdf",
            Self::Doc => "application/msword",
            Self::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Heic => "image/heic",
            Self::Tiff => "image/tiff",
            Self::Webp => "image/webp",
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
            Self::Heic => &["heic", "heif"],
            Self::Tiff => &["tif", "tiff"],
            Self::Webp => &["webp"],
        }
    }

    /// Shown inline by the view endpoint (PDFs and images); Word files are downloaded.
    #[must_use]
    pub const fn is_viewable(self) -> bool {
        !matches!(self, Self::Doc | Self::Docx)
    }

    /// What the view answers with: a browser shows no HEIC and no TIFF, so those are converted
    /// (`convert::for_browser`) to a JPEG and a PNG.
    #[must_use]
    pub const fn view_content_type(self) -> &'static str {
        match self {
            Self::Heic => "image/jpeg",
            Self::Tiff => "image/png",
            other => other.content_type(),
        }
    }

    /// Converted for the view (see `view_content_type`).
    #[must_use]
    pub const fn needs_conversion(self) -> bool {
        matches!(self, Self::Heic | Self::Tiff)
    }

    #[must_use]
    pub fn from_content_type(ct: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.content_type() == ct)
    }
}

/// The kind of the file at `path`, whose first bytes are `head`. Word files are judged from
/// their whole structure (`office`), everything else from its first bytes.
#[must_use]
pub fn detect(head: &[u8], path: &Path) -> Option<FileKind> {
    if head.starts_with(b"PK\x03\x04") {
        return office::is_word_zip(path).then_some(FileKind::Docx);
    }
    if head.starts_with(&office::CFB_MAGIC) {
        return office::is_word_cfb(path).then_some(FileKind::Doc);
    }
    match infer::get(head)?.mime_type() {
        "application/pdf" => Some(FileKind::Pdf),
        "image/png" => Some(FileKind::Png),
        "image/jpeg" => Some(FileKind::Jpeg),
        // infer's HEIF: an ISO-BMFF `ftyp` box of brand `heic`, `heix`, or `mif1`/`msf1` with
        // `heic` among the compatible brands.
        "image/heif" => Some(FileKind::Heic),
        "image/tiff" => Some(FileKind::Tiff),
        "image/webp" => Some(FileKind::Webp),
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
/// Reads the whole file for Word files and PDFs: call it off the async threads.
///
/// # Errors
/// 422 for an empty file, a name whose extension does not match the content or a PDF that
/// needs a password to open, 415 for any other type.
pub fn check(name: &str, size: u64, head: &[u8], path: &Path) -> Result<FileKind> {
    if size == 0 {
        return Err(Refusal::EmptyFile.into());
    }
    let Some(kind) = detect(head, path) else {
        return Err(Refusal::UnsupportedFileType.into());
    };
    match extension(name) {
        Some(ext) if kind.extensions().contains(&ext.as_str()) => {
            if kind == FileKind::Pdf && pdf::needs_password(path) {
                return Err(Refusal::PasswordProtectedPdf.into());
            }
            Ok(kind)
        }
        Some(ext) => Err(Refusal::FileTypeMismatch(format!(
            "The file's content does not match its .{ext} extension."
        ))
        .into()),
        None => Err(Refusal::FileTypeMismatch(
            "The file name needs an extension: .pdf, .doc, .docx, .png, .jpg, .jpeg, .heic, \
             .heif, .tif, .tiff or .webp."
                .to_string(),
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
}
