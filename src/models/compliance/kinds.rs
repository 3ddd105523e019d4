//! What a document is: its type, a COI's insurance type, the seven dashboard slots they
//! fill, and the labels shown for them (docs/product.md, "Documents, slots and versions").

use sea_orm::sea_query::{CaseStatement, Expr};
use serde::{Deserialize, Serialize};

use super::Status;

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

/// The status of each of the seven slots, given the current documents as (slot, status,
/// what decided it): a slot's worst current document decides it, an empty slot is `missing`.
#[must_use]
pub fn slot_statuses<T: Copy>(current: &[(Slot, Status, T)]) -> Vec<(Slot, Status, Option<T>)> {
    Slot::ALL
        .into_iter()
        .map(|slot| {
            current
                .iter()
                .filter(|(s, _, _)| *s == slot)
                .max_by_key(|(_, status, _)| *status)
                .map_or((slot, Status::Missing, None), |(_, status, item)| {
                    (slot, *status, Some(*item))
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            (Slot::W9, Status::Current, 1),
            (Slot::CoiAutomobile, Status::ExpiringSoon, 2),
            (Slot::Other, Status::Current, 3),
            (Slot::Other, Status::Expired, 4),
        ]);
        assert_eq!(statuses.len(), 7);
        assert_eq!(statuses[0], (Slot::W9, Status::Current, Some(1)));
        assert_eq!(
            statuses[1],
            (Slot::CoiGeneralLiability, Status::Missing, None)
        );
        assert_eq!(
            statuses[3],
            (Slot::CoiAutomobile, Status::ExpiringSoon, Some(2))
        );
        assert_eq!(
            statuses[6],
            (Slot::Other, Status::Expired, Some(4)),
            "the worst document of a slot decides it"
        );
    }
}
