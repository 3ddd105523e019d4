//! What insurance is: the lines of an ACORD 25 certificate, their limits in whole dollars, and
//! the coverage a certificate shows (docs/product.md, "Requirements and gaps"). Amounts are
//! read as people type them ("1,000,000", "$1M", "2.5m", 500000).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::refusal::{FieldErrors, Refusal};

/// A line of insurance.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    GeneralLiability,
    Automobile,
    WorkersComp,
    Umbrella,
    Professional,
}

impl Line {
    pub const ALL: [Self; 5] = [
        Self::GeneralLiability,
        Self::Automobile,
        Self::WorkersComp,
        Self::Umbrella,
        Self::Professional,
    ];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::GeneralLiability => "general_liability",
            Self::Automobile => "automobile",
            Self::WorkersComp => "workers_comp",
            Self::Umbrella => "umbrella",
            Self::Professional => "professional",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == raw)
    }

    /// Its name within a sentence: "general liability", "workers' compensation".
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::GeneralLiability => "general liability",
            Self::Automobile => "automobile liability",
            Self::WorkersComp => "workers' compensation",
            Self::Umbrella => "umbrella liability",
            Self::Professional => "professional liability",
        }
    }

    /// The limits an ACORD 25 certificate states for the line, with their names in words.
    #[must_use]
    pub const fn limits(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::GeneralLiability => &[
                ("eachOccurrence", "each occurrence"),
                ("generalAggregate", "general aggregate"),
                (
                    "productsCompletedOps",
                    "products-completed operations aggregate",
                ),
                (
                    "personalAdvertisingInjury",
                    "personal and advertising injury",
                ),
                ("damageToRentedPremises", "damage to rented premises"),
                ("medicalExpense", "medical expense"),
            ],
            Self::Automobile => &[("combinedSingleLimit", "combined single limit")],
            Self::WorkersComp => &[
                (
                    "employersLiabilityEachAccident",
                    "employer's liability each accident",
                ),
                (
                    "employersLiabilityDiseaseEachEmployee",
                    "employer's liability disease, each employee",
                ),
                (
                    "employersLiabilityDiseasePolicyLimit",
                    "employer's liability disease, policy limit",
                ),
            ],
            Self::Umbrella => &[
                ("eachOccurrence", "each occurrence"),
                ("aggregate", "aggregate"),
            ],
            Self::Professional => &[("eachClaim", "each claim"), ("aggregate", "aggregate")],
        }
    }

    /// The words for one of its limits.
    #[must_use]
    pub fn limit_label(self, limit: &str) -> Option<&'static str> {
        self.limits()
            .iter()
            .find(|(key, _)| *key == limit)
            .map(|(_, label)| *label)
    }

    /// The limit keys, for an error message: "eachOccurrence, generalAggregate, ...".
    fn limit_list(self) -> String {
        self.limits()
            .iter()
            .map(|(k, _)| *k)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A sentence's first letter in capitals.
#[must_use]
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Whole dollars as people read them: `$1,000,000`.
#[must_use]
pub fn dollars(amount: u64) -> String {
    let digits = amount.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("${out}")
}

/// The largest amount accepted: no policy limit is a trillion dollars.
const MAX_AMOUNT: u64 = 999_999_999_999;
const AMOUNT_HELP: &str = "Enter an amount in whole dollars, like 1,000,000 or $1M.";

/// An amount as a person typed it: a JSON number, or text such as "1,000,000", "$1M",
/// "2.5 million", "500K", "$2,000,000.00". Whole dollars; cents other than zero are refused.
///
/// # Errors
/// A sentence saying how to write an amount.
pub fn parse_amount(raw: &serde_json::Value) -> Result<u64, String> {
    let amount = match raw {
        serde_json::Value::Number(n) => n.as_u64(),
        serde_json::Value::String(text) => parse_amount_text(text),
        _ => None,
    };
    amount
        .filter(|a| *a <= MAX_AMOUNT)
        .ok_or_else(|| AMOUNT_HELP.to_string())
}

fn parse_amount_text(text: &str) -> Option<u64> {
    let cleaned: String = text
        .trim()
        .trim_start_matches('$')
        .chars()
        .filter(|c| *c != ',' && !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let (number, factor) = [
        ("million", 1_000_000_u64),
        ("mil", 1_000_000),
        ("m", 1_000_000),
        ("thousand", 1_000),
        ("k", 1_000),
        ("billion", 1_000_000_000),
        ("b", 1_000_000_000),
    ]
    .into_iter()
    .find_map(|(suffix, factor)| cleaned.strip_suffix(suffix).map(|n| (n, factor)))
    .unwrap_or((cleaned.as_str(), 1));
    let number = number.trim_start_matches('$');
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    // The fraction in units of `factor`, exactly: "2.5m" is 2,500,000, "1.00" is 1.
    let scale = 10_u64.checked_pow(u32::try_from(fraction.len()).ok()?)?;
    let part: u64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    let fractional = part.checked_mul(factor)?;
    if fractional % scale != 0 {
        return None;
    }
    whole.checked_mul(factor)?.checked_add(fractional / scale)
}

/// Reads `{limit: amount}` for `line`: every unknown limit and unreadable amount named under
/// `field`.
pub(super) fn parse_limits(
    line: Line,
    raw: &BTreeMap<String, serde_json::Value>,
    field: &str,
    errors: &mut FieldErrors,
) -> BTreeMap<String, u64> {
    let mut limits = BTreeMap::new();
    for (key, value) in raw {
        let at = format!("{field}.{key}");
        if line.limit_label(key).is_none() {
            errors.entry(at).or_default().push(format!(
                "{} has no limit called {key}; its limits are {}.",
                capitalized(line.label()),
                line.limit_list()
            ));
            continue;
        }
        if value.is_null() {
            continue;
        }
        match parse_amount(value) {
            Ok(amount) => {
                limits.insert(key.clone(), amount);
            }
            Err(message) => errors.entry(at).or_default().push(message),
        }
    }
    limits
}

/// Reads a line's name under `field`.
pub(super) fn parse_line(raw: &str, field: &str, errors: &mut FieldErrors) -> Option<Line> {
    let line = Line::parse(raw);
    if line.is_none() {
        errors.entry(field.to_string()).or_default().push(format!(
            "Unknown line of insurance; use one of {}.",
            Line::ALL.map(Line::as_str).join(", ")
        ));
    }
    line
}

/// Who said what a certificate shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CoverageSource {
    /// Typed by a person.
    Manual,
    /// Read by AI, not yet confirmed.
    Extracted,
    /// Read by AI and confirmed by a person.
    Confirmed,
}

impl CoverageSource {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Manual => "manual",
            Self::Extracted => "extracted",
            Self::Confirmed => "confirmed",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Manual, Self::Extracted, Self::Confirmed]
            .into_iter()
            .find(|s| s.as_str() == raw)
    }
}

