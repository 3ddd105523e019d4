//! Importing vendors from the file a customer has (docs/product.md, "Importing vendors"): the
//! file read as saved ([`file`]), each column mapped to a vendor field ([`mapping`]), every row
//! checked with all its problems named in the form's words, duplicates shown, the plan's room
//! stated; then, on commit, the creatable rows created in one transaction.

pub mod file;
pub mod mapping;

use std::collections::{HashMap, HashSet};

use loco_rs::prelude::*;
use serde::Deserialize;

use super::{
    activities::Actor,
    refusal::Refusal,
    requirement_sets,
    vendors::{self, PlanLimit, VendorFields},
};
pub use file::Table;

/// One row of an import, as the preview shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportRow {
    /// The row's line in the file (the first line is 1).
    pub line: u64,
    /// `create`, `error` or `duplicate`.
    pub status: String,
    pub name: String,
    pub email: String,
    /// Every problem of the row, in the form's words.
    pub errors: Vec<String>,
}

/// A column of the file and the vendor field it fills (null: ignored).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportColumn {
    pub header: String,
    #[schema(value_type = Option<ImportField>)]
    pub field: Option<&'static str>,
    /// The column's first value, to recognise it by.
    pub sample: String,
}

/// The vendor fields a column can fill.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
pub enum ImportField {
    Name,
    Email,
    ServiceType,
    Phone,
    Address,
    City,
    State,
    ZipCode,
    Notes,
    RequirementSet,
}

/// Fields for every row that lacks them.
#[derive(Debug, Default, Clone, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ImportDefaults {
    /// A service type by its code or its label ("General Contractor").
    pub service_type: Option<String>,
    /// A requirement set by its name or id.
    pub requirement_set: Option<String>,
}

/// How the person wants the file read: the mapping over the guess, and the defaults.
#[derive(Debug, Default, Clone)]
pub struct ImportChoices {
    pub mapping: HashMap<String, Option<String>>,
    pub defaults: ImportDefaults,
}

/// The import, read and checked.
#[derive(Debug, Clone)]
pub struct ImportPlan {
    pub encoding: &'static str,
    pub delimiter: u8,
    pub header_line: u64,
    pub columns: Vec<ImportColumn>,
    pub rows: Vec<ImportRow>,
    pub to_create: Vec<vendors::ValidVendor>,
    /// How many vendors the organization has.
    pub existing: u64,
    /// How many more vendors the plan allows.
    pub room: u64,
}

/// The organization's requirement sets as an import names them: by name in any case and
/// spacing, or by id.
pub struct SetNames(HashMap<String, String>);

impl SetNames {
    #[must_use]
    pub fn of(sets: &[requirement_sets::Model]) -> Self {
        let mut names: HashMap<String, String> = sets
            .iter()
            .map(|s| (name_key(&s.name), s.pid.to_string()))
            .collect();
        for s in sets {
            names
                .entry(s.pid.to_string())
                .or_insert_with(|| s.pid.to_string());
        }
        Self(names)
    }

    /// A requirement set's cell: empty is no set; a name not among the organization's sets is
    /// the row's error, in words.
    fn read(&self, value: &str) -> Result<Option<String>, String> {
        if value.trim().is_empty() {
            return Ok(None);
        }
        self.0
            .get(&name_key(value))
            .or_else(|| self.0.get(value.trim()))
            .cloned()
            .map(Some)
            .ok_or_else(|| {
                if self.0.is_empty() {
                    format!(
                        "There is no requirement set named \"{}\"; this organization has none yet.",
                        value.trim()
                    )
                } else {
                    format!("There is no requirement set named \"{}\".", value.trim())
                }
            })
    }
}

/// The vendors already there, as duplicates are found: by email, and by name for a row
/// without an email.
#[derive(Debug, Default, Clone)]
pub struct Existing {
    pub emails: HashSet<String>,
    pub names: HashSet<String>,
}

