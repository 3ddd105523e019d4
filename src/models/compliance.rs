//! The compliance rules, free of HTTP and storage: document and vendor status, the seven
//! dashboard slots, document types and labels, company keys and reminder dates.

use chrono::{Days, NaiveDate};
use rand::{distr::Alphanumeric, Rng};
use sea_orm::sea_query::{CaseStatement, Expr};
use serde::{Deserialize, Serialize};

pub mod sql;

/// Days before expiry within which a document is `expiring_soon`.
pub const EXPIRING_SOON_DAYS: i64 = 30;
pub const COMPANY_KEY_LEN: usize = 8;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema,
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

/// A document's status on `today`: from the days left until it expires (SPEC.md section 4);
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DocumentType {
    Coi,
    W9,
    SalesTax,
    VendorAgreement,
    Other,
}

impl DocumentType {
    pub const ALL: [Self; 5] = [
        Self::Coi,
        Self::W9,
        Self::SalesTax,
        Self::VendorAgreement,
        Self::Other,
    ];

    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Coi => "coi",
            Self::W9 => "w9",
            Self::SalesTax => "sales_tax",
            Self::VendorAgreement => "vendor_agreement",
            Self::Other => "other",
        }
    }

    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Coi => "Certificate of Insurance",
            Self::W9 => "W9 Form",
            Self::SalesTax => "Sales Tax Exemption",
            Self::VendorAgreement => "Vendor Agreement",
            Self::Other => "Other",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CoiType {
    GeneralLiability,
    WorkersComp,
    Automobile,
}

impl CoiType {
    pub const ALL: [Self; 3] = [Self::GeneralLiability, Self::WorkersComp, Self::Automobile];

    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::GeneralLiability => "general_liability",
            Self::WorkersComp => "workers_comp",
            Self::Automobile => "automobile",
        }
    }

    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::GeneralLiability => "General Liability",
            Self::WorkersComp => "Workers Compensation",
            Self::Automobile => "Automobile",
        }
    }
}

/// The seven dashboard slots, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    W9,
    CoiGeneralLiability,
    CoiWorkersComp,
    CoiAutomobile,
    SalesTax,
    VendorAgreement,
    Other,
}

impl Slot {
    pub const ALL: [Self; 7] = [
        Self::W9,
        Self::CoiGeneralLiability,
        Self::CoiWorkersComp,
        Self::CoiAutomobile,
        Self::SalesTax,
        Self::VendorAgreement,
        Self::Other,
    ];
    /// What the upload portal asks for unless the client chose otherwise: all but Other.
    pub const DEFAULT_REQUIRED: [Self; 6] = [
        Self::W9,
        Self::CoiGeneralLiability,
        Self::CoiWorkersComp,
        Self::CoiAutomobile,
        Self::SalesTax,
        Self::VendorAgreement,
    ];

    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::W9 => "w9",
            Self::CoiGeneralLiability => "coi_general_liability",
            Self::CoiWorkersComp => "coi_workers_comp",
            Self::CoiAutomobile => "coi_automobile",
            Self::SalesTax => "sales_tax",
            Self::VendorAgreement => "vendor_agreement",
            Self::Other => "other",
        }
    }

    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::W9 => "W-9 Form",
            Self::CoiGeneralLiability => "COI - General",
            Self::CoiWorkersComp => "COI - Workers",
            Self::CoiAutomobile => "COI - Auto",
            Self::SalesTax => "Sales Tax Certificate",
            Self::VendorAgreement => "Vendor Agreement",
            Self::Other => "Other Documents",
        }
    }

    /// The slot a document fills. A COI needs its insurance type.
    #[must_use]
    pub const fn of(document_type: DocumentType, coi: Option<CoiType>) -> Option<Self> {
        match (document_type, coi) {
            (DocumentType::W9, _) => Some(Self::W9),
            (DocumentType::Coi, Some(CoiType::GeneralLiability)) => Some(Self::CoiGeneralLiability),
            (DocumentType::Coi, Some(CoiType::WorkersComp)) => Some(Self::CoiWorkersComp),
            (DocumentType::Coi, Some(CoiType::Automobile)) => Some(Self::CoiAutomobile),
            (DocumentType::Coi, None) => None,
            (DocumentType::SalesTax, _) => Some(Self::SalesTax),
            (DocumentType::VendorAgreement, _) => Some(Self::VendorAgreement),
            (DocumentType::Other, _) => Some(Self::Other),
        }
    }

    /// The name of the slot on the vendor upload portal.
    #[must_use]
    pub const fn portal_label(self) -> &'static str {
        match self {
            Self::W9 => "W-9 Form",
            Self::CoiGeneralLiability => "Certificate of Insurance (General Liability)",
            Self::CoiWorkersComp => "Certificate of Insurance (Workers Compensation)",
            Self::CoiAutomobile => "Certificate of Insurance (Automobile)",
            Self::SalesTax => "Sales Tax Certificate",
            Self::VendorAgreement => "Vendor Agreement",
            Self::Other => "Other Documents",
        }
    }

    /// The document type and COI type that fill this slot.
    #[must_use]
    pub const fn document_type(self) -> (DocumentType, Option<CoiType>) {
        match self {
            Self::W9 => (DocumentType::W9, None),
            Self::CoiGeneralLiability => (DocumentType::Coi, Some(CoiType::GeneralLiability)),
            Self::CoiWorkersComp => (DocumentType::Coi, Some(CoiType::WorkersComp)),
            Self::CoiAutomobile => (DocumentType::Coi, Some(CoiType::Automobile)),
            Self::SalesTax => (DocumentType::SalesTax, None),
            Self::VendorAgreement => (DocumentType::VendorAgreement, None),
            Self::Other => (DocumentType::Other, None),
        }
    }

    /// Whether a new document in this slot makes the previous one history.
    #[must_use]
    pub const fn supersedes(self) -> bool {
        !matches!(self, Self::Other)
    }
}