/// One line of a certificate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CoverageLine {
    pub line: Line,
    pub insurer: Option<String>,
    pub naic: Option<String>,
    pub policy_number: Option<String>,
    #[schema(value_type = Option<String>, format = Date)]
    pub effective_date: Option<NaiveDate>,
    #[schema(value_type = Option<String>, format = Date)]
    pub expiration_date: Option<NaiveDate>,
    /// Whole dollars by limit (`eachOccurrence`, ...).
    pub limits: BTreeMap<String, u64>,
    pub additional_insured: bool,
    pub waiver_of_subrogation: bool,
}

/// What a certificate of insurance shows (stored as JSON on its document).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Coverage {
    /// The certificate's own date (ACORD 25's "DATE" box).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = Date)]
    pub certificate_date: Option<NaiveDate>,
    pub insured: Option<String>,
    pub producer: Option<String>,
    pub certificate_holder: Option<String>,
    pub lines: Vec<CoverageLine>,
}

impl Coverage {
    /// The coverage stored on a document; `None` for none, or for text that no longer reads
    /// (logged: rows are written through this type).
    #[must_use]
    pub fn stored(raw: Option<&str>) -> Option<Self> {
        let raw = raw?;
        serde_json::from_str(raw)
            .map_err(|e| tracing::error!(error = %e, "unreadable documents.coverage"))
            .ok()
    }

