//! CSV in and out: the vendors and documents exports, and the vendor import with its preview
//! (docs/product.md, "Bulk operations"). Every cell written is safe to open in a spreadsheet:
//! one starting with `=`, `+`, `-` or `@` is written with a leading `'`, so it is shown as text
//! and never run as a formula.

use std::collections::{HashMap, HashSet};

use loco_rs::prelude::*;

use super::{
    activities::Actor,
    compliance, documents,
    email::{self},
    refusal::Refusal,
    requirement_sets,
    vendors::{self, PlanLimit, VendorFields, VendorStanding},
};

/// A cell as a spreadsheet will show it, never as a formula.
#[must_use]
pub fn safe_cell(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_string()
    }
}

/// Writes `rows` under `header` as CSV (UTF-8, every cell made safe).
///
/// # Errors
/// When the CSV writer fails (it writes to memory).
pub fn to_csv<I, R>(header: &[&str], rows: I) -> Result<Vec<u8>>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator<Item = String>,
{
    let mut writer = ::csv::Writer::from_writer(Vec::new());
    writer
        .write_record(header)
        .map_err(|e| Error::string(&e.to_string()))?;
    for row in rows {
        let cells: Vec<String> = row.into_iter().map(|c| safe_cell(&c)).collect();
        writer
            .write_record(&cells)
            .map_err(|e| Error::string(&e.to_string()))?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::string(&e.to_string()))
}

const VENDOR_HEADER: [&str; 12] = [
    "Name",
    "Email",
    "Service Type",
    "Phone",
    "Address",
    "City",
    "State",
    "Zip Code",
    "Notes",
    "Status",
    "Documents",
    "Company Key",
];

/// The vendors export.
///
/// # Errors
/// When the CSV writer fails.
pub fn vendors_csv(standings: &[VendorStanding]) -> Result<Vec<u8>> {
    let opt = |v: &Option<String>| v.clone().unwrap_or_default();
    to_csv(
        &VENDOR_HEADER,
        standings.iter().map(|s| {
            let v = &s.vendor;
            vec![
                v.name.clone(),
                v.email.clone(),
                v.service_type.clone(),
                opt(&v.phone),
                opt(&v.address),
                opt(&v.city),
                opt(&v.state),
                opt(&v.zip_code),
                opt(&v.notes),
                s.status.as_str().to_string(),
                s.document_count.to_string(),
                v.key.clone(),
            ]
        }),
    )
}

/// The documents export: the current documents with their vendors.
///
/// # Errors
/// When the CSV writer fails.
pub fn documents_csv(
    rows: &[(documents::Model, vendors::Model)],
    today: chrono::NaiveDate,
) -> Result<Vec<u8>> {
    to_csv(
        &[
            "Vendor",
            "Company Key",
            "Document",
            "File Name",
            "Expiration Date",
            "Status",
            "Version",
            "Uploaded At",
            "Source",
            "Notes",
        ],
        rows.iter().map(|(d, v)| {
            vec![
                v.name.clone(),
                v.key.clone(),
                d.label().to_string(),
                d.file_name.clone(),
                d.expiration_date.map(|e| e.to_string()).unwrap_or_default(),
                d.status(today).as_str().to_string(),
                d.version.to_string(),
                d.created_at.to_rfc3339(),
                d.source.clone(),
                compliance::user_notes(d.notes.as_deref()).unwrap_or_default(),
            ]
        }),
    )
}

/// One row of an import, as the preview shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportRow {
    /// The line in the file (the header is line 1).
    pub line: u64,
    /// `create`, `error` or `duplicate`.
    pub status: String,
    pub name: String,
    pub email: String,
    pub errors: Vec<String>,
}

/// The import, read and checked: each row with what will happen to it, and the vendors to
/// create.
#[derive(Debug, Clone)]
pub struct ImportPlan {
    pub rows: Vec<ImportRow>,
    pub to_create: Vec<vendors::ValidVendor>,
}

/// The column a header names: the Add Vendor form's labels or the API's field names, in any
/// case and spacing.
fn column(header: &str) -> Option<&'static str> {
    let key: String = header
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    Some(match key.as_str() {
        "name" | "vendorname" | "companyname" => "name",
        "email" | "contactemail" | "emailaddress" => "email",
        "servicetype" | "service" => "serviceType",
        "phone" | "phonenumber" => "phone",
        "address" | "streetaddress" => "address",
        "city" => "city",
        "state" => "state",
        "zip" | "zipcode" | "postalcode" => "zipCode",
        "notes" => "notes",
        "requirementset" | "requirements" | "requirementsetname" => "requirementSet",
        _ => return None,
    })
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

/// The organization's requirement sets as an import names them: by name in any case and
/// spacing, each with its public id.
pub struct SetNames(HashMap<String, String>);

