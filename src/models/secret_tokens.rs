//! Secret tokens handed to one person (an invitation link, a password reset, a portal upload's
//! reading): 32 random bytes, hex; only the SHA-256 digest is stored, so a copy of the database
//! opens nothing.

use hmac::Hmac;
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

/// An HMAC-SHA256 under a key made from the app's `secret` (the JWT secret) for one `purpose`
/// only, so that no signature made for one use is valid for another. The key is 32 bytes
/// padded to the block with zeros, which is what HMAC does with a short key: a fixed-size key
/// cannot be refused.
#[must_use]
pub fn purpose_mac(purpose: &[u8], secret: &str) -> Hmac<Sha256> {
    let mut key = [0u8; 64];
    key[..32].copy_from_slice(
        &Sha256::new()
            .chain_update(purpose)
            .chain_update(secret)
            .finalize(),
    );
    <Hmac<Sha256> as hmac::digest::KeyInit>::new(&key.into())
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
