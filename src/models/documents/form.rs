//! The document forms: an upload's fields and the edit body, parsed into `DocumentInfo` (or a
//! refusal naming the field, with the messages docs/product.md gives).

use chrono::NaiveDate;
use loco_rs::prelude::*;
use serde::{Deserialize, Deserializer};

use super::{DocumentInfo, Model};
use crate::models::{
    compliance::{self, CoiType, DocumentType},
    refusal::Refusal,
};

/// Accepts `YYYY-MM-DD` or a full RFC 3339 instant (the date it names); nothing else, so
/// that `2026-12-31garbage` is refused rather than read as a date.
fn parse_date(raw: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok().or_else(|| {
        chrono::DateTime::parse_from_rfc3339(raw)
            .ok()
            .map(|at| at.date_naive())
    })
}

/// An expiration date as the forms send it: `YYYY-MM-DD`, an RFC 3339 instant (its date), or
/// empty (no date).
pub struct DateInput;

impl utoipa::PartialSchema for DateInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            AnyOfBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type,
        };
        let string = |format: Option<KnownFormat>, pattern: Option<&str>| {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(format.map(SchemaFormat::KnownFormat))
                .pattern(pattern)
                .build()
        };
        AnyOfBuilder::new()
            .item(string(Some(KnownFormat::Date), None))
            .item(string(Some(KnownFormat::DateTime), None))
            .item(string(None, Some(r"^\s*$")))
            .description(Some(
                "YYYY-MM-DD, or an RFC 3339 instant (the date it names); empty means no date",
            ))
            .into()
    }
}

impl utoipa::ToSchema for DateInput {}

/// The notes of an upload, at most, counted as sent (`controllers::upload` refuses longer ones
/// as the field arrives): as an edit allows.
pub const MAX_UPLOAD_NOTES: usize = 5000;

/// The refusal of a COI without a (known) insurance type.
fn coi_type_required() -> Refusal {
    Refusal::field("coiType", "Please select an insurance type for the COI")
}

impl DocumentInfo {
    /// Reads the document fields of an upload form (signed-in or portal); `field` gives a
    /// field's trimmed, non-empty text.
    ///
    /// # Errors
    /// `Invalid` for a missing type or COI type, or a bad date.
    pub fn from_form<'a>(field: impl Fn(&str) -> Option<&'a str>) -> Result<Self> {
        let document_type = field("documentType")
            .ok_or_else(|| Refusal::field("documentType", "Please select a document type"))?;
        let document_type = DocumentType::parse(document_type)
            .ok_or_else(|| Refusal::field("documentType", "Please select a document type"))?;
        if field("coiType").is_some_and(|c| CoiType::parse(c).is_none()) {
            return Err(coi_type_required().into());
        }
        let notes = field("notes").map(|n| compliance::user_notes(Some(n)).unwrap_or_default());
        let coi_type = if document_type == DocumentType::Coi {
            let named = field("coiType").map(|c| CoiType::parse(c).ok_or_else(coi_type_required));
            match named {
                Some(c) => Some(c?),
                None => Some(
                    field("notes")
                        .and_then(compliance::coi_type_in_notes)
                        .ok_or_else(coi_type_required)?,
                ),
            }
        } else {
            None
        };
        let expiration_date =
            match field("expirationDate") {
                Some(raw) => Some(parse_date(raw).ok_or_else(|| {
                    Refusal::field("expirationDate", "Use a date like 2026-12-31")
                })?),
                None => None,
            };
        Ok(Self {
            document_type,
            coi_type,
            expiration_date,
            notes: notes.filter(|n| !n.is_empty()),
        })
    }
}

fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<Option<T>>, D::Error> {
    Ok(Some(Option::deserialize(d)?))
}

/// `PUT /api/documents/{id}`: absent fields stay; `null` clears a date or notes.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct DocumentUpdate {
    #[schema(value_type = Option<DocumentType>)]
    pub document_type: Option<String>,
    /// Required (here or already on the document) when the type is `coi`.
    #[serde(deserialize_with = "present")]
    #[schema(value_type = Option<CoiType>)]
    pub coi_type: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    #[schema(value_type = Option<DateInput>)]
    pub expiration_date: Option<Option<String>>,
    #[serde(deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 5000)]
    pub notes: Option<Option<String>>,
}

