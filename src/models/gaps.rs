//! Gaps: where a vendor's current certificates fall short of its requirement set, each named in
//! words, and the waivers that stop one counting for a while (docs/product.md, "Requirements
//! and gaps"). Computed from the rows on every read, never stored.

use std::collections::HashMap;

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{QueryOrder, QuerySelect, Set};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{
    _entities::{documents, requirement_sets, vendors, waivers},
    activities::{self, Actor, Subject},
    coverage::{capitalized, dollars, Coverage, Line},
    refusal::{FieldErrors, Refusal},
    requirement_sets::RequirementLine,
};

/// What falls short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GapKind {
    /// The set asks for a line no current certificate shows.
    MissingLine,
    /// A limit below the set's minimum (or not shown).
    BelowMinimum,
    /// Additional insured or waiver of subrogation asked for and not shown.
    MissingEndorsement,
    /// Every policy of the line ended, whatever the document's own date.
    LineExpired,
    /// The certificate's insured is not the vendor.
    InsuredMismatch,
}

impl GapKind {
    pub const ALL: [Self; 5] = [
        Self::MissingLine,
        Self::BelowMinimum,
        Self::MissingEndorsement,
        Self::LineExpired,
        Self::InsuredMismatch,
    ];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::MissingLine => "missing_line",
            Self::BelowMinimum => "below_minimum",
            Self::MissingEndorsement => "missing_endorsement",
            Self::LineExpired => "line_expired",
            Self::InsuredMismatch => "insured_mismatch",
        }
    }

    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == raw)
    }
}

/// A waiver as shown beside its gap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Waived {
    pub id: String,
    pub reason: String,
    #[schema(value_type = String, format = Date)]
    pub until: NaiveDate,
    /// The name of who gave it.
    pub by: String,
}

/// One gap, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Gap {
    /// `null` for the insured named on a certificate.
    pub line: Option<Line>,
    pub kind: GapKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<&'static str>,
    /// Whole dollars the set asks for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<u64>,
    /// Whole dollars the certificate shows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<u64>,
    pub message: String,
    /// The waiver in force, if any: the gap does not count until its date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waived: Option<Waived>,
}

/// Words of a name that do not tell two businesses apart.
const NAME_NOISE: [&str; 9] = [
    "llc",
    "inc",
    "corp",
    "corporation",
    "co",
    "company",
    "ltd",
    "the",
    "incorporated",
];

fn comparable(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !NAME_NOISE.contains(w))
        .map(str::to_string)
        .collect()
}

/// Whether the insured named on a certificate is the vendor (case, punctuation and legal
/// suffixes aside: "Granite Builders, L.L.C." is "Granite Builders LLC").
#[must_use]
pub fn same_business(insured: &str, vendor: &str) -> bool {
    let (a, b) = (comparable(insured), comparable(vendor));
    // "L.L.C." splits into letters; joined, the words compare as written.
    let joined = |words: &[String]| words.concat().replace("llc", "").replace("inc", "");
    a == b || joined(&a) == joined(&b)
}

fn day(date: NaiveDate) -> String {
    date.format("%b %-d, %Y").to_string()
}

fn gap(line: Option<Line>, kind: GapKind, message: String) -> Gap {
    Gap {
        line,
        kind,
        limit: None,
        required: None,
        found: None,
        message,
        waived: None,
    }
}

