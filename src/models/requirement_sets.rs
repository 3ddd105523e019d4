//! Requirement sets: what a vendor must carry, line by line, with minimum limits and
//! endorsements (docs/product.md, "Requirements and gaps"). Edited by admins and owners,
//! assigned to vendors one by one or many at once.

use std::collections::BTreeMap;

use loco_rs::prelude::*;
use sea_orm::{QueryOrder, QuerySelect, Set};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{
    _entities::{requirement_sets, vendors},
    coverage::{self, Line},
    refusal::{FieldErrors, Refusal},
};

pub use super::_entities::requirement_sets::{Entity, Model};

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> requirement_sets::Column {
        requirement_sets::Column::OrganizationId
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for requirement_sets::ActiveModel {}

/// One line a vendor must carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequirementLine {
    pub line: Line,
    /// The least each limit must be, in whole dollars (`eachOccurrence`, ...).
    pub minimums: BTreeMap<String, u64>,
    pub additional_insured: bool,
    pub waiver_of_subrogation: bool,
}

impl Model {
    /// The set's lines; none for text that no longer reads (logged).
    #[must_use]
    pub fn lines(&self) -> Vec<RequirementLine> {
        serde_json::from_str(&self.lines)
            .map_err(
                |e| tracing::error!(error = %e, set = self.id, "unreadable requirement_sets.lines"),
            )
            .unwrap_or_default()
    }
}

/// `POST`/`PUT /api/requirement-sets`: amounts as typed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct SetForm {
    pub name: String,
    pub lines: Vec<LineForm>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct LineForm {
    #[schema(value_type = Line)]
    pub line: String,
    /// Amounts as typed: 1000000, "1,000,000", "$1M".
    #[schema(value_type = BTreeMap<String, coverage::AmountAsTyped>)]
    pub minimums: BTreeMap<String, serde_json::Value>,
    pub additional_insured: bool,
    pub waiver_of_subrogation: bool,
}

/// A set as checked: its name and lines.
#[derive(Debug, Clone)]
pub struct ValidSet {
    pub name: String,
    pub lines: Vec<RequirementLine>,
}

const NAME_MAX: usize = 100;

impl SetForm {
    /// The set, or every problem of the form at once.
    ///
    /// # Errors
    /// `Invalid`, naming each field.
    pub fn validate(&self) -> Result<ValidSet, Refusal> {
        let mut errors = FieldErrors::new();
        let name = self.name.trim().to_string();
        if name.is_empty() {
            errors
                .entry("name".to_string())
                .or_default()
                .push("Name the set, for example Contractors.".to_string());
        } else if name.chars().count() > NAME_MAX {
            errors
                .entry("name".to_string())
                .or_default()
                .push(format!("At most {NAME_MAX} characters."));
        }
        if self.lines.is_empty() {
            errors
                .entry("lines".to_string())
                .or_default()
                .push("Add at least one line of insurance.".to_string());
        }
        let mut lines: Vec<RequirementLine> = Vec::new();
        for (i, form) in self.lines.iter().enumerate() {
            let at = |name: &str| format!("lines[{i}].{name}");
            let Some(line) = coverage::parse_line(&form.line, &at("line"), &mut errors) else {
                continue;
            };
            if lines.iter().any(|l| l.line == line) {
                errors.entry(at("line")).or_default().push(format!(
                    "{} is already in this set.",
                    coverage::capitalized(line.label())
                ));
                continue;
            }
            lines.push(RequirementLine {
                line,
                minimums: coverage::parse_limits(
                    line,
                    &form.minimums,
                    &at("minimums"),
                    &mut errors,
                ),
                additional_insured: form.additional_insured,
                waiver_of_subrogation: form.waiver_of_subrogation,
            });
        }
        if errors.is_empty() {
            Ok(ValidSet { name, lines })
        } else {
            Err(Refusal::Invalid(errors))
        }
    }
}

fn lines_json(lines: &[RequirementLine]) -> String {
    serde_json::to_string(lines).unwrap_or_else(|_| "[]".to_string())
}

/// The organization's sets, by name.
///
/// # Errors
/// Database errors.
pub async fn list<C: ConnectionTrait>(db: &C, org_id: i64) -> Result<Vec<Model>> {
    Ok(Entity::find()
        .in_tenant(org_id)
        .order_by_asc(requirement_sets::Column::Name)
        .order_by_asc(requirement_sets::Column::Id)
        .all(db)
        .await?)
}