impl DocumentUpdate {
    /// What the document becomes: absent fields keep what `doc` has.
    ///
    /// # Errors
    /// `Invalid`, naming the field, for an unknown type or COI type, a bad date or long notes.
    pub fn apply(self, doc: &Model) -> Result<DocumentInfo> {
        if let Some(Some(c)) = &self.coi_type {
            CoiType::parse(c).ok_or_else(coi_type_required)?;
        }
        let document_type = match self.document_type {
            Some(t) => DocumentType::parse(&t)
                .ok_or_else(|| Refusal::field("documentType", "Please select a document type"))?,
            None => DocumentType::parse(&doc.document_type).unwrap_or(DocumentType::Other),
        };
        let coi_type = match (document_type, self.coi_type) {
            (DocumentType::Coi, Some(Some(c))) => {
                Some(CoiType::parse(&c).ok_or_else(coi_type_required)?)
            }
            (DocumentType::Coi, Some(None)) => return Err(coi_type_required().into()),
            (DocumentType::Coi, None) => Some(
                doc.coi_type
                    .as_deref()
                    .and_then(CoiType::parse)
                    .ok_or_else(coi_type_required)?,
            ),
            _ => None,
        };
        let expiration_date = match self.expiration_date {
            Some(Some(raw)) if !raw.trim().is_empty() => {
                Some(parse_date(raw.trim()).ok_or_else(|| {
                    Refusal::field("expirationDate", "Use a date like 2026-12-31")
                })?)
            }
            Some(_) => None,
            None => doc.expiration_date,
        };
        let notes = match self.notes {
            Some(n) => n.map(|n| n.trim().to_string()).filter(|n| !n.is_empty()),
            None => compliance::user_notes(doc.notes.as_deref()),
        };
        if notes.as_ref().is_some_and(|n| n.chars().count() > 5000) {
            return Err(Refusal::field("notes", "Notes must be at most 5000 characters").into());
        }
        Ok(DocumentInfo {
            document_type,
            coi_type,
            expiration_date,
            notes,
        })
    }
}

impl DocumentInfo {
    /// The portal's own rule: a vendor sends a COI with its expiration date, not in the past
    /// (one day of slack: "today" for a vendor west of UTC can be yesterday here).
    ///
    /// # Errors
    /// `Invalid` on `expirationDate`.
    pub fn check_portal_rules(&self, today: NaiveDate) -> Result<()> {
        if self.document_type != DocumentType::Coi {
            return Ok(());
        }
        match self.expiration_date {
            None => Err(Refusal::field(
                "expirationDate",
                &format!(
                    "Expiration date is required for {}",
                    self.slot().portal_label()
                ),
            )
            .into()),
            Some(date) if date < today - chrono::Duration::days(1) => Err(Refusal::field(
                "expirationDate",
                "The expiration date cannot be in the past.",
            )
            .into()),
            Some(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_a_plain_date_or_an_rfc_3339_instant_and_nothing_else() {
        assert_eq!(
            parse_date("2026-12-31"),
            NaiveDate::from_ymd_opt(2026, 12, 31)
        );
        assert_eq!(
            parse_date("2026-12-31T00:00:00.000Z"),
            NaiveDate::from_ymd_opt(2026, 12, 31)
        );
        assert_eq!(parse_date("31/12/2026"), None);
        assert_eq!(parse_date("2026-12-31garbage"), None);
    }

    #[test]
    fn an_upload_form_names_what_is_missing_or_wrong() {
        let form = |pairs: &'static [(&'static str, &'static str)]| {
            DocumentInfo::from_form(move |name| {
                pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
            })
        };
        assert!(form(&[]).is_err());
        assert!(
            form(&[("documentType", "coi")]).is_err(),
            "a COI needs its type"
        );
        assert!(form(&[("documentType", "w9"), ("coiType", "AAA")]).is_err());
        let coi = form(&[
            ("documentType", "coi"),
            ("notes", "COI Type: Automobile - fleet"),
            ("expirationDate", "2027-01-31"),
        ])
        .unwrap();
        assert_eq!(coi.coi_type, Some(CoiType::Automobile));
        assert_eq!(coi.notes.as_deref(), Some("fleet"));
        assert_eq!(coi.expiration_date, NaiveDate::from_ymd_opt(2027, 1, 31));
    }
}
