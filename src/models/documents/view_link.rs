//! Short-lived signed links to a document's view. The document viewer loads a PDF straight
//! from such a link (not from a `blob:` URL) so that the browser's PDF viewer names the file:
//! the link ends with the file's name and the answer carries it in `Content-Disposition`.
//! A frame cannot send the bearer token, so the link itself is the permission: signed with
//! the server's secret, bound to the document and its organization, and valid for minutes.

use chrono::{DateTime, TimeDelta, Utc};
use hmac::{Hmac, Mac};
use loco_rs::prelude::*;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use sha2::Sha256;
use uuid::Uuid;

use super::{documents, Entity, Model};
use crate::models::refusal::Refusal;

/// How long a view link works: long enough to load the page, short enough that a link
/// copied out of the page is soon worthless.
pub const VIEW_LINK_TTL: TimeDelta = TimeDelta::minutes(10);

/// What the name at the end of the link keeps as it is: letters, digits and `.-_~`.
const NAME_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'.')
    .remove(b'-')
    .remove(b'_')
    .remove(b'~');

/// A link to the document's view and the moment it stops working.
pub struct ViewLink {
    pub path: String,
    pub expires_at: DateTime<Utc>,
}

/// HMAC-SHA256 of the document, its organization and the expiry, under the server's secret
/// (the JWT secret, with a purpose of its own in the message so that no other signature made
/// with that secret can pass for this one).
fn signed_message(org_id: i64, pid: &Uuid, expires: i64) -> Vec<u8> {
    format!("document-view-link:v1\n{org_id}\n{pid}\n{expires}").into_bytes()
}

/// The MAC of `message` under `secret`, ready to be finished or checked.
fn mac(secret: &str, message: &[u8]) -> Hmac<Sha256> {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(message);
    mac
}

/// Whether `sig` is the signature of `message` (compared in constant time).
fn signed(secret: &str, message: &[u8], sig: &[u8]) -> bool {
    mac(secret, message).verify_slice(sig).is_ok()
}

impl Model {
    /// A signed link to this document's view, valid for `VIEW_LINK_TTL` from `now`.
    #[must_use]
    pub fn view_link(&self, secret: &str, now: DateTime<Utc>) -> ViewLink {
        let expires_at = now + VIEW_LINK_TTL;
        let expires = expires_at.timestamp();
        let message = signed_message(self.organization_id, &self.pid, expires);
        let sig = hex::encode(mac(secret, &message).finalize().into_bytes());
        let name = utf8_percent_encode(&self.file_name, NAME_SEGMENT);
        ViewLink {
            path: format!("/api/documents/{}/file/{expires}/{sig}/{name}", self.pid),
            expires_at,
        }
    }

    /// The document a view link names, when its signature holds and it has not expired.
    ///
    /// # Errors
    /// `NotFound` for an unknown document or a signature that is not ours for it (whatever
    /// was changed: document, organization, expiry); `LinkExpired` for a genuine link past its
    /// time.
    pub async fn find_by_view_link<C: ConnectionTrait>(
        db: &C,
        secret: &str,
        pid: &str,
        expires: i64,
        sig: &str,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let pid = Uuid::parse_str(pid).map_err(|_| Refusal::NotFound)?;
        let sig = hex::decode(sig).map_err(|_| Refusal::NotFound)?;
        let doc = Entity::find()
            .filter(documents::Column::Pid.eq(pid))
            .one(db)
            .await?
            .ok_or(Refusal::NotFound)?;
        let message = signed_message(doc.organization_id, &doc.pid, expires);
        if !signed(secret, &message, &sig) {
            return Err(Refusal::NotFound.into());
        }
        if now.timestamp() >= expires {
            return Err(Refusal::LinkExpired.into());
        }
        Ok(doc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(org: i64, name: &str) -> Model {
        Model {
            created_at: Utc::now().into(),
            updated_at: Utc::now().into(),
            id: 1,
            pid: Uuid::new_v4(),
            document_type: "coi".into(),
            coi_type: None,
            slot: "coi".into(),
            file_name: name.into(),
            storage_key: "k".into(),
            content_type: "application/pdf".into(),
            size: 1,
            expiration_date: None,
            notes: None,
            source: sea_orm::ActiveEnum::to_value(&super::super::DocumentSource::User),
            version: 1,
            is_current: true,
            superseded_at: None,
            organization_id: org,
            vendor_id: 1,
            coverage: None,
            coverage_source: None,
        }
    }

    #[test]
    fn the_link_ends_with_the_file_name_and_is_bound_to_the_organization() {
        let now = Utc::now();
        let d = doc(7, "Zoë COI 2026.pdf");
        let link = d.view_link("secret", now);
        assert!(
            link.path.ends_with("/Zo%C3%AB%20COI%202026.pdf"),
            "{}",
            link.path
        );
        assert_eq!(link.expires_at, now + VIEW_LINK_TTL);
        let parts: Vec<&str> = link.path.split('/').collect();
        let (expires, sig) = (
            parts[5].parse::<i64>().unwrap(),
            hex::decode(parts[6]).unwrap(),
        );
        let check = |org: i64, secret: &str, expires: i64| {
            signed(secret, &signed_message(org, &d.pid, expires), &sig)
        };
        assert!(check(7, "secret", expires));
        assert!(!check(8, "secret", expires), "another organization");
        assert!(!check(7, "other secret", expires), "another secret");
        assert!(!check(7, "secret", expires + 3600), "a later expiry");
    }
}