/// How many of the organization's vendors must meet each of its sets, in one grouped read.
///
/// # Errors
/// Database errors.
pub async fn vendor_counts<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
) -> Result<std::collections::HashMap<i64, u64>> {
    let rows: Vec<(Option<i64>, i64)> = vendors::Entity::find()
        .select_only()
        .column(vendors::Column::RequirementSetId)
        .column_as(vendors::Column::Id.count(), "n")
        .filter(vendors::Column::OrganizationId.eq(org_id))
        .filter(vendors::Column::RequirementSetId.is_not_null())
        .group_by(vendors::Column::RequirementSetId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(set, n)| Some((set?, u64::try_from(n).unwrap_or(0))))
        .collect())
}

/// One set of the organization, by its public id.
///
/// # Errors
/// `NotFound` for another organization's set or an unknown id; database errors.
pub async fn find<C: ConnectionTrait>(db: &C, org_id: i64, pid: &str) -> Result<Model> {
    let pid = Uuid::parse_str(pid).map_err(|_| Refusal::NotFound)?;
    Entity::find()
        .in_tenant(org_id)
        .filter(requirement_sets::Column::Pid.eq(pid))
        .one(db)
        .await?
        .ok_or_else(|| Refusal::NotFound.into())
}

async fn name_taken<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    name: &str,
    except: Option<i64>,
) -> Result<bool> {
    let mut select = Entity::find()
        .in_tenant(org_id)
        .filter(requirement_sets::Column::Name.eq(name));
    if let Some(id) = except {
        select = select.filter(requirement_sets::Column::Id.ne(id));
    }
    Ok(select.count(db).await? > 0)
}

fn name_in_use() -> Error {
    Refusal::field("name", "Another requirement set has this name.").into()
}

/// Creates a set.
///
/// # Errors
/// `Invalid` when another set has the name; database errors.
pub async fn create(db: &DatabaseConnection, org_id: i64, set: &ValidSet) -> Result<Model> {
    let txn = super::begin_write(db).await?;
    if name_taken(&txn, org_id, &set.name, None).await? {
        return Err(name_in_use());
    }
    let model = requirement_sets::ActiveModel {
        pid: Set(Uuid::new_v4()),
        name: Set(set.name.clone()),
        lines: Set(lines_json(&set.lines)),
        ..Default::default()
    }
    .set_tenant(org_id)?
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(model)
}

/// Replaces a set's name and lines.
///
/// # Errors
/// `NotFound`; `Invalid` when another set has the name; database errors.
pub async fn update(
    db: &DatabaseConnection,
    org_id: i64,
    pid: &str,
    set: &ValidSet,
) -> Result<Model> {
    let txn = super::begin_write(db).await?;
    let existing = find(&txn, org_id, pid).await?;
    if name_taken(&txn, org_id, &set.name, Some(existing.id)).await? {
        return Err(name_in_use());
    }
    let mut row: requirement_sets::ActiveModel = existing.into();
    row.name = Set(set.name.clone());
    row.lines = Set(lines_json(&set.lines));
    let model = row.update(&txn).await?;
    txn.commit().await?;
    Ok(model)
}

/// Deletes a set; its vendors have no requirements after (in the same transaction).
///
/// # Errors
/// `NotFound`; database errors.
pub async fn delete(db: &DatabaseConnection, org_id: i64, pid: &str) -> Result<()> {
    let txn = super::begin_write(db).await?;
    let existing = find(&txn, org_id, pid).await?;
    vendors::Entity::update_many()
        .col_expr(
            vendors::Column::RequirementSetId,
            sea_orm::sea_query::Expr::value(Option::<i64>::None),
        )
        .filter(vendors::Column::OrganizationId.eq(org_id))
        .filter(vendors::Column::RequirementSetId.eq(existing.id))
        .exec(&txn)
        .await?;
    Entity::delete_by_id(existing.id).exec(&txn).await?;
    txn.commit().await?;
    Ok(())
}

/// The set a vendor form or bulk call names (`requirementSetId`): `None` for none.
///
/// # Errors
/// `Invalid` on `field` for an id that is not one of the organization's sets; database errors.
pub async fn resolve<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    pid: Option<&str>,
    field: &str,
) -> Result<Option<i64>> {
    let Some(pid) = pid.map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    match find(db, org_id, pid).await {
        Ok(set) => Ok(Some(set.id)),
        Err(_) => Err(Refusal::field(
            field,
            "No requirement set of your organization has this id.",
        )
        .into()),
    }
}