/// The gaps of one required line, from every line of the certificates.
fn line_gaps(required: &RequirementLine, coverages: &[Coverage], today: NaiveDate) -> Vec<Gap> {
    let line = required.line;
    let name = capitalized(line.label());
    let shown: Vec<_> = coverages
        .iter()
        .flat_map(|c| c.lines.iter())
        .filter(|l| l.line == line)
        .collect();
    if shown.is_empty() {
        let message = format!("No {} on file.", line.label());
        return vec![gap(Some(line), GapKind::MissingLine, message)];
    }
    let in_force: Vec<_> = shown
        .iter()
        .filter(|l| l.expiration_date.is_none_or(|d| d >= today))
        .collect();
    if in_force.is_empty() {
        let message = match shown.iter().filter_map(|l| l.expiration_date).max() {
            Some(date) => format!("{name} expired on {}.", day(date)),
            None => format!("{name} has expired."),
        };
        return vec![gap(Some(line), GapKind::LineExpired, message)];
    }
    let mut gaps = Vec::new();
    for (limit, label) in line.limits() {
        let Some(&minimum) = required.minimums.get(*limit) else {
            continue;
        };
        let best = in_force
            .iter()
            .filter_map(|l| l.limits.get(*limit))
            .max()
            .copied();
        if best.is_some_and(|b| b >= minimum) {
            continue;
        }
        let message = match best {
            Some(found) => format!(
                "{name} {label} is {}; {} is required.",
                dollars(found),
                dollars(minimum)
            ),
            None => format!(
                "{name} {label} is not shown; {} is required.",
                dollars(minimum)
            ),
        };
        gaps.push(Gap {
            limit: Some(limit),
            required: Some(minimum),
            found: best,
            ..gap(Some(line), GapKind::BelowMinimum, message)
        });
    }
    for (asked, shown_by, what) in [
        (
            required.additional_insured,
            in_force.iter().any(|l| l.additional_insured),
            "Additional insured",
        ),
        (
            required.waiver_of_subrogation,
            in_force.iter().any(|l| l.waiver_of_subrogation),
            "Waiver of subrogation",
        ),
    ] {
        if asked && !shown_by {
            let message = format!("{what} is not shown for {}.", line.label());
            gaps.push(gap(Some(line), GapKind::MissingEndorsement, message));
        }
    }
    gaps
}

/// The gaps of a vendor named `vendor_name` against `set`, from the coverage of its current
/// COI documents, on `today`, with `waivers` (any dates: only those in force apply).
#[must_use]
pub fn compute(
    set: &[RequirementLine],
    vendor_name: &str,
    coverages: &[Coverage],
    waivers: &[waivers::Model],
    today: NaiveDate,
) -> Vec<Gap> {
    let mut gaps: Vec<Gap> = set
        .iter()
        .flat_map(|required| line_gaps(required, coverages, today))
        .collect();
    if !set.is_empty() {
        let mut named: Vec<&str> = coverages
            .iter()
            .filter_map(|c| c.insured.as_deref())
            .filter(|insured| !same_business(insured, vendor_name))
            .collect();
        named.dedup();
        for insured in named {
            let message = format!("The certificate names {insured}, not {vendor_name}.");
            gaps.push(gap(None, GapKind::InsuredMismatch, message));
        }
    }
    for gap in &mut gaps {
        gap.waived = waivers
            .iter()
            .filter(|w| {
                w.until >= today
                    && w.kind == gap.kind.as_str()
                    && w.line.as_deref() == gap.line.map(Line::as_str)
            })
            .max_by_key(|w| w.until)
            .map(|w| Waived {
                id: w.pid.to_string(),
                reason: w.reason.clone(),
                until: w.until,
                by: w.given_by_name.clone(),
            });
    }
    gaps
}

/// What a vendor's requirements say about it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Review {
    /// The set's public id; `None`: no requirements.
    pub requirement_set: Option<Uuid>,
    pub gaps: Vec<Gap>,
}

impl Review {
    /// Whether no gap counts (every one is waived, or there is none).
    #[must_use]
    pub fn meets_requirements(&self) -> bool {
        self.gaps.iter().all(|g| g.waived.is_some())
    }

    /// The gaps that count (not waived), in words: what the vendor is asked to correct.
    #[must_use]
    pub fn counting(&self) -> Vec<String> {
        self.gaps
            .iter()
            .filter(|g| g.waived.is_none())
            .map(|g| g.message.clone())
            .collect()
    }

    /// The gaps waived now, in words with the waiver: "... Waived by Ann Admin until
    /// Jan 5, 2027: reason."
    #[must_use]
    pub fn waived(&self) -> Vec<String> {
        self.gaps
            .iter()
            .filter_map(|g| {
                g.waived.as_ref().map(|w| {
                    format!(
                        "{} Waived by {} until {}: {}",
                        g.message,
                        w.by,
                        super::compliance::display_date(w.until),
                        w.reason
                    )
                })
            })
            .collect()
    }

