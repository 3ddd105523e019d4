#![allow(non_upper_case_globals)]
//! The two reminder emails: the notice to the organization's users and the renewal request to
//! the vendor, of one document here, of several in `several`. All are sent synchronously
//! (`deliver_now`): the reminder worker records each one only after the mail server accepted it.

use chrono::NaiveDate;
use loco_rs::prelude::*;
use serde_json::json;

use crate::models::{
    _entities::{documents, organizations, users, vendors},
    compliance::{self, CoiType, DocumentType, Status},
};

mod several;

static expiring: Dir<'_> = include_dir!("src/mailers/reminders/expiring");
static renewal_request: Dir<'_> = include_dir!("src/mailers/reminders/renewal_request");

/// What both reminder emails say about the document, computed on the day they are sent.
#[derive(Debug, Clone)]
pub struct ReminderFacts {
    pub organization: String,
    pub vendor: String,
    pub company_key: String,
    /// "Certificate of Insurance (General Liability)", "W9 Form", ...
    pub document: String,
    pub file_name: String,
    pub expiration: NaiveDate,
    pub status: Status,
    /// Days from the sending day to the expiration date (negative once expired).
    pub days_left: i64,
    pub vendor_url: String,
    pub upload_url: String,
}

impl ReminderFacts {
    /// `None` for a document without an expiration date (it has no reminders).
    #[must_use]
    pub fn new(
        app_url: &str,
        org: &organizations::Model,
        vendor: &vendors::Model,
        document: &documents::Model,
        today: NaiveDate,
    ) -> Option<Self> {
        let expiration = document.expiration_date?;
        let app_url = app_url.trim_end_matches('/');
        Some(Self {
            organization: org.name.clone(),
            vendor: vendor.name.clone(),
            company_key: vendor.key.clone(),
            document: document_name(&document.document_type, document.coi_type.as_deref()),
            file_name: document.file_name.clone(),
            expiration,
            status: compliance::document_status(Some(expiration), today),
            days_left: (expiration - today).num_days(),
            vendor_url: format!("{app_url}/vendors/{}", vendor.key),
            upload_url: format!("{app_url}/vendor-upload"),
        })
    }

    /// The template values shared by both emails.
    #[must_use]
    pub fn locals(&self) -> serde_json::Value {
        json!({
            "organization": self.organization,
            "vendor": self.vendor,
            "companyKey": self.company_key,
            "document": self.document,
            "fileName": self.file_name,
            // The screens' date format ('MMM d, yyyy').
            "expirationDate": compliance::display_date(self.expiration),
            "status": status_label(self.status),
            "expired": self.status == Status::Expired,
            "when": when(self.days_left),
            "vendorUrl": self.vendor_url,
            "uploadUrl": self.upload_url,
        })
    }
}

/// The document as a person names it, with the insurance type of a COI.
#[must_use]
pub fn document_name(document_type: &str, coi_type: Option<&str>) -> String {
    let base = DocumentType::parse(document_type).map_or("Document", DocumentType::label);
    match coi_type.and_then(CoiType::parse) {
        Some(coi) => format!("{base} ({})", coi.label()),
        None => base.to_string(),
    }
}

const fn status_label(status: Status) -> &'static str {
    match status {
        Status::Current => "Current",
        Status::ExpiringSoon => "Expiring Soon",
        Status::Expired => "Expired",
        Status::Missing => "Missing",
    }
}

/// "in 7 days", "tomorrow", "today", "yesterday", "3 days ago".
fn when(days_left: i64) -> String {
    match days_left {
        0 => "today".to_string(),
        1 => "tomorrow".to_string(),
        -1 => "yesterday".to_string(),
        d if d > 1 => format!("in {d} days"),
        d => format!("{} days ago", -d),
    }
}

pub struct ReminderMailer;

