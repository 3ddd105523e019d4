//! The reminder emails that list several documents: a day's reminders of one organization go
//! out as one notice per user (every vendor's documents, by vendor) and one renewal request per
//! vendor (its documents). One document keeps the single-document emails (`super`).

use loco_rs::prelude::*;
use serde_json::json;

use super::{status_label, when, ReminderFacts};
use crate::models::{_entities::users, compliance::Status};

static expiring_several: Dir<'_> = include_dir!("src/mailers/reminders/expiring_several");
static renewal_request_several: Dir<'_> =
    include_dir!("src/mailers/reminders/renewal_request_several");

/// One document's line: its type, file name, date, status and how far off it is.
fn document_locals(facts: &ReminderFacts) -> serde_json::Value {
    json!({
        "document": facts.document,
        "fileName": facts.file_name,
        "expirationDate": crate::models::compliance::display_date(facts.expiration),
        "status": status_label(facts.status),
        "expired": facts.status == Status::Expired,
        "when": when(facts.days_left),
    })
}

/// The documents in reading order: soonest first, then by name.
fn sorted<'a>(documents: &[&'a ReminderFacts]) -> Vec<&'a ReminderFacts> {
    let mut documents = documents.to_vec();
    documents.sort_by(|a, b| {
        (a.expiration, &a.document, &a.file_name).cmp(&(b.expiration, &b.document, &b.file_name))
    });
    documents
}