impl SetNames {
    #[must_use]
    pub fn of(sets: &[requirement_sets::Model]) -> Self {
        Self(
            sets.iter()
                .map(|s| (Self::key(&s.name), s.pid.to_string()))
                .collect(),
        )
    }

    fn key(name: &str) -> String {
        name.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    }

    /// A cell of the `Requirement set` column: empty is no set; a name not among the
    /// organization's sets is the row's error, in words.
    fn read(&self, value: &str) -> Result<Option<String>, String> {
        if value.trim().is_empty() {
            return Ok(None);
        }
        self.0
            .get(&Self::key(value))
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

/// Reads a vendors CSV: a header row naming the form's fields (`name`, `email` and
/// `serviceType` required), then one vendor a row. An optional `Requirement set` column names
/// one of the organization's sets (`sets`).
///
/// # Errors
/// `Invalid` on `csv` for a file that is not CSV, has no header naming the required columns,
/// or no rows.
pub fn plan_import<S: std::hash::BuildHasher>(
    text: &str,
    existing_emails: HashSet<String, S>,
    room: u64,
    limit: &PlanLimit,
    sets: &SetNames,
) -> Result<ImportPlan, Refusal> {
    let bad = |m: &str| Refusal::field("csv", m);
    let mut reader = ::csv::ReaderBuilder::new()
        .flexible(true)
        .trim(::csv::Trim::All)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let header = reader
        .headers()
        .map_err(|_| bad("The file could not be read as CSV."))?
        .clone();
    let columns: Vec<Option<&str>> = header.iter().map(column).collect();
    for required in ["name", "email", "serviceType"] {
        if !columns.contains(&Some(required)) {
            return Err(bad(&format!(
                "The first row must name the columns; `{required}` is missing."
            )));
        }
    }
    let mut seen = existing_emails;
    let (mut rows, mut to_create) = (Vec::new(), Vec::new());
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|_| bad("The file could not be read as CSV."))?;
        if record.iter().all(str::is_empty) {
            continue;
        }
        let line = index as u64 + 2;
        let mut fields = VendorFields::default();
        let mut errors = Vec::new();
        for (value, col) in record.iter().zip(&columns) {
            let Some(col) = col else { continue };
            if looks_like_formula(value) {
                errors.push(format!("{col} looks like a spreadsheet formula."));
            }
            let v = value.to_string();
            match *col {
                "name" => fields.name = v,
                "email" => fields.email = v,
                "serviceType" => fields.service_type = v,
                "phone" => fields.phone = Some(v),
                "address" => fields.address = Some(v),
                "city" => fields.city = Some(v),
                "state" => fields.state = Some(v),
                "zipCode" => fields.zip_code = Some(v),
                "requirementSet" => match sets.read(value) {
                    Ok(set) => fields.requirement_set_id = set.map(Some),
                    Err(message) => errors.push(message),
                },
                _ => fields.notes = Some(v),
            }
        }
        let mut row = ImportRow {
            line,
            status: "create".to_string(),
            name: fields.name.trim().to_string(),
            email: email::normalize(&fields.email),
            errors: vec![],
        };
        match fields.validate() {
            Ok(valid) if errors.is_empty() => {
                if !seen.insert(valid.email.as_str().to_string()) {
                    row.status = "duplicate".to_string();
                    row.errors
                        .push("A vendor with this email already exists.".to_string());
                } else if to_create.len() as u64 >= room {
                    row.status = "error".to_string();
                    row.errors.push(limit.message.clone());
                } else {
                    to_create.push(valid);
                }
            }
            Ok(_) => {
                row.status = "error".to_string();
                row.errors = errors;
            }
            Err(err) => {
                row.status = "error".to_string();
                row.errors = errors;
                row.errors.extend(messages(&err));
            }
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(bad("The file has no vendor rows."));
    }
    Ok(ImportPlan { rows, to_create })
}

/// Imports vendors from CSV text. A preview (`commit: false`) plans against the vendors there
/// are now and creates nothing. A commit plans again and creates the plan's vendors in one
/// transaction that holds the organization's lock for new vendors from the count to the last
/// insert: imports and single creations at once take turns, the plan's limit holds, and the
/// rows answered (and the count created) are exactly what was done, all or nothing. Returns the
/// plan and how many vendors were created.
///
/// # Errors
/// `Invalid` on `csv` for a file that cannot be read (nothing created); database errors
/// (nothing created).
pub async fn import_vendors(
    db: &DatabaseConnection,
    org_id: i64,
    limit: &PlanLimit,
    text: &str,
    commit: bool,
    actor: &Actor,
) -> Result<(ImportPlan, usize)> {
    if !commit {
        return Ok((plan_in(db, org_id, limit, text).await?, 0));
    }
    let txn = crate::models::begin_write(db).await?;
    vendors::Model::lock_for_new_vendors(&txn, org_id).await?;
    let plan = plan_in(&txn, org_id, limit, text).await?;
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
    text: &str,
) -> Result<ImportPlan> {
    let existing = vendors::Model::emails_in_org(db, org_id).await?;
    // Counted, not taken from the emails: two vendors may share one.
    let room = limit
        .vendors
        .saturating_sub(vendors::Model::count_in_org(db, org_id).await?);
    let sets = SetNames::of(&requirement_sets::list(db, org_id).await?);
    Ok(plan_import(text, existing, room, limit, &sets)?)
}

fn messages(err: &Error) -> Vec<String> {
    match err {
        Error::CustomError(_, detail) => detail
            .errors
            .as_ref()
            .and_then(|e| e.as_object())
            .map(|fields| {
                fields
                    .values()
                    .filter_map(|v| v.as_array())
                    .flatten()
                    .filter_map(|m| m.as_str().map(ToString::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        other => vec![other.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_that_a_spreadsheet_would_run_are_written_as_text() {
        assert_eq!(safe_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(safe_cell("+1 555"), "'+1 555");
        assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe_cell("-2"), "'-2");
        assert_eq!(safe_cell("Acme"), "Acme");
        let out = String::from_utf8(to_csv(&["a"], [vec!["=1+1".to_string()]]).unwrap()).unwrap();
        assert_eq!(out, "a\n'=1+1\n");
    }

    #[test]
    fn an_import_previews_each_row_with_its_fate() {
        let limit = PlanLimit {
            vendors: 3,
            message: "Free accounts are limited to 3 vendors maximum.".into(),
        };
        let existing = HashSet::from(["taken@example.com".to_string()]);
        let text = "Name,Email,Service Type,Phone\n\
            Acme,acme@example.com,plumbing,+1 555 0100\n\
            ,nobody@example.com,plumbing,\n\
            Dup,TAKEN@example.com,plumbing,\n\
            Evil,evil@example.com,plumbing,=cmd|' /C calc'!A0\n\
            Two,two@example.com,hvac,\n\
            Three,three@example.com,hvac,\n";
        let plan = plan_import(text, existing, 2, &limit, &SetNames::of(&[])).unwrap();
        let fates: Vec<(u64, &str)> = plan
            .rows
            .iter()
            .map(|r| (r.line, r.status.as_str()))
            .collect();
        assert_eq!(
            fates,
            vec![
                (2, "create"),
                (3, "error"),
                (4, "duplicate"),
                (5, "error"),
                (6, "create"),
                (7, "error")
            ]
        );
        assert_eq!(plan.rows[1].errors, vec!["Vendor name is required"]);
        assert!(plan.rows[3].errors[0].contains("formula"));
        assert_eq!(
            plan.rows[5].errors,
            vec![limit.message.clone()],
            "past the plan's room"
        );
        assert_eq!(plan.to_create.len(), 2);
    }

    #[test]
    fn a_requirement_set_column_names_a_set_in_any_case_or_is_the_rows_error() {
        let limit = PlanLimit {
            vendors: 10,
            message: String::new(),
        };
        let sets = SetNames(HashMap::from([(
            "general contractors".to_string(),
            "set-pid".to_string(),
        )]));
        let text = "Name,Email,Service Type,Requirement Set\n\
            Acme,acme@example.com,plumbing,  GENERAL   Contractors \n\
            Bolt,bolt@example.com,plumbing,\n\
            Coil,coil@example.com,plumbing,Cleaning crews\n";
        let plan = plan_import(text, HashSet::new(), 10, &limit, &sets).unwrap();
        let statuses: Vec<&str> = plan.rows.iter().map(|r| r.status.as_str()).collect();
        assert_eq!(statuses, vec!["create", "create", "error"]);
        assert_eq!(
            plan.rows[2].errors,
            vec!["There is no requirement set named \"Cleaning crews\"."]
        );
        let chosen: Vec<_> = plan
            .to_create
            .iter()
            .map(|v| v.requirement_set_id.clone())
            .collect();
        assert_eq!(chosen, vec![Some(Some("set-pid".to_string())), None]);
    }

    #[test]
    fn a_file_without_the_required_columns_is_refused() {
        let limit = PlanLimit {
            vendors: 2,
            message: String::new(),
        };
        assert!(plan_import(
            "foo,bar\n1,2\n",
            HashSet::new(),
            2,
            &limit,
            &SetNames::of(&[])
        )
        .is_err());
        assert!(plan_import(
            "Name,Email,Service Type\n",
            HashSet::new(),
            2,
            &limit,
            &SetNames::of(&[])
        )
        .is_err());
    }
}
