//! Every email template rendered with sample values: for a person to look at
//! (`cargo loco task mail_previews`), for the browser test that opens each one at a phone's
//! width (`frontend/e2e/emails.spec.ts`), and for the unit test below that holds every template
//! to the shared layout.
//!
//! A new template folder (`src/mailers/<area>/<name>/`) is found here by itself; the values it
//! uses must be in [`sample_values`] (the unit test fails until they are). The values are
//! long on purpose (names, file names, links): what fits a phone with them fits with real ones.

use include_dir::{include_dir, Dir};
use loco_rs::prelude::*;
use serde_json::json;

use super::Content;

static MAILERS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/src/mailers");

/// One template rendered: its folder under `src/mailers` (`auth/forgot`) and the message.
#[derive(Debug, Clone)]
pub struct Preview {
    pub name: String,
    pub content: Content,
}

/// The values of every template, long ones where a line could be too wide for a phone.
#[must_use]
pub fn sample_values(app_url: &str) -> serde_json::Value {
    let app = app_url.trim_end_matches('/');
    let mut values = json!({
        "name": "Alexandra Montgomery-Fitzgerald",
        "organization": "Riverside Property Management Holdings & Partners",
        "vendor": "Northeastern Commercial Plumbing & Heating Services",
        "companyKey": "Ab3dEf7h",
        "document": "Certificate of Insurance (General Liability)",
        "label": "Certificate of Insurance (General Liability)",
        "fileName": "certificate-of-insurance-general-liability-2027-renewal-signed-final-v3.pdf",
        "expirationDate": "Sep 30, 2027",
        "status": "Expiring Soon",
        "expired": false,
        "when": "in 14 days",
        "vendorUrl": format!("{app}/vendors/Ab3dEf7h"),
        "uploadUrl": format!("{app}/vendor-upload"),
        "resetUrl": format!("{app}/reset-password?token=Zx8Qm2Lr5Tn9Vb4Kc7Hd1Wf6Jg3Ps0YeAuOiN2bM5vC8xR"),
        "ttlMinutes": 60,
        "invitedBy": "Alexandra Montgomery-Fitzgerald",
        "role": "a member",
        "acceptUrl": format!("{app}/accept-invitation?token=5c1e9a7b3d2f4e6a8c0b9d7e5f3a1c2b4d6e8f0a1b3c5d7e9f2a4b6c8d0e1f3a"),
        "ttlDays": 7,
        "supportEmail": "support@vendorwatch.app",
        "professional": true,
        "byOperator": false,
        "vendorLimit": 100,
        "billingUrl": format!("{app}/billing"),
        "weekOf": "Sep 14, 2027",
        "total": 48,
        "current": 41,
        "expiringSoon": 4,
        "missing": 2,
        "expiring": [
            {"vendor": "Northeastern Commercial Plumbing & Heating Services",
             "label": "Certificate of Insurance (Workers Compensation)", "date": "Sep 16, 2027"},
            {"vendor": "Bright Electric", "label": "W9 Form", "date": "Sep 19, 2027"},
        ],
        "wanted": ["Certificate of Insurance (General Liability)", "W9 Form", "Vendor Agreement"],
        "reportsUrl": format!("{app}/reports"),
        "unsubscribeUrl": format!(
            "{app}/unsubscribe/0f8e2c4b6a1d4e3f9b7c5a2d8e6f4b1a.3c9e7a5b1d2f4e6a8c0b9d7e5f3a1c2b"
        ),
    });
    // The reminder emails listing several documents (a json! of its own: the macro's
    // recursion limit).
    let several = json!({
        "withGaps": [
            {"vendor": "Northeastern Commercial Plumbing & Heating Services",
             "first": "General liability each occurrence is $500,000; $1,000,000 is required.",
             "more": 2},
            {"vendor": "Bright Electric", "first": "No automobile liability on file.", "more": 0},
        ],
        "gaps": [
            "General liability each occurrence is $500,000; $1,000,000 is required.",
            "Additional insured is not shown for general liability.",
            "The certificate names Northeastern Plumbing Holdings International, not Northeastern Commercial Plumbing & Heating Services.",
        ],
        "count": 3,
        "vendorCount": 2,
        "documents": [
            {"document": "Certificate of Insurance (General Liability)",
             "fileName": "certificate-of-insurance-general-liability-2027-renewal-signed-final-v3.pdf",
             "expirationDate": "Sep 30, 2027", "status": "Expiring Soon", "expired": false,
             "when": "in 14 days"},
            {"document": "W9 Form", "fileName": "w9.pdf", "expirationDate": "Sep 1, 2027",
             "status": "Expired", "expired": true, "when": "today"},
        ],
        "vendors": [
            {"vendor": "Northeastern Commercial Plumbing & Heating Services",
             "vendorUrl": format!("{app}/vendors/Ab3dEf7h"),
             "documents": [
                {"document": "Certificate of Insurance (General Liability)",
                 "fileName": "certificate-of-insurance-general-liability-2027-renewal-signed-final-v3.pdf",
                 "expirationDate": "Sep 30, 2027", "status": "Expiring Soon", "expired": false,
                 "when": "in 14 days"},
             ]},
            {"vendor": "Bright Electric", "vendorUrl": format!("{app}/vendors/Zz9Yy8Xx"),
             "documents": [
                {"document": "W9 Form", "fileName": "w9.pdf", "expirationDate": "Sep 1, 2027",
                 "status": "Expired", "expired": true, "when": "today"},
             ]},
        ]
    });
    if let (Some(values), serde_json::Value::Object(several)) = (values.as_object_mut(), several) {
        values.extend(several);
    }
    values
}

