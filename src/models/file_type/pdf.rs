//! PDFs that cannot be opened without a password. A PDF may be encrypted with only an owner
//! password (it opens for anyone; printing or copying may be restricted): that one is fine. One
//! with a user password opens for no one here, nor for the business that receives it, so it is
//! refused at upload.

use std::path::Path;

use lopdf::{Document, LoadOptions};

/// What lopdf may inflate while reading a PDF's structure (its object streams): more than a
/// 10 MB upload needs, far less than a compression bomb would make of it.
const MAX_DECOMPRESSED_BYTES: usize = 64 * 1024 * 1024;

/// Whether the PDF at `path` needs a password to open: it declares encryption (`/Encrypt` in
/// its trailer) and the empty user password does not authenticate. lopdf decrypts a document
/// the empty password opens as it loads it, and leaves `/Encrypt` in place only when that
/// fails. A file lopdf cannot read at all is not judged here (it is accepted as a PDF, as
/// before): only a PDF known to be locked is refused.
#[must_use]
pub fn needs_password(path: &Path) -> bool {
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_DECOMPRESSED_BYTES),
        ..LoadOptions::default()
    };
    let Ok(doc) = Document::load_with_options(path, options) else {
        return false;
    };
    doc.is_encrypted() && doc.authenticate_user_password("").is_err()
}