    /// The reviews of `vendors` (of one organization), in four reads whatever their number:
    /// their sets, their current COIs' coverage and their waivers.
    ///
    /// # Errors
    /// Database errors.
    pub async fn of_vendors<C: ConnectionTrait>(
        db: &C,
        vendors: &[&vendors::Model],
        today: NaiveDate,
    ) -> Result<HashMap<i64, Self>> {
        let mut reviews: HashMap<i64, Self> =
            vendors.iter().map(|v| (v.id, Self::default())).collect();
        let with_set: Vec<&vendors::Model> = vendors
            .iter()
            .copied()
            .filter(|v| v.requirement_set_id.is_some())
            .collect();
        if with_set.is_empty() {
            return Ok(reviews);
        }
        let sets: HashMap<i64, requirement_sets::Model> = requirement_sets::Entity::find()
            .filter(
                requirement_sets::Column::Id
                    .is_in(with_set.iter().filter_map(|v| v.requirement_set_id)),
            )
            .all(db)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        let ids: Vec<i64> = with_set.iter().map(|v| v.id).collect();
        let mut coverages: HashMap<i64, Vec<Coverage>> = HashMap::new();
        let rows: Vec<(i64, Option<String>)> = documents::Entity::find()
            .select_only()
            .columns([documents::Column::VendorId, documents::Column::Coverage])
            .filter(documents::Column::VendorId.is_in(ids.clone()))
            .filter(documents::Column::IsCurrent.eq(true))
            .filter(documents::Column::DocumentType.eq("coi"))
            .filter(documents::Column::Coverage.is_not_null())
            .order_by_asc(documents::Column::Id)
            .into_tuple()
            .all(db)
            .await?;
        for (vendor, raw) in rows {
            if let Some(coverage) = Coverage::stored(raw.as_deref()) {
                coverages.entry(vendor).or_default().push(coverage);
            }
        }
        let mut waived: HashMap<i64, Vec<waivers::Model>> = HashMap::new();
        for w in waivers::Entity::find()
            .filter(waivers::Column::VendorId.is_in(ids))
            .filter(waivers::Column::Until.gte(today))
            .all(db)
            .await?
        {
            waived.entry(w.vendor_id).or_default().push(w);
        }
        for vendor in with_set {
            let Some(set) = vendor.requirement_set_id.and_then(|id| sets.get(&id)) else {
                continue;
            };
            let review = reviews.entry(vendor.id).or_default();
            review.requirement_set = Some(set.pid);
            review.gaps = compute(
                &set.lines(),
                &vendor.name,
                coverages.get(&vendor.id).map_or(&[], Vec::as_slice),
                waived.get(&vendor.id).map_or(&[], Vec::as_slice),
                today,
            );
        }
        Ok(reviews)
    }

    /// The review of one vendor.
    ///
    /// # Errors
    /// Database errors.
    pub async fn of_vendor<C: ConnectionTrait>(
        db: &C,
        vendor: &vendors::Model,
        today: NaiveDate,
    ) -> Result<Self> {
        Ok(Self::of_vendors(db, &[vendor], today)
            .await?
            .remove(&vendor.id)
            .unwrap_or_default())
    }

    /// The organization's vendors with a gap that counts on `today`, each with its review.
    ///
    /// # Errors
    /// Database errors.
    pub async fn vendors_with_gaps<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
        today: NaiveDate,
    ) -> Result<Vec<(vendors::Model, Self)>> {
        let with_set = vendors::Entity::find()
            .filter(vendors::Column::OrganizationId.eq(org_id))
            .filter(vendors::Column::RequirementSetId.is_not_null())
            .all(db)
            .await?;
        let refs: Vec<&vendors::Model> = with_set.iter().collect();
        let mut reviews = Self::of_vendors(db, &refs, today).await?;
        Ok(with_set
            .into_iter()
            .filter_map(|v| {
                let review = reviews.remove(&v.id)?;
                (!review.meets_requirements()).then_some((v, review))
            })
            .collect())
    }
}

/// `POST /api/vendors/{id}/waivers`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct WaiverForm {
    /// The gap's line; absent or null for the insured named on a certificate.
    #[schema(value_type = Option<Line>)]
    pub line: Option<String>,
    #[schema(value_type = GapKind)]
    pub kind: String,
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: String,
    /// The last day the gap does not count, `YYYY-MM-DD`, today or later.
    #[schema(format = Date)]
    pub until: String,
}

const REASON_MAX: usize = 500;