/// Every template folder under `src/mailers`, rendered with [`sample_values`], by name.
///
/// # Errors
/// A template that does not render (a value missing from [`sample_values`]).
pub fn all(app_url: &str) -> Result<Vec<Preview>> {
    let values = sample_values(app_url);
    let mut folders = Vec::new();
    collect(&MAILERS, &mut folders);
    folders.sort_by_key(|d| d.path().to_path_buf());
    folders
        .into_iter()
        .map(|dir| {
            let name = dir.path().to_string_lossy().replace('\\', "/");
            let content =
                super::render(dir, &values).map_err(|e| Error::string(&format!("{name}: {e}")))?;
            Ok(Preview { name, content })
        })
        .collect()
}

fn collect<'a>(dir: &'a Dir<'a>, into: &mut Vec<&'a Dir<'a>>) {
    if dir.get_file(dir.path().join("html.t")).is_some() {
        into.push(dir);
    }
    for sub in dir.dirs() {
        collect(sub, into);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_fits_a_phone_and_is_titled_with_its_subject() {
        let previews = all("https://app.example").unwrap();
        assert!(previews.len() >= 7, "{previews:?}");
        for Preview { name, content } in &previews {
            let html = &content.html;
            assert!(
                html.contains(
                    r#"<meta name="viewport" content="width=device-width, initial-scale=1">"#
                ),
                "{name}: no viewport meta"
            );
            let mut title = Vec::new();
            tera::escape_html(&content.subject, &mut title).unwrap();
            let title = String::from_utf8(title).unwrap();
            assert!(
                !content.subject.is_empty() && html.contains(&format!("<title>{title}</title>")),
                "{name}: the title is not the subject `{}`",
                content.subject
            );
            assert!(html.contains("max-width:560px"), "{name}: not fluid");
            // Widths in percent, and a maximum: no `width:NNNpx`, `width="NNN"`, `min-width`.
            let widths = html.replace("max-width:", "max-w:");
            for (at, _) in widths.match_indices("width") {
                let after = widths[at + 5..].trim_start_matches([':', '=', '"']);
                let unit = after.trim_start_matches(|c: char| c.is_ascii_digit());
                assert!(
                    unit.len() == after.len() || unit.starts_with('%'),
                    "{name}: a fixed width at `{}`",
                    &widths[at..(at + 20).min(widths.len())]
                );
            }
            assert!(!widths.contains("min-width"), "{name}: a minimum width");
        }
    }

    #[test]
    fn every_html_template_extends_the_layout() {
        let mut folders = Vec::new();
        collect(&MAILERS, &mut folders);
        for dir in folders {
            let html = dir.get_file(dir.path().join("html.t")).unwrap();
            let text = html.contents_utf8().unwrap();
            assert!(
                text.starts_with(r#"{% extends "layout.html.t" %}"#),
                "{}: every html.t extends the layout",
                dir.path().display()
            );
        }
    }
}