/// Gives the vendors of keys `keys` the set `set` (`None`: no requirements), all or none.
///
/// # Errors
/// `NotFound` when a key is not one of the organization's vendors (nothing changed); database
/// errors.
pub async fn assign(
    db: &DatabaseConnection,
    org_id: i64,
    keys: &[String],
    set: Option<i64>,
) -> Result<u64> {
    let txn = super::begin_write(db).await?;
    let found = vendors::Entity::find()
        .filter(vendors::Column::OrganizationId.eq(org_id))
        .filter(vendors::Column::Key.is_in(keys.iter().map(String::as_str)))
        .count(&txn)
        .await?;
    let mut unique = keys.to_vec();
    unique.sort_unstable();
    unique.dedup();
    if found != unique.len() as u64 {
        return Err(Refusal::NotFound.into());
    }
    let changed = vendors::Entity::update_many()
        .col_expr(
            vendors::Column::RequirementSetId,
            sea_orm::sea_query::Expr::value(set),
        )
        .filter(vendors::Column::OrganizationId.eq(org_id))
        .filter(vendors::Column::Key.is_in(unique.iter().map(String::as_str)))
        .exec(&txn)
        .await?
        .rows_affected;
    txn.commit().await?;
    Ok(changed)
}

/// A starting point a new organization can copy: the limits commonly asked in the US.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    pub key: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub lines: Vec<RequirementLine>,
}

fn requirement(
    line: Line,
    minimums: &[(&str, u64)],
    additional_insured: bool,
    waiver_of_subrogation: bool,
) -> RequirementLine {
    RequirementLine {
        line,
        minimums: minimums
            .iter()
            .map(|(k, v)| ((*k).to_string(), *v))
            .collect(),
        additional_insured,
        waiver_of_subrogation,
    }
}

/// The three templates: general contractor, professional services, low-risk supplier.
#[must_use]
pub fn templates() -> Vec<Template> {
    const M: u64 = 1_000_000;
    vec![
        Template {
            key: "general-contractor",
            name: "General contractor",
            description:
                "Trades working on your sites: liability, vehicles, workers' compensation \
                          and an umbrella, with you as additional insured.",
            lines: vec![
                requirement(
                    Line::GeneralLiability,
                    &[
                        ("eachOccurrence", M),
                        ("generalAggregate", 2 * M),
                        ("productsCompletedOps", 2 * M),
                    ],
                    true,
                    true,
                ),
                requirement(Line::Automobile, &[("combinedSingleLimit", M)], true, false),
                requirement(
                    Line::WorkersComp,
                    &[
                        ("employersLiabilityEachAccident", M / 2),
                        ("employersLiabilityDiseaseEachEmployee", M / 2),
                        ("employersLiabilityDiseasePolicyLimit", M / 2),
                    ],
                    false,
                    true,
                ),
                requirement(
                    Line::Umbrella,
                    &[("eachOccurrence", 5 * M), ("aggregate", 5 * M)],
                    false,
                    false,
                ),
            ],
        },
        Template {
            key: "professional-services",
            name: "Professional services",
            description: "Consultants, accountants, designers: professional liability beside \
                          general liability and workers' compensation.",
            lines: vec![
                requirement(
                    Line::GeneralLiability,
                    &[("eachOccurrence", M), ("generalAggregate", 2 * M)],
                    true,
                    false,
                ),
                requirement(
                    Line::Professional,
                    &[("eachClaim", M), ("aggregate", 2 * M)],
                    false,
                    false,
                ),
                requirement(
                    Line::WorkersComp,
                    &[("employersLiabilityEachAccident", M / 2)],
                    false,
                    false,
                ),
            ],
        },
        Template {
            key: "low-risk-supplier",
            name: "Low-risk supplier",
            description: "Suppliers who deliver and leave: general liability only.",
            lines: vec![requirement(
                Line::GeneralLiability,
                &[("eachOccurrence", M), ("generalAggregate", 2 * M)],
                false,
                false,
            )],
        },
    ]
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_templates_are_valid_sets() {
        for template in templates() {
            let form: SetForm =
                serde_json::from_value(json!({"name": template.name, "lines": template.lines}))
                    .unwrap();
            let set = form.validate().unwrap();
            assert_eq!(set.lines, template.lines, "{}", template.key);
        }
    }

    #[test]
    fn a_set_form_names_every_problem() {
        let form: SetForm = serde_json::from_value(json!({
            "name": " ",
            "lines": [
                {"line": "general_liability", "minimums": {"eachOccurrence": "$1M", "eachClaim": 1}},
                {"line": "general_liability"},
                {"line": "pets"}
            ]
        }))
        .unwrap();
        let Err(Refusal::Invalid(errors)) = form.validate() else {
            panic!("refused");
        };
        assert_eq!(
            errors.keys().map(String::as_str).collect::<Vec<_>>(),
            [
                "lines[0].minimums.eachClaim",
                "lines[1].line",
                "lines[2].line",
                "name"
            ]
        );
    }
}
