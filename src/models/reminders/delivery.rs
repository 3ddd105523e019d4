//! Sending one claimed reminder: a notice to every user of the organization and a renewal
//! request to the vendor. Each email is sent synchronously and recorded once the mail server
//! has accepted it; the reminder is marked sent after the last one. A worker that dies half way
//! leaves the recorded emails recorded, and whoever claims the reminder next sends only the rest.
//! One that dies in the instant between the server's acceptance and the record leaves that
//! email unrecorded, and it goes out again: under the same `Message-ID` (`email_key`), so the
//! receiving side sees one message sent twice, not two reminders.

use std::collections::HashSet;

use chrono::NaiveDate;
use loco_rs::prelude::*;

use super::{reminders, Entity, Model};
use crate::{
    mailers::{
        reminders::{ReminderFacts, ReminderMailer},
        Headers,
    },
    models::{
        _entities::{documents, organizations, reminder_deliveries, users, vendors},
        documents::today,
    },
    settings::Settings,
};

/// Who an email of a reminder went to (`reminder_deliveries.kind`).
pub const TO_ORGANIZATION: &str = "organization";
pub const TO_VENDOR: &str = "vendor";

/// What became of a reminder job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every email was accepted and the reminder is marked sent.
    Sent,
    /// The claim is not ours: the reminder was sent, re-claimed after our claim went stale, or
    /// deleted with its document. Nothing was sent. (A claim of ours on a reminder sent or
    /// deleted meanwhile is deleted.)
    NotOurs,
    /// The document is no longer current: the reminder was dropped without an email.
    Dropped,
    /// A later reminder of the same document is due too (the sweep caught up after days
    /// without running): this one was dropped without an email, and the later one speaks for
    /// both, as reminders already past when a document is saved collapse into one.
    Superseded,
}

/// One email still to send.
enum Recipient {
    User(Box<users::Model>),
    Vendor,
}

impl Model {
    /// Sends the reminder `id` if `token` still holds its claim, claimed by a sweep of the day
    /// `due_by`. On the first email the mail server refuses, the claim is released (the next
    /// sweep tries again) and the error returned.
    ///
    /// # Errors
    /// A refused or failed email; database errors.
    pub async fn deliver(
        ctx: &AppContext,
        id: i64,
        token: &str,
        due_by: NaiveDate,
    ) -> Result<Outcome> {
        let db = &ctx.db;
        let Some((reminder, attempts)) = Self::find_claimed(db, id, token).await? else {
            Self::drop_claim_of_sent(db, id, token).await?;
            return Ok(Outcome::NotOurs);
        };
        let Some((document, vendor)) = documents::Entity::find_by_id(reminder.document_id)
            .find_also_related(vendors::Entity)
            .one(db)
            .await?
            .and_then(|(d, v)| Some((d, v?)))
            .filter(|(d, _)| d.is_current && d.expiration_date.is_some())
        else {
            Self::drop_claimed(db, id, token).await?;
            return Ok(Outcome::Dropped);
        };
        if Self::later_one_is_due(db, &reminder, due_by).await? {
            Self::drop_claimed(db, id, token).await?;
            return Ok(Outcome::Superseded);
        }
        let org = organizations::Entity::find_by_id(reminder.organization_id)
            .one(db)
            .await?
            .ok_or(Error::NotFound)?;
        let settings = Settings::from_context(ctx)?;
        // The email speaks of the day it is sent; a sweep run ahead of time (`date:` in the
        // future) speaks of the reminder's own day instead.
        let as_of = today().max(reminder.reminder_date);
        let Some(facts) = ReminderFacts::new(&settings.app_url, &org, &vendor, &document, as_of)
        else {
            return Ok(Outcome::Dropped);
        };
        for recipient in Self::pending_recipients(db, &reminder, &vendor).await? {
            if !Self::renew_claim(db, id, token).await? {
                return Ok(Outcome::NotOurs);
            }
            let (kind, address) = match &recipient {
                Recipient::User(user) => (TO_ORGANIZATION, user.email.as_str()),
                Recipient::Vendor => (TO_VENDOR, vendor.email.as_str()),
            };
            let key = email_key(&reminder, kind, address);
            let sent = match &recipient {
                Recipient::User(user) => {
                    ReminderMailer::expiring_notice(ctx, user, &facts, &key).await
                }
                Recipient::Vendor => {
                    // Sent on the organization's behalf: the vendor's answer (often the
                    // document itself) goes to its owner, not to the software's support.
                    let headers = Headers::replies_to_owner(db, org.id).await?;
                    ReminderMailer::renewal_request(ctx, &vendor.email, &facts, &key, &headers)
                        .await
                }
            };
            if let Err(err) = sent {
                if attempts >= settings.reminders.max_attempts {
                    // The claim counted the last attempt: no sweep claims it again, so say so
                    // where an operator looks.
                    tracing::error!(reminder = id, to = address, attempts, err = %err, "reminder email refused on the last attempt; no sweep will send it");
                } else {
                    tracing::warn!(reminder = id, to = address, err = %err, "reminder email refused; the reminder stays pending");
                }
                Self::release_claim(db, id, token).await?;
                return Err(err);
            }
            record_delivery(db, id, kind, address).await?;
        }
        if Self::mark_sent(db, id, token).await? {
            tracing::info!(reminder = id, document = document.id, "reminder sent");
            crate::observability::reminder_sent();
            Ok(Outcome::Sent)
        } else {
            Ok(Outcome::NotOurs)
        }
    }