/// What a stored document is called: the insurance type of a COI, else the document type
/// (from the `document_type` and `coi_type` columns).
#[must_use]
pub fn stored_label(document_type: &str, coi_type: Option<&str>) -> &'static str {
    coi_type
        .and_then(CoiType::parse)
        .map(CoiType::label)
        .or_else(|| DocumentType::parse(document_type).map(DocumentType::label))
        .unwrap_or("Document")
}

/// `stored_label` in SQL, over the `document_type` and `coi_type` columns given: a `CASE` built
/// from the same enums, so the sweep can label entries on the database server. A test holds
/// the two to the same answers.
#[must_use]
pub fn stored_label_sql(document_type: &Expr, coi_type: &Expr) -> Expr {
    use sea_orm::sea_query::ExprTrait;
    let mut label = CaseStatement::new();
    for coi in CoiType::ALL {
        label = label.case(coi_type.clone().eq(coi.as_str()), coi.label());
    }
    for kind in DocumentType::ALL {
        label = label.case(document_type.clone().eq(kind.as_str()), kind.label());
    }
    label.finally("Document").into()
}

/// The notes stored for a document: a COI's begin with its type (SPEC.md section 3).
#[must_use]
pub fn compose_notes(coi: Option<CoiType>, notes: Option<&str>) -> Option<String> {
    let notes = notes.map(str::trim).filter(|n| !n.is_empty());
    match (coi, notes) {
        (Some(coi), Some(n)) => Some(format!("COI Type: {} - {n}", coi.label())),
        (Some(coi), None) => Some(format!("COI Type: {}", coi.label())),
        (None, n) => n.map(ToString::to_string),
    }
}

/// The user's own part of stored notes (without the `COI Type: ...` prefix).
#[must_use]
pub fn user_notes(stored: Option<&str>) -> Option<String> {
    let stored = stored?;
    let own = match stored.strip_prefix("COI Type: ") {
        Some(rest) => rest.split_once(" - ").map(|(_, n)| n)?,
        None => stored,
    };
    let own = own.trim();
    (!own.is_empty()).then(|| own.to_string())
}

/// The COI type named in notes written the SPEC.md way, for clients that send no `coiType`.
#[must_use]
pub fn coi_type_in_notes(notes: &str) -> Option<CoiType> {
    let n = notes.to_lowercase();
    if n.contains("general liability") || n.contains("general_liability") {
        Some(CoiType::GeneralLiability)
    } else if n.contains("workers_comp") || n.contains("workers comp") {
        Some(CoiType::WorkersComp)
    } else if n.contains("automobile") || n.contains("auto") {
        Some(CoiType::Automobile)
    } else {
        None
    }
}

/// The status of each of the seven slots, given the current documents as (slot, status).
#[must_use]
pub fn slot_statuses(current: &[(Slot, Status)]) -> Vec<(Slot, Status)> {
    Slot::ALL
        .into_iter()
        .map(|slot| {
            let status = current
                .iter()
                .filter(|(s, _)| *s == slot)
                .map(|(_, st)| *st)
                .max()
                .unwrap_or(Status::Missing);
            (slot, status)
        })
        .collect()
}