/// A name as compared: spacing collapsed, case ignored (vendor names for duplicates, requirement
/// set names for the `Requirement set` column).
fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A cell as typed: the guard an export adds before a value a spreadsheet would run (`'=`,
/// `'+`) taken off, and Excel's `="00501"` (a post code kept as text) unwrapped.
fn unguard(cell: &str) -> &str {
    if let Some(rest) = cell.strip_prefix('\'') {
        if rest.starts_with(['=', '+', '-', '@']) {
            return rest;
        }
    }
    if let Some(inner) = cell.strip_prefix("=\"").and_then(|r| r.strip_suffix('"')) {
        if !inner.contains('"') {
            return inner;
        }
    }
    cell
}

fn looks_like_formula(value: &str) -> bool {
    let mut chars = value.chars();
    match chars.next() {
        Some('=' | '@') => true,
        Some('+' | '-') => chars
            .next()
            .is_some_and(|c| !c.is_ascii_digit() && c != ' ' && c != '('),
        _ => false,
    }
}

/// A validation message in the form's words: "Must be at most 50 characters" names its field.
fn worded(field: &str, message: &str) -> String {
    if message.starts_with("Must ") {
        format!(
            "{} {}",
            mapping::label(field),
            message.replacen("Must", "must", 1)
        )
    } else {
        message.to_string()
    }
}

/// Checks the file against the person's choices and the organization: each row with what will
/// happen to it, and the vendors to create.
///
/// # Errors
/// `Invalid` on `mapping` or `defaults` for choices that cannot be applied.
#[allow(clippy::too_many_lines)]
pub fn plan(
    table: &Table,
    choices: &ImportChoices,
    existing: &Existing,
    (count, room): (u64, u64),
    limit: &PlanLimit,
    sets: &SetNames,
) -> Result<ImportPlan, Refusal> {
    let mapped = mapping::apply(
        &table.headers,
        mapping::guess_all(&table.headers),
        &choices.mapping,
    )
    .map_err(|errors| Refusal::Invalid([("mapping".to_string(), errors)].into()))?;
    let default_service = match choices.defaults.service_type.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(value) => Some(
            mapping::service_type(value).map_err(|m| Refusal::field("defaults.serviceType", &m))?,
        ),
    };
    let default_set = match choices.defaults.requirement_set.as_deref() {
        None => None,
        Some(value) => sets
            .read(value)
            .map_err(|m| Refusal::field("defaults.requirementSet", &m))?,
    };
    // One column named Notes keeps its values as they are; more, or another column kept in
    // Notes, keep each value after its header.
    let notes_columns: Vec<usize> = (0..mapped.len())
        .filter(|i| mapped[*i] == Some("notes"))
        .collect();
    let plain_notes = notes_columns.len() == 1
        && mapping::guess(&table.headers[notes_columns[0]]).map(|g| g.field) == Some("notes");

    let mut emails: HashMap<String, u64> = existing.emails.iter().map(|e| (e.clone(), 0)).collect();
    let mut names: HashMap<String, u64> = existing.names.iter().map(|n| (n.clone(), 0)).collect();
    let (mut rows, mut to_create) = (Vec::new(), Vec::new());
    for (line, cells) in &table.rows {
        let mut fields = VendorFields::default();
        let mut errors = Vec::new();
        let (mut address, mut notes) = (Vec::new(), Vec::new());
        let mut service_named = false;
        for (index, cell) in cells.iter().enumerate() {
            let Some(field) = mapped.get(index).copied().flatten() else {
                continue;
            };
            let value = unguard(cell);
            if value.is_empty() {
                continue;
            }
            if looks_like_formula(value) {
                errors.push(format!(
                    "{} looks like a spreadsheet formula.",
                    mapping::label(field)
                ));
                continue;
            }
            let v = value.to_string();
            match field {
                "name" => fields.name = v,
                "email" => fields.email = v,
                "serviceType" => {
                    service_named = true;
                    match mapping::service_type(value) {
                        Ok(code) => fields.service_type = code.to_string(),
                        Err(message) => errors.push(message),
                    }
                }
                "phone" => fields.phone = Some(v),
                "address" => address.push(v),
                "city" => fields.city = Some(v),
                "state" => fields.state = Some(v),
                "zipCode" => fields.zip_code = Some(v),
                "requirementSet" => match sets.read(value) {
                    Ok(set) => fields.requirement_set_id = set.map(Some),
                    Err(message) => errors.push(message),
                },
                _ if plain_notes => notes.push(v),
                _ => notes.push(format!("{}: {v}", table.headers[index])),
            }
        }
        if !service_named {
            if let Some(code) = default_service {
                fields.service_type = code.to_string();
            }
        }
        if fields.requirement_set_id.is_none() {
            if let Some(set) = &default_set {
                fields.requirement_set_id = Some(Some(set.clone()));
            }
        }
        if !address.is_empty() {
            fields.address = Some(address.join(", "));
        }
        if !notes.is_empty() {
            fields.notes = Some(notes.join("\n"));
        }
        if service_named && fields.service_type.is_empty() {
            // Its own message is already there; "required" would say it twice.
            fields.service_type = "other".to_string();
        }
        let email = super::email::normalize(&fields.email);
        let name = fields.name.trim().to_string();
        let mut row = ImportRow {
            line: *line,
            status: "create".to_string(),
            name: name.clone(),
            email: email.clone(),
            errors: vec![],
        };
        let valid = match fields.validate() {
            Ok(valid) => Some(valid),
            Err(err) => {
                errors.extend(messages(&err));
                None
            }
        };
        let twin = if email.is_empty() {
            names.get(&name_key(&name)).map(|at| (*at, "name"))
        } else {
            emails.get(&email).map(|at| (*at, "email"))
        };
        if let Some((at, by)) = twin {
            row.status = "duplicate".to_string();
            row.errors.push(match (at, by) {
                (0, "email") => "A vendor with this email already exists.".to_string(),
                (0, _) => format!("A vendor named \"{name}\" already exists, and this row has no email to tell them apart."),
                (at, "email") => format!("Line {at} has the same email."),
                (at, _) => format!("Line {at} has the same name, and this row has no email to tell them apart."),
            });
            row.errors.extend(errors);
        } else if !errors.is_empty() {
            row.status = "error".to_string();
            row.errors = errors;
        } else if to_create.len() as u64 >= room {
            row.status = "error".to_string();
            row.errors.push(limit.message.clone());
        } else if let Some(valid) = valid {
            to_create.push(valid);
        }
        if !email.is_empty() {
            emails.entry(email).or_insert(*line);
        }
        if !name.is_empty() {
            names.entry(name_key(&name)).or_insert(*line);
        }
        rows.push(row);
    }
    let columns = table
        .headers
        .iter()
        .enumerate()
        .map(|(index, header)| ImportColumn {
            header: header.clone(),
            field: mapped[index],
            sample: table
                .rows
                .iter()
                .find_map(|(_, cells)| cells.get(index).filter(|c| !c.is_empty()))
                .cloned()
                .unwrap_or_default(),
        })
        .collect();
    Ok(ImportPlan {
        encoding: table.encoding,
        delimiter: table.delimiter,
        header_line: table.header_line,
        columns,
        rows,
        to_create,
        existing: count,
        room,
    })
}