/// Waives a gap of `vendor` until a date, recorded in the activity log.
///
/// # Errors
/// `Invalid` naming every problem (unknown line or kind, no reason, a date not after today);
/// database errors.
pub async fn waive(
    db: &DatabaseConnection,
    vendor: &vendors::Model,
    form: &WaiverForm,
    actor: &Actor,
    today: NaiveDate,
) -> Result<waivers::Model> {
    let mut errors = FieldErrors::new();
    let mut problem = |field: &str, message: &str| {
        errors
            .entry(field.to_string())
            .or_default()
            .push(message.to_string());
    };
    let line = match form
        .line
        .as_deref()
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        None => None,
        Some(raw) => {
            let line = Line::parse(raw);
            if line.is_none() {
                problem("line", "Unknown line of insurance.");
            }
            line
        }
    };
    let kind = GapKind::parse(form.kind.trim());
    match kind {
        None => problem(
            "kind",
            "Unknown kind of gap; use one of missing_line, below_minimum, missing_endorsement, \
             line_expired, insured_mismatch.",
        ),
        Some(GapKind::InsuredMismatch) if line.is_some() => {
            problem("line", "The insured named on a certificate has no line.");
        }
        Some(k) if k != GapKind::InsuredMismatch && line.is_none() && form.line.is_none() => {
            problem("line", "Say which line of insurance the gap is on.");
        }
        Some(_) => {}
    }
    let reason = form.reason.trim().to_string();
    if reason.is_empty() {
        problem("reason", "Say why the gap is waived.");
    } else if reason.chars().count() > REASON_MAX {
        problem("reason", &format!("At most {REASON_MAX} characters."));
    }
    let until = NaiveDate::parse_from_str(form.until.trim(), "%Y-%m-%d").ok();
    match until {
        None => problem("until", "Enter the waiver's end date as YYYY-MM-DD."),
        Some(date) if date < today => problem("until", "The end date must not be in the past."),
        Some(_) => {}
    }
    let (Some(kind), Some(until), true) = (kind, until, errors.is_empty()) else {
        return Err(Refusal::Invalid(errors).into());
    };
    let (given_by_pid, given_by_name) = actor.person.clone().unzip();
    let txn = super::begin_write(db).await?;
    let vendor = vendors::Entity::find_by_id(vendor.id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(Refusal::NotFound)?;
    let waiver = waivers::ActiveModel {
        pid: Set(Uuid::now_v7()),
        line: Set(line.map(|l| l.as_str().to_string())),
        kind: Set(kind.as_str().to_string()),
        reason: Set(reason.clone()),
        until: Set(until),
        given_by_pid: Set(given_by_pid),
        given_by_name: Set(given_by_name.unwrap_or_else(|| "Vendorwatch".to_string())),
        organization_id: Set(vendor.organization_id),
        vendor_id: Set(vendor.id),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    let what = line.map_or_else(
        || "the insured named on its certificate".to_string(),
        |l| l.label().to_string(),
    );
    activities::Model::record(
        &txn,
        vendor.organization_id,
        actor,
        activities::ActivityType::GapWaived,
        format!(
            "A gap of {} in {what} was waived until {}: {reason}",
            vendor.name,
            day(until)
        ),
        Subject {
            vendor_key: Some(vendor.key.clone()),
            document_pid: None,
        },
    )
    .await?;
    txn.commit().await?;
    Ok(waiver)
}

/// Ends a waiver of `vendor` at once, recorded in the activity log.
///
/// # Errors
/// `NotFound` for a waiver of another vendor or organization; database errors.
pub async fn unwaive(
    db: &DatabaseConnection,
    vendor: &vendors::Model,
    pid: &str,
    actor: &Actor,
) -> Result<()> {
    let pid = Uuid::parse_str(pid).map_err(|_| Refusal::NotFound)?;
    let txn = super::begin_write(db).await?;
    let waiver = waivers::Entity::find()
        .filter(waivers::Column::VendorId.eq(vendor.id))
        .filter(waivers::Column::OrganizationId.eq(vendor.organization_id))
        .filter(waivers::Column::Pid.eq(pid))
        .one(&txn)
        .await?
        .ok_or(Refusal::NotFound)?;
    waivers::Entity::delete_by_id(waiver.id).exec(&txn).await?;
    activities::Model::record(
        &txn,
        vendor.organization_id,
        actor,
        activities::ActivityType::GapWaived,
        format!(
            "A waiver of {} was withdrawn: {}",
            vendor.name, waiver.reason
        ),
        Subject {
            vendor_key: Some(vendor.key.clone()),
            document_pid: None,
        },
    )
    .await?;
    txn.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::models::coverage::CoverageLine;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn contractor() -> Vec<RequirementLine> {
        vec![
            RequirementLine {
                line: Line::GeneralLiability,
                minimums: BTreeMap::from([
                    ("eachOccurrence".to_string(), 1_000_000),
                    ("generalAggregate".to_string(), 2_000_000),
                ]),
                additional_insured: true,
                waiver_of_subrogation: false,
            },
            RequirementLine {
                line: Line::Automobile,
                minimums: BTreeMap::from([("combinedSingleLimit".to_string(), 1_000_000)]),
                additional_insured: false,
                waiver_of_subrogation: false,
            },
        ]
    }

    fn gl(each: u64, until: &str, additional_insured: bool) -> CoverageLine {
        CoverageLine {
            line: Line::GeneralLiability,
            insurer: Some("Hartford".to_string()),
            naic: None,
            policy_number: Some("GL-1".to_string()),
            effective_date: None,
            expiration_date: Some(date(until)),
            limits: BTreeMap::from([
                ("eachOccurrence".to_string(), each),
                ("generalAggregate".to_string(), 2_000_000),
            ]),
            additional_insured,
            waiver_of_subrogation: false,
        }
    }

    fn certificate(insured: &str, lines: Vec<CoverageLine>) -> Coverage {
        Coverage {
            insured: Some(insured.to_string()),
            lines,
            ..Coverage::default()
        }
    }

    #[test]
    fn every_gap_is_named_in_words() {
        let today = date("2026-11-26");
        let coverages = [certificate(
            "Someone Else Holdings",
            vec![gl(500_000, "2027-06-01", false)],
        )];
        let gaps = compute(
            &contractor(),
            "Granite Builders LLC",
            &coverages,
            &[],
            today,
        );
        let messages: Vec<&str> = gaps.iter().map(|g| g.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "General liability each occurrence is $500,000; $1,000,000 is required.",
                "Additional insured is not shown for general liability.",
                "No automobile liability on file.",
                "The certificate names Someone Else Holdings, not Granite Builders LLC.",
            ]
        );
        assert_eq!(gaps[0].found, Some(500_000));
        assert_eq!(gaps[0].required, Some(1_000_000));
    }

    #[test]
    fn an_expired_policy_is_a_gap_and_a_good_certificate_has_none() {
        let today = date("2026-11-26");
        let expired = [certificate(
            "Granite Builders, L.L.C.",
            vec![gl(1_000_000, "2026-11-25", true)],
        )];
        let set = &contractor()[..1];
        let gaps = compute(set, "Granite Builders LLC", &expired, &[], today);
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        assert_eq!(gaps[0].kind, GapKind::LineExpired);
        assert_eq!(
            gaps[0].message,
            "General liability expired on Nov 25, 2026."
        );

        let good = [certificate(
            "granite builders llc",
            vec![gl(2_000_000, "2026-11-26", true)],
        )];
        assert!(compute(set, "Granite Builders LLC", &good, &[], today).is_empty());
        assert!(compute(&[], "Granite Builders LLC", &expired, &[], today).is_empty());
    }

    #[test]
    fn a_waiver_in_force_marks_its_gap() {
        let today = date("2026-11-26");
        let waiver = |until: &str| waivers::Model {
            created_at: chrono::Utc::now().into(),
            updated_at: chrono::Utc::now().into(),
            id: 1,
            pid: Uuid::nil(),
            line: Some("automobile".to_string()),
            kind: "missing_line".to_string(),
            reason: "No vehicles on site".to_string(),
            until: date(until),
            given_by_pid: None,
            given_by_name: "Olive Owner".to_string(),
            organization_id: 1,
            vendor_id: 1,
        };
        let coverages = [certificate(
            "Granite Builders LLC",
            vec![gl(1_000_000, "2027-01-01", true)],
        )];
        let gaps = compute(
            &contractor(),
            "Granite Builders LLC",
            &coverages,
            &[waiver("2026-11-26")],
            today,
        );
        assert_eq!(gaps.len(), 1);
        assert_eq!(
            gaps[0].waived.as_ref().map(|w| w.by.as_str()),
            Some("Olive Owner")
        );
        let review = Review {
            requirement_set: None,
            gaps,
        };
        assert!(review.meets_requirements());
        let ended = compute(
            &contractor(),
            "Granite Builders LLC",
            &coverages,
            &[waiver("2026-11-25")],
            today,
        );
        assert!(ended[0].waived.is_none(), "a waiver past its date");
    }
}
