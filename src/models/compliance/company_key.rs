//! Company keys: how a vendor reaches its client's portal (docs/product.md, "Vendors and company keys").

use rand::{distr::Alphanumeric, Rng};

/// A well-formed company key: exactly 8 ASCII letters or digits. Holding one means it was
/// checked; whether a vendor has it is the database's question.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompanyKey(String);

impl CompanyKey {
    pub const LEN: usize = 8;

    /// The key, if `raw` is one (as given: callers trim form input first).
    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        (raw.len() == Self::LEN && raw.bytes().all(|b| b.is_ascii_alphanumeric()))
            .then(|| Self(raw.to_string()))
    }

    /// A new key from the thread's CSPRNG (`ChaCha` seeded by the operating system).
    #[must_use]
    pub fn generate() -> Self {
        Self(
            rand::rng()
                .sample_iter(&Alphanumeric)
                .take(Self::LEN)
                .map(char::from)
                .collect(),
        )
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<CompanyKey> for String {
    fn from(key: CompanyKey) -> Self {
        key.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn company_keys_are_eight_alphanumerics_and_vary() {
        let (a, b) = (CompanyKey::generate(), CompanyKey::generate());
        assert_eq!(CompanyKey::parse(a.as_str()), Some(a.clone()));
        assert_eq!(CompanyKey::parse(b.as_str()), Some(b.clone()));
        assert_ne!(a, b);
        assert_eq!(CompanyKey::parse("abc"), None);
        assert_eq!(CompanyKey::parse("abcd-efg"), None);
        assert_eq!(CompanyKey::parse("abcdéfgh"), None);
        assert_eq!(CompanyKey::parse(" abcdefg"), None);
        assert!(CompanyKey::parse("Ab3dEf9h").is_some());
    }
}