    /// The earliest expiration date of its lines.
    #[must_use]
    pub fn earliest_expiration(&self) -> Option<NaiveDate> {
        self.lines.iter().filter_map(|l| l.expiration_date).min()
    }
}

/// An amount as a person types it: whole dollars (`1000000`) or text (`"1,000,000"`, `"$1M"`,
/// `"500K"`).
// Only the OpenAPI document uses it: forms read amounts as JSON values (`parse_limits`), so that
// anything else is named in the form's errors rather than refused by the JSON reader.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum AmountAsTyped {
    Dollars(u64),
    Text(String),
}

/// `PUT /api/documents/{id}/coverage`: amounts and dates as typed, read into a [`Coverage`].
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CoverageForm {
    /// The certificate's own date, `YYYY-MM-DD`.
    #[schema(format = Date)]
    pub certificate_date: Option<String>,
    pub insured: Option<String>,
    pub producer: Option<String>,
    pub certificate_holder: Option<String>,
    pub lines: Vec<CoverageLineForm>,
    /// `true` when the person accepts what AI read (`GET /api/documents/{id}/extraction`),
    /// checked field by field: the coverage is kept as `confirmed` rather than `manual`.
    pub confirmed: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CoverageLineForm {
    #[schema(value_type = Line)]
    pub line: String,
    pub insurer: Option<String>,
    pub naic: Option<String>,
    pub policy_number: Option<String>,
    /// `YYYY-MM-DD`.
    #[schema(format = Date)]
    pub effective_date: Option<String>,
    /// `YYYY-MM-DD`, after the effective date.
    #[schema(format = Date)]
    pub expiration_date: Option<String>,
    /// Amounts as typed: 1000000, "1,000,000", "$1M".
    #[schema(value_type = BTreeMap<String, AmountAsTyped>)]
    pub limits: BTreeMap<String, serde_json::Value>,
    pub additional_insured: bool,
    pub waiver_of_subrogation: bool,
}

const TEXT_MAX: usize = 200;

fn text(value: Option<&String>, field: &str, errors: &mut FieldErrors) -> Option<String> {
    let value = value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())?;
    if value.chars().count() > TEXT_MAX {
        errors
            .entry(field.to_string())
            .or_default()
            .push(format!("At most {TEXT_MAX} characters."));
    }
    Some(value)
}

fn date(value: Option<&String>, field: &str, errors: &mut FieldErrors) -> Option<NaiveDate> {
    let value = value.map(|v| v.trim()).filter(|v| !v.is_empty())?;
    let parsed = NaiveDate::parse_from_str(value, "%Y-%m-%d").ok();
    if parsed.is_none() {
        errors
            .entry(field.to_string())
            .or_default()
            .push("Enter a date as YYYY-MM-DD.".to_string());
    }
    parsed
}

