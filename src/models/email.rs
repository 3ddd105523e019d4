//! Email addresses, as every form takes them.

/// A valid email address: trimmed, lower-cased (addresses are compared without case), HTML's
/// rule as `validator` checks it, and at most 254 characters (RFC 5321's limit on a path,
/// which `validator` does not check).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailAddress(String);

impl EmailAddress {
    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        let email = normalize(raw);
        (email.chars().count() <= 254 && validator::ValidateEmail::validate_email(&email))
            .then_some(Self(email))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<EmailAddress> for String {
    fn from(email: EmailAddress) -> Self {
        email.0
    }
}

/// How an address is stored and compared: without case or surrounding space. A string that
/// is no address normalizes too, and then matches nothing.
#[must_use]
pub fn normalize(raw: &str) -> String {
    raw.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_trimmed_lowercased_and_checked() {
        assert_eq!(
            EmailAddress::parse("  Ann@Example.COM ").map(String::from),
            Some("ann@example.com".to_string())
        );
        assert_eq!(EmailAddress::parse("nope"), None);
        assert_eq!(EmailAddress::parse(""), None);
        let label = "a".repeat(61);
        let long = format!("ann@{label}.{label}.{label}.{}.com", "b".repeat(61));
        assert_eq!(long.len(), 255);
        assert_eq!(EmailAddress::parse(&long), None, "past RFC 5321's 254");
        let shorter = long.replacen(&label, &"a".repeat(60), 1);
        assert!(EmailAddress::parse(&shorter).is_some(), "254 is allowed");
    }
}