/// The notice's values: the documents by vendor (vendors by name), without the user's name.
#[must_use]
pub fn notice_locals(documents: &[&ReminderFacts]) -> serde_json::Value {
    let mut vendors: Vec<(&str, &str, &str, Vec<&ReminderFacts>)> = vec![];
    let mut by_name = documents.to_vec();
    by_name.sort_by(|a, b| {
        (a.vendor.to_lowercase(), &a.company_key).cmp(&(b.vendor.to_lowercase(), &b.company_key))
    });
    for facts in by_name {
        match vendors.last_mut() {
            Some((_, key, _, docs)) if *key == facts.company_key => docs.push(facts),
            _ => vendors.push((
                &facts.vendor,
                &facts.company_key,
                &facts.vendor_url,
                vec![facts],
            )),
        }
    }
    json!({
        "organization": documents.first().map(|f| f.organization.as_str()),
        "count": documents.len(),
        "vendorCount": vendors.len(),
        // The subject's vendor when there is one.
        "vendor": vendors.first().map(|(name, ..)| name),
        "vendors": vendors.iter().map(|(name, _, url, docs)| json!({
            "vendor": name,
            "vendorUrl": url,
            "documents": sorted(docs).into_iter().map(document_locals).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The renewal request's values: one vendor's documents.
#[must_use]
pub fn request_locals(documents: &[&ReminderFacts]) -> serde_json::Value {
    let first = documents.first();
    json!({
        "organization": first.map(|f| f.organization.as_str()),
        "vendor": first.map(|f| f.vendor.as_str()),
        "companyKey": first.map(|f| f.company_key.as_str()),
        "uploadUrl": first.map(|f| f.upload_url.as_str()),
        "count": documents.len(),
        "documents": sorted(documents).into_iter().map(document_locals).collect::<Vec<_>>(),
    })
}

impl super::ReminderMailer {
    /// Tells a user of the organization which documents of which vendors expire when, in one
    /// email.
    ///
    /// # Errors
    /// When the email cannot be rendered, or the mail server does not accept it.
    pub async fn expiring_notice_several(
        ctx: &AppContext,
        user: &users::Model,
        documents: &[&ReminderFacts],
        key: &str,
    ) -> Result<()> {
        let mut locals = notice_locals(documents);
        locals["name"] = json!(user.name);
        crate::mailers::deliver_now(ctx, &expiring_several, &user.email, locals, key).await
    }

    /// Asks the vendor, in one email, to upload each of its renewed documents through the
    /// portal with its company key; `headers` name whom the vendor's reply reaches (the
    /// organization's owner).
    ///
    /// # Errors
    /// When the email cannot be rendered, or the mail server does not accept it.
    pub async fn renewal_request_several(
        ctx: &AppContext,
        to: &str,
        documents: &[&ReminderFacts],
        key: &str,
        headers: &crate::mailers::Headers,
    ) -> Result<()> {
        let locals = request_locals(documents);
        crate::mailers::deliver_now_with(ctx, &renewal_request_several, to, locals, key, headers)
            .await
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;
    use crate::models::compliance;

    fn facts(vendor: &str, document: &str, days_left: i64) -> ReminderFacts {
        let today = NaiveDate::from_ymd_opt(2026, 3, 10).unwrap();
        let expiration = today + chrono::Duration::days(days_left);
        ReminderFacts {
            organization: "Acme <Holdings>".into(),
            vendor: vendor.into(),
            company_key: format!("{}KEY", &vendor[..4]),
            document: document.into(),
            file_name: format!("{}.pdf", document.to_lowercase().replace(' ', "-")),
            expiration,
            status: compliance::document_status(Some(expiration), today),
            days_left,
            vendor_url: format!("https://app.example/vendors/{}KEY", &vendor[..4]),
            upload_url: "https://app.example/vendor-upload".into(),
        }
    }

    #[test]
    fn the_notice_lists_every_document_of_every_vendor() {
        let (a, b, c) = (
            facts("Bolt & Sons", "W9 Form", 7),
            facts("Bolt & Sons", "Sales Tax Certificate", 0),
            facts("Acorn Pipes", "Vendor Agreement", 30),
        );
        let mut locals = notice_locals(&[&a, &b, &c]);
        locals["name"] = json!("Ann");
        let mail = crate::mailers::render(&expiring_several, &locals).unwrap();
        assert_eq!(mail.subject, "3 documents of 2 vendors need renewal");
        for part in [&mail.text, &mail.html] {
            for expected in [
                "W9 Form",
                "w9-form.pdf",
                "Mar 17, 2026",
                "in 7 days",
                "Sales Tax Certificate",
                "Mar 10, 2026",
                "Vendor Agreement",
                "Apr 9, 2026",
                "https://app.example/vendors/BoltKEY",
                "https://app.example/vendors/AcorKEY",
            ] {
                assert!(part.contains(expected), "{expected} in {part}");
            }
        }
        let acorn = mail.text.find("Acorn Pipes").unwrap();
        let bolt = mail.text.find("Bolt & Sons").unwrap();
        assert!(acorn < bolt, "vendors by name");
        assert!(
            mail.text.find("Sales Tax").unwrap() < mail.text.find("W9 Form").unwrap(),
            "the expired one first"
        );
        assert!(mail.html.contains("Bolt &amp; Sons"), "escaped in HTML");
        assert!(mail.html.contains("max-width:560px") && mail.html.contains("viewport"));

        let mut one_vendor = notice_locals(&[&a, &b]);
        one_vendor["name"] = json!("Ann");
        let mail = crate::mailers::render(&expiring_several, &one_vendor).unwrap();
        assert_eq!(mail.subject, "2 documents of Bolt & Sons need renewal");
    }

    #[test]
    fn the_renewal_request_lists_the_vendors_documents_with_portal_and_key() {
        let (a, b) = (
            facts("Bolt & Sons", "W9 Form", 7),
            facts("Bolt & Sons", "Sales Tax Certificate", -2),
        );
        let mail =
            crate::mailers::render(&renewal_request_several, &request_locals(&[&a, &b])).unwrap();
        assert_eq!(mail.subject, "Acme <Holdings> asks for 2 renewed documents");
        for part in [&mail.text, &mail.html] {
            for expected in [
                "W9 Form",
                "Mar 17, 2026",
                "Sales Tax Certificate",
                "Mar 8, 2026",
                "https://app.example/vendor-upload",
                "BoltKEY",
            ] {
                assert!(part.contains(expected), "{expected} in {part}");
            }
        }
        assert!(
            mail.text.contains("expired on Mar 8, 2026"),
            "{}",
            mail.text
        );
        assert!(mail.html.contains("Acme &lt;Holdings&gt;"));
    }
}