impl ReminderMailer {
    /// Tells a user of the organization which document of which vendor expires when.
    ///
    /// # Errors
    /// When the email cannot be rendered, or the mail server does not accept it.
    /// `key` names this email of this reminder for good (see [`super::deliver_now`]).
    pub async fn expiring_notice(
        ctx: &AppContext,
        user: &users::Model,
        facts: &ReminderFacts,
        key: &str,
    ) -> Result<()> {
        let mut locals = facts.locals();
        locals["name"] = json!(user.name);
        super::deliver_now(ctx, &expiring, &user.email, locals, key).await
    }

    /// Asks the vendor, on the organization's behalf, to upload the renewed document through
    /// the portal with its company key. `headers` name whom the vendor's reply reaches: the
    /// organization's owner ([`super::Headers::replies_to_owner`]).
    ///
    /// # Errors
    /// When the email cannot be rendered, or the mail server does not accept it.
    pub async fn renewal_request(
        ctx: &AppContext,
        to: &str,
        facts: &ReminderFacts,
        key: &str,
        headers: &super::Headers,
    ) -> Result<()> {
        super::deliver_now_with(ctx, &renewal_request, to, facts.locals(), key, headers).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(days_left: i64) -> ReminderFacts {
        let today = NaiveDate::from_ymd_opt(2026, 3, 10).unwrap();
        let expiration = today + chrono::Duration::days(days_left);
        ReminderFacts {
            organization: "Acme <Holdings>".into(),
            vendor: "Bolt & Sons".into(),
            company_key: "AbCd1234".into(),
            document: document_name("coi", Some("general_liability")),
            file_name: "coi.pdf".into(),
            expiration,
            status: compliance::document_status(Some(expiration), today),
            days_left,
            vendor_url: "https://app.example/vendors/AbCd1234".into(),
            upload_url: "https://app.example/vendor-upload".into(),
        }
    }

    #[test]
    fn the_notice_names_document_vendor_date_status_and_link() {
        let mut locals = facts(7).locals();
        locals["name"] = json!("Ann");
        let mail = crate::mailers::render(&expiring, &locals).unwrap();
        assert_eq!(
            mail.subject,
            "Certificate of Insurance (General Liability) for Bolt & Sons expires in 7 days"
        );
        for part in [&mail.text, &mail.html] {
            assert!(part.contains("Mar 17, 2026"), "{part}");
            assert!(part.contains("Expiring Soon"), "{part}");
            assert!(
                part.contains("https://app.example/vendors/AbCd1234"),
                "{part}"
            );
        }
        assert!(
            mail.html.contains("Bolt &amp; Sons"),
            "names are escaped in HTML"
        );
    }

    #[test]
    fn the_notice_of_an_expired_document_says_so() {
        let mut locals = facts(0).locals();
        locals["name"] = json!("Ann");
        let mail = crate::mailers::render(&expiring, &locals).unwrap();
        assert_eq!(
            mail.subject,
            "Certificate of Insurance (General Liability) for Bolt & Sons has expired"
        );
        assert!(mail.text.contains("Expired"));
        let request = crate::mailers::render(&renewal_request, &facts(0).locals()).unwrap();
        assert_eq!(
            request.subject,
            "Your Certificate of Insurance (General Liability) has expired: Acme <Holdings> asks for the renewed one"
        );
    }

    #[test]
    fn the_renewal_request_names_the_client_and_gives_portal_and_key() {
        let mail = crate::mailers::render(&renewal_request, &facts(30).locals()).unwrap();
        assert_eq!(
            mail.subject,
            "Acme <Holdings> asks for your renewed Certificate of Insurance (General Liability)"
        );
        for part in [&mail.text, &mail.html] {
            assert!(part.contains("https://app.example/vendor-upload"), "{part}");
            assert!(part.contains("AbCd1234"), "{part}");
            assert!(part.contains("Apr 9, 2026"), "{part}");
        }
        assert!(
            mail.html.contains("Acme &lt;Holdings&gt;"),
            "the client's name is escaped in HTML"
        );
    }

    #[test]
    fn when_reads_as_words() {
        assert_eq!(when(7), "in 7 days");
        assert_eq!(when(1), "tomorrow");
        assert_eq!(when(0), "today");
        assert_eq!(when(-1), "yesterday");
        assert_eq!(when(-3), "3 days ago");
    }
}