impl CoverageForm {
    /// The coverage, or every problem of the form at once.
    ///
    /// # Errors
    /// `Invalid`, naming each field (`lines[0].limits.eachOccurrence`).
    pub fn validate(&self) -> Result<Coverage, Refusal> {
        let mut errors = FieldErrors::new();
        let mut seen = Vec::new();
        let mut lines = Vec::new();
        if self.lines.len() > Line::ALL.len() * 2 {
            errors
                .entry("lines".to_string())
                .or_default()
                .push("At most 10 lines.".to_string());
        }
        for (i, form) in self.lines.iter().enumerate() {
            let at = |name: &str| format!("lines[{i}].{name}");
            let Some(line) = parse_line(&form.line, &at("line"), &mut errors) else {
                continue;
            };
            seen.push(line);
            let effective = date(
                form.effective_date.as_ref(),
                &at("effectiveDate"),
                &mut errors,
            );
            let expiration = date(
                form.expiration_date.as_ref(),
                &at("expirationDate"),
                &mut errors,
            );
            if let (Some(from), Some(to)) = (effective, expiration) {
                if to <= from {
                    errors
                        .entry(at("expirationDate"))
                        .or_default()
                        .push("The expiration date must be after the effective date.".to_string());
                }
            }
            let naic = text(form.naic.as_ref(), &at("naic"), &mut errors);
            if let Some(naic) = &naic {
                if naic.len() != 5 || !naic.chars().all(|c| c.is_ascii_digit()) {
                    errors
                        .entry(at("naic"))
                        .or_default()
                        .push("A NAIC number has 5 digits.".to_string());
                }
            }
            lines.push(CoverageLine {
                line,
                insurer: text(form.insurer.as_ref(), &at("insurer"), &mut errors),
                naic,
                policy_number: text(
                    form.policy_number.as_ref(),
                    &at("policyNumber"),
                    &mut errors,
                ),
                effective_date: effective,
                expiration_date: expiration,
                limits: parse_limits(line, &form.limits, &at("limits"), &mut errors),
                additional_insured: form.additional_insured,
                waiver_of_subrogation: form.waiver_of_subrogation,
            });
        }
        let coverage = Coverage {
            certificate_date: date(
                self.certificate_date.as_ref(),
                "certificateDate",
                &mut errors,
            ),
            insured: text(self.insured.as_ref(), "insured", &mut errors),
            producer: text(self.producer.as_ref(), "producer", &mut errors),
            certificate_holder: text(
                self.certificate_holder.as_ref(),
                "certificateHolder",
                &mut errors,
            ),
            lines,
        };
        if errors.is_empty() {
            Ok(coverage)
        } else {
            Err(Refusal::Invalid(errors))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn amounts_are_read_as_people_type_them() {
        for (typed, dollars) in [
            (json!(1_000_000), 1_000_000),
            (json!("1,000,000"), 1_000_000),
            (json!("$1,000,000"), 1_000_000),
            (json!("$1M"), 1_000_000),
            (json!("1m"), 1_000_000),
            (json!("2.5M"), 2_500_000),
            (json!("$1.234567M"), 1_234_567),
            (json!("$ 2 million"), 2_000_000),
            (json!("500K"), 500_000),
            (json!("$2,000,000.00"), 2_000_000),
            (json!("0"), 0),
        ] {
            assert_eq!(parse_amount(&typed), Ok(dollars), "{typed}");
        }
        for typed in [
            json!("one million"),
            json!("$1.2345678M"),
            json!("1,000.50"),
            json!(-5),
            json!(1.5),
            json!(""),
            json!("1..2M"),
            json!(true),
            json!("5000000000000"),
        ] {
            assert!(parse_amount(&typed).is_err(), "{typed} is refused");
        }
    }

    #[test]
    fn dollars_are_written_with_thousands_separators() {
        assert_eq!(dollars(0), "$0");
        assert_eq!(dollars(500), "$500");
        assert_eq!(dollars(500_000), "$500,000");
        assert_eq!(dollars(1_000_000), "$1,000,000");
    }

    #[test]
    fn every_problem_of_a_coverage_form_is_named_at_once() {
        let form: CoverageForm = serde_json::from_value(json!({
            "insured": "Granite Builders LLC",
            "lines": [
                {"line": "general_liability", "effectiveDate": "2026-06-01",
                 "expirationDate": "2026-01-01", "naic": "12",
                 "limits": {"eachOccurrence": "lots", "wingspan": 5}},
                {"line": "boats"}
            ]
        }))
        .unwrap();
        let Err(Refusal::Invalid(errors)) = form.validate() else {
            panic!("refused");
        };
        let fields: Vec<&str> = errors.keys().map(String::as_str).collect();
        assert_eq!(
            fields,
            [
                "lines[0].expirationDate",
                "lines[0].limits.eachOccurrence",
                "lines[0].limits.wingspan",
                "lines[0].naic",
                "lines[1].line",
            ]
        );
    }
}