/// A new company key: 8 characters from [A-Za-z0-9], from the thread's CSPRNG (`ChaCha` seeded
/// by the operating system).
#[must_use]
pub fn generate_company_key() -> String {
    rand::rng()
        .sample_iter(&Alphanumeric)
        .take(COMPANY_KEY_LEN)
        .map(char::from)
        .collect()
}

#[must_use]
pub fn is_company_key(key: &str) -> bool {
    key.len() == COMPANY_KEY_LEN && key.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Reminder dates for a document expiring on `expiration`: one per offset (days before);
/// dates already past on `today` collapse into a single reminder dated today.
#[must_use]
pub fn reminder_dates(expiration: NaiveDate, offsets: &[u32], today: NaiveDate) -> Vec<NaiveDate> {
    let mut dates: Vec<NaiveDate> = offsets
        .iter()
        .filter_map(|d| expiration.checked_sub_days(Days::new(u64::from(*d))))
        .map(|date| date.max(today))
        .collect();
    dates.sort_unstable();
    dates.dedup();
    dates
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

    #[test]
    fn slots_follow_type_and_coi_subtype() {
        assert_eq!(
            Slot::of(DocumentType::Coi, Some(CoiType::WorkersComp)),
            Some(Slot::CoiWorkersComp)
        );
        assert_eq!(Slot::of(DocumentType::Coi, None), None);
        assert_eq!(
            Slot::of(DocumentType::W9, Some(CoiType::Automobile)),
            Some(Slot::W9)
        );
        for slot in Slot::ALL {
            let (t, c) = slot.document_type();
            assert_eq!(Slot::of(t, c), Some(slot));
        }
        assert!(!Slot::Other.supersedes());
        assert!(Slot::W9.supersedes());
    }

    #[test]
    fn seven_slot_statuses_with_missing_for_empty_slots() {
        let statuses = slot_statuses(&[
            (Slot::W9, Status::Current),
            (Slot::CoiAutomobile, Status::ExpiringSoon),
            (Slot::Other, Status::Current),
            (Slot::Other, Status::Expired),
        ]);
        assert_eq!(statuses.len(), 7);
        assert_eq!(statuses[0], (Slot::W9, Status::Current));
        assert_eq!(statuses[1], (Slot::CoiGeneralLiability, Status::Missing));
        assert_eq!(statuses[3], (Slot::CoiAutomobile, Status::ExpiringSoon));
        assert_eq!(statuses[6], (Slot::Other, Status::Expired));
    }

    #[test]
    fn coi_notes_begin_with_the_type() {
        assert_eq!(
            compose_notes(Some(CoiType::GeneralLiability), Some(" renewal ")),
            Some("COI Type: General Liability - renewal".to_string())
        );
        assert_eq!(
            compose_notes(Some(CoiType::Automobile), Some("")),
            Some("COI Type: Automobile".to_string())
        );
        assert_eq!(compose_notes(None, Some("hi")), Some("hi".to_string()));
        assert_eq!(compose_notes(None, None), None);
    }

    #[test]
    fn user_notes_drop_the_coi_prefix() {
        assert_eq!(
            user_notes(Some("COI Type: Automobile - fleet")),
            Some("fleet".to_string())
        );
        assert_eq!(user_notes(Some("COI Type: Automobile")), None);
        assert_eq!(user_notes(Some("plain")), Some("plain".to_string()));
        assert_eq!(
            coi_type_in_notes("COI Type: workers_comp"),
            Some(CoiType::WorkersComp)
        );
        assert_eq!(
            coi_type_in_notes("COI Type: General Liability"),
            Some(CoiType::GeneralLiability)
        );
    }

    #[test]
    fn company_keys_are_eight_alphanumerics_and_vary() {
        let a = generate_company_key();
        let b = generate_company_key();
        assert!(is_company_key(&a) && is_company_key(&b));
        assert_ne!(a, b);
        assert!(!is_company_key("abc"));
        assert!(!is_company_key("abcd-efg"));
        assert!(!is_company_key("abcdéfgh"));
    }

    #[test]
    fn reminder_dates_collapse_past_dates_into_today() {
        let today = d("2026-03-10");
        assert_eq!(
            reminder_dates(d("2026-05-01"), &[30, 7, 0], today),
            vec![d("2026-04-01"), d("2026-04-24"), d("2026-05-01")]
        );
        assert_eq!(
            reminder_dates(d("2026-03-20"), &[30, 7, 0], today),
            vec![today, d("2026-03-13"), d("2026-03-20")],
            "30 days before is already past: it becomes today"
        );
        assert_eq!(
            reminder_dates(d("2026-03-01"), &[30, 7, 0], today),
            vec![today],
            "an already expired document gets one reminder, today"
        );
    }
}
