//! Sending one organization's claimed reminders as few emails as its recipients need: one
//! notice to each user of the organization listing every document due, and one renewal request
//! to each vendor listing its own (one document: the single-document emails). The worker first
//! gathers the organization's claims under a token of its own (`gather`).
//!
//! Each email is sent synchronously and recorded, once the mail server has accepted it, as one
//! `reminder_deliveries` row per reminder it listed; a reminder is marked sent once all of its
//! emails are recorded. An email refused leaves every reminder it listed pending (given back,
//! for the next sweep), and the other emails still go; the next attempt sends each recipient
//! only the reminders not recorded for it. A worker that dies between the server's acceptance
//! and the record leaves that email unrecorded, and it goes out again: under the same
//! `Message-ID` (`email_key`, from the reminders it lists), so the receiving side sees one
//! message sent twice, not a second reminder.

use std::collections::{BTreeMap, HashSet};

use chrono::{Duration, NaiveDate};
use loco_rs::prelude::*;

use super::{claims::now, gather::Group, reminders, Entity, Model};
use crate::{
    mailers::reminders::ReminderFacts,
    models::{
        _entities::{organizations, users, vendors},
        documents::{self, today},
    },
    settings::Settings,
};

mod record;
mod send;

use record::{pending_emails, record_deliveries};
use send::{log_refusal, send};

/// What became of a claimed reminder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every email was accepted and the reminder is marked sent.
    Sent,
    /// The claim is not ours: the reminder was sent, re-claimed after our claim went stale,
    /// gathered by another job of its organization, or deleted with its document. Nothing was
    /// sent for it. (A claim of ours on a reminder sent or deleted meanwhile is deleted.)
    NotOurs,
    /// The document is no longer current: the reminder was dropped without an email.
    Dropped,
    /// A later reminder of the same document is due too (the sweep caught up after days
    /// without running): this one was dropped without an email, and the later one speaks for
    /// both, as reminders already past when a document is saved collapse into one.
    Superseded,
    /// An email listing it was refused: it was given back, for the next sweep.
    Failed,
}

/// What became of each reminder a job handled: its own, and those it gathered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Delivered {
    pub outcomes: BTreeMap<i64, Outcome>,
}

impl Delivered {
    /// The outcome of reminder `id` (`NotOurs` when the job never held it).
    #[must_use]
    pub fn outcome(&self, id: i64) -> Outcome {
        self.outcomes.get(&id).copied().unwrap_or(Outcome::NotOurs)
    }
}

/// A reminder ready to go: its row, its vendor, and what its emails say.
pub struct Item {
    pub reminder: Model,
    pub vendor: vendors::Model,
    pub facts: ReminderFacts,
}

impl Model {
    /// Sends reminder `id` (a job of one), with whatever else of its organization it gathers;
    /// its own outcome.
    ///
    /// # Errors
    /// As [`Self::deliver_all`].
    pub async fn deliver(
        ctx: &AppContext,
        id: i64,
        token: &str,
        due_by: NaiveDate,
    ) -> Result<Outcome> {
        Ok(Self::deliver_all(ctx, &[id], token, due_by)
            .await?
            .outcome(id))
    }

