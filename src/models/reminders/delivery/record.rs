//! Which emails a group of reminders still owes, what each is called for good, and the record
//! of the ones the mail server accepted.

use std::collections::HashSet;

use loco_rs::prelude::*;
use sea_orm::{sea_query::OnConflict, ActiveEnum};

use super::Item;
use crate::models::{
    _entities::{reminder_deliveries, users, vendors},
    reminder_deliveries::DeliveryKind,
    state,
};

/// Who one email goes to.
pub enum Recipient<'a> {
    User(&'a users::Model),
    Vendor(&'a vendors::Model),
}

impl Recipient<'_> {
    /// Its `reminder_deliveries.kind` and address.
    pub fn address(&self) -> (DeliveryKind, &str) {
        match self {
            Self::User(user) => (DeliveryKind::Organization, user.email.as_str()),
            Self::Vendor(vendor) => (DeliveryKind::Vendor, vendor.email.as_str()),
        }
    }
}

/// One email still to send, and the reminders it lists.
pub struct Email<'a> {
    pub recipient: Recipient<'a>,
    pub items: Vec<&'a Item>,
}

/// The emails `items` still owe: one to each user (every item), then one to each vendor (its
/// own items, vendors by name), each listing only the items not yet recorded for that
/// recipient; none to a recipient who has them all.
///
/// # Errors
/// Database errors.
pub async fn pending_emails<'a>(
    db: &DatabaseConnection,
    items: &'a [Item],
    users: &'a [users::Model],
) -> Result<Vec<Email<'a>>> {
    let done: HashSet<(i64, DeliveryKind, String)> = reminder_deliveries::Entity::find()
        .filter(reminder_deliveries::Column::ReminderId.is_in(items.iter().map(|i| i.reminder.id)))
        .all(db)
        .await?
        .into_iter()
        .filter_map(|d| Some((d.reminder_id, state::parse(&d.kind)?, d.recipient)))
        .collect();
    let owed = |item: &Item, recipient: &Recipient<'_>| {
        let (kind, to) = recipient.address();
        !done.contains(&(item.reminder.id, kind, to.to_string()))
    };
    let mut vendors: Vec<&vendors::Model> = items.iter().map(|i| &i.vendor).collect();
    vendors.sort_by_key(|v| (v.name.to_lowercase(), v.id));
    vendors.dedup_by_key(|v| v.id);
    let recipients = users
        .iter()
        .map(Recipient::User)
        .chain(vendors.into_iter().map(Recipient::Vendor));
    Ok(recipients
        .filter_map(|recipient| {
            let listed: Vec<&Item> = items
                .iter()
                .filter(|i| match recipient {
                    Recipient::User(_) => true,
                    Recipient::Vendor(v) => i.vendor.id == v.id,
                })
                .filter(|i| owed(i, &recipient))
                .collect();
            (!listed.is_empty()).then_some(Email {
                recipient,
                items: listed,
            })
        })
        .collect())
}

/// The name of one email, the same on every attempt: it becomes the email's `Message-ID`. A
/// worker that dies after the mail server accepted the email and before `record_deliveries`
/// leaves it unrecorded, and the next claim sends it again, listing the same reminders; SMTP
/// offers no way to ask the server whether it took a message. Sent again under the same
/// `Message-ID`, it is the same message to the receiving side rather than a second reminder.
/// One reminder's email is named by its `pid` (as before reminders were grouped); several by
/// their count and a digest of their `pid`s. The address is hashed: a `Message-ID` travels with
/// the message and should not spell out another address.
#[must_use]
pub fn email_key(items: &[&Item], kind: DeliveryKind, to: &str) -> String {
    use sha2::{Digest, Sha256};
    let to = Sha256::digest(to.trim().to_lowercase().as_bytes());
    let name = if let [one] = items {
        one.reminder.pid.simple().to_string()
    } else {
        let mut pids: Vec<String> = items
            .iter()
            .map(|i| i.reminder.pid.simple().to_string())
            .collect();
        pids.sort();
        let digest = Sha256::digest(pids.join(",").as_bytes());
        format!("{}x{}", items.len(), hex::encode(&digest[..16]))
    };
    format!(
        "reminder.{name}.{}.{}",
        kind.to_value(),
        hex::encode(&to[..8])
    )
}

/// Remembers that the mail server accepted the email to `to` listing `ids`: one row per
/// reminder, in one statement. A row already there (two workers raced past a stale claim) is
/// the unique index saying so.
///
/// # Errors
/// Database errors.
pub async fn record_deliveries(
    db: &DatabaseConnection,
    ids: &[i64],
    kind: DeliveryKind,
    to: &str,
) -> Result<()> {
    let rows = ids.iter().map(|&id| reminder_deliveries::ActiveModel {
        reminder_id: ActiveValue::Set(id),
        kind: ActiveValue::Set(kind.to_value()),
        recipient: ActiveValue::Set(to.to_string()),
        ..Default::default()
    });
    reminder_deliveries::Entity::insert_many(rows)
        .on_conflict(
            OnConflict::columns([
                reminder_deliveries::Column::ReminderId,
                reminder_deliveries::Column::Kind,
                reminder_deliveries::Column::Recipient,
            ])
            .do_nothing()
            .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}
