//! Document and vendor status (docs/product.md, "Status").

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// Days before expiry within which a document is `expiring_soon`.
pub const EXPIRING_SOON_DAYS: i64 = 30;

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    // Ordered from best to worst: the worst current document decides a vendor's status.
    Current,
    ExpiringSoon,
    Expired,
    Missing,
}

impl Status {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Current => "current",
            Self::ExpiringSoon => "expiring_soon",
            Self::Expired => "expired",
            Self::Missing => "missing",
        }
    }

    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "current" => Some(Self::Current),
            "expiring_soon" => Some(Self::ExpiringSoon),
            "expired" => Some(Self::Expired),
            "missing" => Some(Self::Missing),
            _ => None,
        }
    }
}

/// A document's status on `today`: from the days left until it expires (docs/product.md, "Status");
/// a document with no expiration date is on file and does not expire.
#[must_use]
pub fn document_status(expiration: Option<NaiveDate>, today: NaiveDate) -> Status {
    let Some(expiration) = expiration else {
        return Status::Current;
    };
    let days = (expiration - today).num_days();
    if days <= 0 {
        Status::Expired
    } else if days <= EXPIRING_SOON_DAYS {
        Status::ExpiringSoon
    } else {
        Status::Current
    }
}

/// A vendor's status from its current documents: none is `missing`, otherwise the worst wins.
#[must_use]
pub fn vendor_status(current: impl IntoIterator<Item = Status>) -> Status {
    current
        .into_iter()
        .filter(|s| *s != Status::Missing)
        .max()
        .unwrap_or(Status::Missing)
}

/// A date as the screens and emails write it: `Jan 5, 2026`.
#[must_use]
pub fn display_date(date: NaiveDate) -> String {
    date.format("%b %-d, %Y").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn document_status_at_every_boundary() {
        let today = d("2026-03-10");
        let days = |n: i64| Some(today + chrono::Duration::days(n));
        assert_eq!(
            document_status(days(-1), today),
            Status::Expired,
            "yesterday"
        );
        assert_eq!(document_status(days(0), today), Status::Expired, "today");
        assert_eq!(
            document_status(days(1), today),
            Status::ExpiringSoon,
            "tomorrow"
        );
        assert_eq!(
            document_status(days(30), today),
            Status::ExpiringSoon,
            "in 30 days"
        );
        assert_eq!(
            document_status(days(31), today),
            Status::Current,
            "in 31 days"
        );
        assert_eq!(
            document_status(None, today),
            Status::Current,
            "no date: on file"
        );
    }

    #[test]
    fn vendor_status_worst_current_document_wins() {
        use Status::*;
        assert_eq!(vendor_status([]), Missing);
        assert_eq!(vendor_status([Current, Current]), Current);
        assert_eq!(vendor_status([Current, ExpiringSoon]), ExpiringSoon);
        assert_eq!(vendor_status([ExpiringSoon, Expired, Current]), Expired);
    }
}