/// Imports vendors from a file's bytes. A preview (`commit: false`) plans against the vendors
/// there are now and creates nothing. A commit plans again and creates the plan's vendors in
/// one transaction that holds the organization's lock for new vendors from the count to the
/// last insert: imports and single creations at once take turns, the plan's limit holds, and
/// the rows answered (and the count created) are exactly what was done, all or nothing.
/// Returns the plan and how many vendors were created.
///
/// # Errors
/// `Invalid` on `file_field` for a file that cannot be read, on `mapping` or `defaults` for
/// choices that cannot be applied (nothing created); database errors (nothing created).
pub async fn import_vendors(
    db: &DatabaseConnection,
    org_id: i64,
    limit: &PlanLimit,
    (bytes, file_field): (&[u8], &str),
    choices: &ImportChoices,
    commit: bool,
    actor: &Actor,
) -> Result<(ImportPlan, usize)> {
    let table = file::read(bytes).map_err(|m| Refusal::field(file_field, &m))?;
    if !commit {
        return Ok((plan_in(db, org_id, limit, &table, choices).await?, 0));
    }
    let txn = crate::models::begin_write(db).await?;
    vendors::Model::lock_for_new_vendors(&txn, org_id).await?;
    let plan = plan_in(&txn, org_id, limit, &table, choices).await?;
    for form in &plan.to_create {
        vendors::Model::insert_in(&txn, org_id, form, actor).await?;
    }
    txn.commit().await?;
    let created = plan.to_create.len();
    Ok((plan, created))
}

/// The import planned against the organization's vendors as `db` sees them.
async fn plan_in<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    limit: &PlanLimit,
    table: &Table,
    choices: &ImportChoices,
) -> Result<ImportPlan> {
    let identities = vendors::Model::identities_in_org(db, org_id).await?;
    let existing = Existing {
        emails: identities
            .iter()
            .map(|(email, _)| email.to_lowercase())
            .collect(),
        names: identities.iter().map(|(_, name)| name_key(name)).collect(),
    };
    // Counted, not taken from the emails: two vendors may share one.
    let count = identities.len() as u64;
    let room = limit.vendors.saturating_sub(count);
    let sets = SetNames::of(&requirement_sets::list(db, org_id).await?);
    Ok(plan(
        table,
        choices,
        &existing,
        (count, room),
        limit,
        &sets,
    )?)
}

/// Every message of a refusal, in the form's words.
fn messages(err: &Error) -> Vec<String> {
    match err {
        Error::CustomError(_, detail) => detail
            .errors
            .as_ref()
            .and_then(|e| e.as_object())
            .map(|fields| {
                fields
                    .iter()
                    .flat_map(|(field, list)| {
                        list.as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|m| m.as_str().map(|m| worded(field, m)))
                    })
                    .collect()
            })
            .unwrap_or_default(),
        other => vec![other.to_string()],
    }
}

#[cfg(test)]
mod tests;