    /// Whether another reminder of the same document, dated after this one, is due by
    /// `due_by` (sent or not).
    async fn later_one_is_due(
        db: &DatabaseConnection,
        reminder: &Self,
        due_by: NaiveDate,
    ) -> Result<bool> {
        Ok(Entity::find()
            .filter(reminders::Column::DocumentId.eq(reminder.document_id))
            .filter(reminders::Column::ReminderDate.gt(reminder.reminder_date))
            .filter(reminders::Column::ReminderDate.lte(due_by))
            .count(db)
            .await?
            > 0)
    }

    /// The organization's users, then the vendor, minus those an earlier attempt reached.
    async fn pending_recipients(
        db: &DatabaseConnection,
        reminder: &Self,
        vendor: &vendors::Model,
    ) -> Result<Vec<Recipient>> {
        let done: HashSet<(String, String)> = reminder_deliveries::Entity::find()
            .filter(reminder_deliveries::Column::ReminderId.eq(reminder.id))
            .all(db)
            .await?
            .into_iter()
            .map(|d| (d.kind, d.recipient))
            .collect();
        let is_done = |kind: &str, to: &str| done.contains(&(kind.to_string(), to.to_string()));
        let mut pending: Vec<Recipient> = users::Entity::find()
            .filter(users::Column::OrganizationId.eq(reminder.organization_id))
            .order_by_asc(users::Column::Id)
            .all(db)
            .await?
            .into_iter()
            .filter(|u| !is_done(TO_ORGANIZATION, &u.email))
            .map(|u| Recipient::User(Box::new(u)))
            .collect();
        if !is_done(TO_VENDOR, &vendor.email) {
            pending.push(Recipient::Vendor);
        }
        Ok(pending)
    }
}

/// The name of one email of a reminder, the same on every attempt: it becomes the email's
/// `Message-ID`. A worker that dies after the mail server accepted the email and before
/// `record_delivery` leaves it unrecorded, and the next claim sends it again; SMTP offers no
/// way to ask the server whether it took a message. Sent again under the same `Message-ID`,
/// it is the same message to the receiving side rather than a second reminder. The address is
/// hashed: a `Message-ID` travels with the message and should not spell out another address.
fn email_key(reminder: &Model, kind: &str, to: &str) -> String {
    use sha2::{Digest, Sha256};
    let to = Sha256::digest(to.trim().to_lowercase().as_bytes());
    format!(
        "reminder.{}.{kind}.{}",
        reminder.pid.simple(),
        hex::encode(&to[..8])
    )
}

/// Remembers that the mail server accepted this email. A second record of the same email (two
/// workers raced past a stale claim) is the unique index saying it is already there.
async fn record_delivery(
    db: &DatabaseConnection,
    reminder_id: i64,
    kind: &str,
    to: &str,
) -> Result<()> {
    let row = reminder_deliveries::ActiveModel {
        reminder_id: ActiveValue::Set(reminder_id),
        kind: ActiveValue::Set(kind.to_string()),
        recipient: ActiveValue::Set(to.to_string()),
        ..Default::default()
    };
    match row.insert(db).await {
        Ok(_) => Ok(()),
        Err(e)
            if matches!(
                e.sql_err(),
                Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}
