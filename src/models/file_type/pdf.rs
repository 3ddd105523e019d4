//! PDFs that cannot be opened without a password. A PDF may be encrypted with only an owner
//! password (it opens for anyone; printing or copying may be restricted): that one is fine. One
//! with a user password opens for no one here, nor for the business that receives it, so it is
//! refused at upload.

use std::{fs::File, io::Read, path::Path};

use lopdf::{Document, LoadOptions};

/// What lopdf may inflate while reading a PDF's structure (its object streams): more than a
/// 10 MB upload needs, far less than a compression bomb would make of it.
const MAX_DECOMPRESSED_BYTES: usize = 64 * 1024 * 1024;

/// The name an encrypted PDF's trailer gives its encryption dictionary. Trailers (and
/// cross-reference stream dictionaries) are never encrypted, so in a locked PDF these bytes
/// are there in plain text.
const ENCRYPT: &[u8] = b"/Encrypt";
/// How much of the file is read at a time while looking for `ENCRYPT`.
const CHUNK: usize = 64 * 1024;

/// Whether the file holds the bytes `/Encrypt` anywhere, read a chunk at a time: an upload is
/// never held whole in memory just to learn that it is not encrypted (most are not).
fn mentions_encrypt(path: &Path) -> bool {
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let finder = memchr::memmem::Finder::new(ENCRYPT);
    let mut buf = vec![0u8; CHUNK + ENCRYPT.len()];
    let mut kept = 0;
    loop {
        let read = match file.read(&mut buf[kept..]) {
            Ok(0) | Err(_) => return false,
            Ok(n) => n,
        };
        let end = kept + read;
        if finder.find(&buf[..end]).is_some() {
            return true;
        }
        // A name cut in two by the chunk boundary is found with the next chunk.
        kept = (ENCRYPT.len() - 1).min(end);
        buf.copy_within(end - kept..end, 0);
    }
}

/// Whether the PDF at `path` needs a password to open: it declares encryption (`/Encrypt` in
/// its trailer) and the empty user password does not authenticate. Only a file that mentions
/// `/Encrypt` is loaded whole, by lopdf, which decrypts a document the empty password opens as
/// it loads it and leaves `/Encrypt` in place only when that fails. A file lopdf cannot read at
/// all is not judged here (it is accepted as a PDF, as before): only a PDF known to be locked
/// is refused.
#[must_use]
pub fn needs_password(path: &Path) -> bool {
    if !mentions_encrypt(path) {
        return false;
    }
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_DECOMPRESSED_BYTES),
        ..LoadOptions::default()
    };
    let Ok(doc) = Document::load_with_options(path, options) else {
        return false;
    };
    doc.is_encrypted() && doc.authenticate_user_password("").is_err()
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn the_encrypt_name_is_found_across_chunk_boundaries() {
        for at in [0, CHUNK - 3, CHUNK, 3 * CHUNK - 1] {
            let mut f = tempfile::NamedTempFile::new().unwrap();
            let mut bytes = vec![b' '; at];
            bytes.extend_from_slice(b"/Encrypt 5 0 R");
            bytes.resize(at + 2 * CHUNK, b' ');
            f.write_all(&bytes).unwrap();
            assert!(mentions_encrypt(f.path()), "at {at}");
        }
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(&vec![b'/'; 3 * CHUNK]).unwrap();
        assert!(!mentions_encrypt(f.path()));
    }
}