    /// Sends the reminders `ids` of one job, claimed with `token` by a sweep of the day
    /// `due_by`, together with the organization's other claimed reminders no worker has
    /// started on. Refused emails give their reminders back (the next sweep tries again), and
    /// the first refusal is returned once every other email was tried.
    ///
    /// # Errors
    /// A refused or failed email; database errors.
    pub async fn deliver_all(
        ctx: &AppContext,
        ids: &[i64],
        token: &str,
        due_by: NaiveDate,
    ) -> Result<Delivered> {
        let db = &ctx.db;
        let settings = Settings::from_context(ctx)?;
        let mut done = Delivered::default();
        for &id in ids {
            Self::drop_claim_of_sent(db, id, token).await?;
        }
        let timeout = i64::try_from(settings.reminders.claim_timeout_seconds).unwrap_or(i64::MAX);
        let fresh_after = now() - Duration::seconds(timeout);
        let Some(group) = Self::gather(db, ids, token, due_by, fresh_after).await? else {
            return Ok(done);
        };
        let items = Self::ready(ctx, &settings, &group, due_by, &mut done).await?;
        if items.is_empty() {
            return Ok(done);
        }
        let mut users = users::Entity::find()
            .filter(users::Column::OrganizationId.eq(group.organization_id))
            .order_by_asc(users::Column::Id)
            .all(db)
            .await?;
        // Vendors' replies reach the owner.
        let owner = users
            .iter()
            .find(|u| u.org_role() == crate::models::members::OrgRole::Owner)
            .or(users.first());
        let to_vendor = crate::mailers::Headers::replies_to_user(owner);
        // The organization's own reminders go to each person who has them on.
        users.retain(|u| u.reminder_emails);
        let (mut failed, mut lost) = (HashSet::<i64>::new(), HashSet::<i64>::new());
        let mut refusal = None;
        for email in pending_emails(db, &items, &users).await? {
            let listed: Vec<i64> = email
                .items
                .iter()
                .map(|i| i.reminder.id)
                .filter(|id| !lost.contains(id))
                .collect();
            let held = Self::renew_held(db, &group.token, &listed).await?;
            lost.extend(listed.iter().copied().filter(|id| !held.contains(id)));
            let items: Vec<&Item> = email
                .items
                .into_iter()
                .filter(|i| held.contains(&i.reminder.id))
                .collect();
            if items.is_empty() {
                continue;
            }
            let (kind, address) = email.recipient.address();
            if let Err(err) = send(ctx, &email.recipient, &items, &to_vendor).await {
                log_refusal(&settings, &group, &items, address, &err);
                failed.extend(items.iter().map(|i| i.reminder.id));
                refusal.get_or_insert(err);
                continue;
            }
            let ids: Vec<i64> = items.iter().map(|i| i.reminder.id).collect();
            record_deliveries(db, &ids, kind, address).await?;
        }
        for item in &items {
            let id = item.reminder.id;
            let outcome = if lost.contains(&id) {
                Self::drop_claim_of_sent(db, id, &group.token).await?;
                Outcome::NotOurs
            } else if failed.contains(&id) {
                Self::release_claim(db, id, &group.token).await?;
                Outcome::Failed
            } else if Self::mark_sent(db, id, &group.token).await? {
                tracing::info!(
                    reminder = id,
                    document = item.reminder.document_id,
                    "reminder sent"
                );
                crate::infra::observability::reminder_sent();
                Outcome::Sent
            } else {
                Outcome::NotOurs
            };
            done.outcomes.insert(id, outcome);
        }
        refusal.map_or(Ok(done), Err)
    }

    /// The group's reminders that still go out, with their vendors and facts. The others are
    /// settled in `done`: gone or sent meanwhile (their claim deleted), dropped with a document
    /// no longer current, or superseded by a later reminder of the same document.
    async fn ready(
        ctx: &AppContext,
        settings: &Settings,
        group: &Group,
        due_by: NaiveDate,
        done: &mut Delivered,
    ) -> Result<Vec<Item>> {
        let db = &ctx.db;
        let ids: Vec<i64> = group.attempts.keys().copied().collect();
        let rows = Entity::find()
            .filter(reminders::Column::Id.is_in(ids.clone()))
            .filter(reminders::Column::SentAt.is_null())
            .find_also_related(documents::Entity)
            .all(db)
            .await?;
        let found: HashSet<i64> = rows.iter().map(|(r, _)| r.id).collect();
        for id in ids.into_iter().filter(|id| !found.contains(id)) {
            Self::drop_claim_of_sent(db, id, &group.token).await?;
            done.outcomes.insert(id, Outcome::NotOurs);
        }
        let vendors: BTreeMap<i64, vendors::Model> = vendors::Entity::find()
            .filter(
                vendors::Column::Id.is_in(
                    rows.iter()
                        .filter_map(|(_, d)| d.as_ref().map(|d| d.vendor_id)),
                ),
            )
            .all(db)
            .await?
            .into_iter()
            .map(|v| (v.id, v))
            .collect();
        let org = organizations::Entity::find_by_id(group.organization_id)
            .one(db)
            .await?
            .ok_or(Error::NotFound)?;
        let mut items = vec![];
        for (reminder, document) in rows {
            let id = reminder.id;
            let current = document
                .filter(|d| d.is_current && d.expiration_date.is_some())
                .and_then(|d| Some((vendors.get(&d.vendor_id)?.clone(), d)));
            let Some((vendor, document)) = current else {
                Self::drop_claimed(db, id, &group.token).await?;
                done.outcomes.insert(id, Outcome::Dropped);
                continue;
            };
            if Self::later_one_is_due(db, &reminder, due_by).await? {
                Self::drop_claimed(db, id, &group.token).await?;
                done.outcomes.insert(id, Outcome::Superseded);
                continue;
            }
            // The email speaks of the day it is sent; a sweep run ahead of time (`date:` in the
            // future) speaks of the reminder's own day instead.
            let as_of = today().max(reminder.reminder_date);
            let Some(facts) =
                ReminderFacts::new(&settings.app_url, &org, &vendor, &document, as_of)
            else {
                continue;
            };
            items.push(Item {
                reminder,
                vendor,
                facts,
            });
        }
        Ok(items)
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
}
