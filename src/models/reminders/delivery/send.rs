//! Sending one email of a group, and saying so when the mail server refuses it.

use loco_rs::prelude::*;

use super::{
    record::{email_key, Recipient},
    Group, Item,
};
use crate::{
    mailers::{
        reminders::{ReminderFacts, ReminderMailer},
        Headers,
    },
    settings::Settings,
};

/// Sends one email listing `items`: the single-document email for one, the list for more.
/// `to_vendor` are the headers of the emails sent to vendors on the organization's behalf
/// (replies reach its owner), made once per group by the caller.
pub async fn send(
    ctx: &AppContext,
    recipient: &Recipient<'_>,
    items: &[&Item],
    to_vendor: &Headers,
) -> Result<()> {
    let (kind, address) = recipient.address();
    let key = email_key(items, kind, address);
    let facts: Vec<&ReminderFacts> = items.iter().map(|i| &i.facts).collect();
    match (recipient, facts.as_slice()) {
        (Recipient::User(user), [one]) => {
            ReminderMailer::expiring_notice(ctx, user, one, &key).await
        }
        (Recipient::User(user), many) => {
            ReminderMailer::expiring_notice_several(ctx, user, many, &key).await
        }
        (Recipient::Vendor(vendor), facts) => {
            // Sent on the organization's behalf: the vendor's answer (often the document
            // itself) goes to its owner, not to the software's support.
            let headers = to_vendor;
            match facts {
                [one] => {
                    ReminderMailer::renewal_request(ctx, &vendor.email, one, &key, headers).await
                }
                many => {
                    ReminderMailer::renewal_request_several(ctx, &vendor.email, many, &key, headers)
                        .await
                }
            }
        }
    }
}

pub fn log_refusal(settings: &Settings, group: &Group, items: &[&Item], to: &str, err: &Error) {
    let ids: Vec<i64> = items.iter().map(|i| i.reminder.id).collect();
    let attempts = ids
        .iter()
        .filter_map(|id| group.attempts.get(id))
        .copied()
        .max()
        .unwrap_or(0);
    if attempts >= settings.reminders.max_attempts {
        // The claims counted their last attempt: no sweep claims them again, so say so where an
        // operator looks.
        tracing::error!(reminders = ?ids, to, attempts, err = %err, "reminder email refused on the last attempt; no sweep will send it");
    } else {
        tracing::warn!(reminders = ?ids, to, err = %err, "reminder email refused; its reminders stay pending");
    }
}
