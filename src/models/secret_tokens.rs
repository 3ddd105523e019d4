//! Secret tokens handed to one person (an invitation link, a password reset, a portal upload's
//! reading): 32 random bytes, hex; only the SHA-256 digest is stored, so a copy of the database
//! opens nothing.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new token: 32 random bytes, URL-safe.
#[must_use]
pub fn new() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// The stored form of a token.
#[must_use]
pub fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_token_is_stored_only_as_its_digest() {
        let token = super::new();
        assert_eq!(token.len(), 64);
        assert_ne!(super::new(), token);
        assert_eq!(super::digest(&token).len(), 64);
        assert_ne!(super::digest(&token), token);
    }
}
