//! The demo organization of `cargo loco db seed` (`App::seed`): read from
//! `src/fixtures/demo.yaml` and made through the same model functions as the screens use, so
//! its vendors get their company keys, its documents their versions, reminders and activity
//! entries, and its files are real PDFs in the configured storage. Expiration dates are days
//! from today, so the demo shows every status whenever it is loaded.

use std::{io::Write, path::Path};

use chrono::Duration;
use loco_rs::prelude::*;
use serde::Deserialize;

use super::{
    activities::Actor,
    documents::{self, DocumentInfo, DocumentSource, NewDocument, UploadedFile},
    organizations,
    users::{self, RegisterParams},
    vendors::{self, PlanLimit, VendorParams},
};

/// The fixture file `seed` reads, under the fixtures folder Loco passes in.
pub const FIXTURE: &str = "demo.yaml";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Demo {
    pub organization: String,
    /// The organization's IANA time zone: its day and its morning.
    pub time_zone: String,
    pub owner: Owner,
    pub vendors: Vec<DemoVendor>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Owner {
    pub name: String,
    pub email: String,
    pub password: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DemoVendor {
    #[serde(flatten)]
    pub fields: VendorParams,
    #[serde(default)]
    pub documents: Vec<DemoDocument>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DemoDocument {
    pub document_type: String,
    pub coi_type: Option<String>,
    /// Days from the day of the seed; negative is past, absent is no expiration date.
    pub expires_in_days: Option<i64>,
    pub notes: Option<String>,
}

/// What a seed did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seeded {
    Loaded {
        vendors: usize,
        documents: usize,
    },
    /// The owner's email already has an account: nothing was changed.
    AlreadyThere,
}

/// Reads the fixture at `base/demo.yaml` and loads it.
///
/// # Errors
/// An unreadable or invalid fixture; refusals of the model functions; storage and database
/// errors.
pub async fn seed(ctx: &AppContext, base: &Path) -> Result<Seeded> {
    let path = base.join(FIXTURE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::string(&format!("{}: {e}", path.display())))?;
    let demo: Demo = serde_yaml::from_str(&text)
        .map_err(|e| Error::string(&format!("{}: {e}", path.display())))?;
    load(ctx, demo).await
}

/// Loads `demo`: its owner signs up (which makes the organization), the organization moves to
/// Professional (a dozen vendors are past Free's limit), then each vendor and its documents.
/// Loading again once the owner exists changes nothing.
///
/// # Errors
/// Refusals of the model functions; storage and database errors.
pub async fn load(ctx: &AppContext, demo: Demo) -> Result<Seeded> {
    if users::Model::find_by_email(&ctx.db, &demo.owner.email)
        .await
        .is_ok()
    {
        return Ok(Seeded::AlreadyThere);
    }
    let (_owner, org) = users::Model::register(
        &ctx.db,
        &RegisterParams {
            name: demo.owner.name.clone(),
            email: demo.owner.email.clone(),
            password: demo.owner.password.clone(),
            company: Some(demo.organization.clone()),
            time_zone: Some(demo.time_zone.clone()),
        },
    )
    .await?;
    let org = organizations::ActiveModel::from(org)
        .set_plan(&ctx.db, organizations::Plan::Professional)
        .await?;
    let limit = PlanLimit {
        vendors: u64::MAX,
        message: String::new(),
    };
    let today = organizations::today_of(&ctx.db, org.id).await?;
    let (vendor_count, mut count) = (demo.vendors.len(), 0);
    for entry in demo.vendors {
        let form = entry.fields.validate()?;
        let vendor =
            vendors::Model::create(&ctx.db, org.id, &limit, &form, &Actor::system()).await?;
        for doc in &entry.documents {
            let expiration = doc.expires_in_days.map(|days| {
                (today + Duration::days(days))
                    .format("%Y-%m-%d")
                    .to_string()
            });
            let info = DocumentInfo::from_form(|name| match name {
                "documentType" => Some(doc.document_type.as_str()),
                "coiType" => doc.coi_type.as_deref(),
                "expirationDate" => expiration.as_deref(),
                "notes" => doc.notes.as_deref(),
                _ => None,
            })?;
            let file = pdf_file(&vendor.name, info.label())?;
            let new = NewDocument {
                org: org.clone(),
                vendor: vendor.clone(),
                info,
                source: DocumentSource::User,
                actor: Actor::system(),
            };
            documents::Model::store_and_record(ctx, file, new).await?;
            count += 1;
        }
    }
    Ok(Seeded::Loaded {
        vendors: vendor_count,
        documents: count,
    })
}

/// A one-page PDF naming the vendor and the document, as an upload waiting to be checked.
fn pdf_file(vendor: &str, label: &str) -> Result<UploadedFile> {
    let bytes = demo_pdf(&format!("{label} - {vendor} (demo)"));
    let mut temp = tempfile::NamedTempFile::new()?;
    temp.write_all(&bytes)?;
    let slug: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    Ok(UploadedFile {
        original_name: format!("{slug}.pdf"),
        size: bytes.len() as u64,
        head: bytes.clone(),
        temp: temp.into_temp_path(),
    })
}

/// A valid PDF 1.4 file with one line of Helvetica text: four objects, an exact
/// cross-reference table, so viewers open it without repairing it.
#[must_use]
pub fn demo_pdf(line: &str) -> Vec<u8> {
    // PDF strings escape backslashes and parentheses; the demo's text is ASCII.
    let text: String = line
        .chars()
        .filter(char::is_ascii)
        .flat_map(|c| match c {
            '(' | ')' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    let content = format!("BT /F1 14 Tf 72 720 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_string(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}
