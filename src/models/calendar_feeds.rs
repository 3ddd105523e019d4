//! The organization's calendar feed (docs/product.md, "Integrations"): a secret iCalendar
//! (RFC 5545) link with each current document's expiration date as an all-day event, to
//! subscribe to from Google Calendar or Outlook.
//!
//! The link's token is the feed's pid and a signature of the pid and the feed's generation
//! (HMAC-SHA256 under a key made from the JWT secret for this use only): nothing secret is
//! kept, and rotating (raising the generation) ends the old link at once.

use chrono::{Days, NaiveDate};
use hmac::{Hmac, Mac};
use icalendar::{Calendar, Component, EventLike};
use loco_rs::prelude::*;
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sha2::Sha256;
use uuid::Uuid;

pub use super::_entities::calendar_feeds::{ActiveModel, Column, Entity, Model};
use super::{
    _entities::{documents, vendors},
    compliance, secret_tokens,
};

impl ActiveModelBehavior for ActiveModel {}

/// Names the key's one use.
const PURPOSE: &[u8] = b"vendorwatch/calendar_feed/v1:";
const SIGNATURE_BYTES: usize = 16;

fn mac(secret: &str, pid: &Uuid, generation: i32) -> Hmac<Sha256> {
    let mut mac = secret_tokens::purpose_mac(PURPOSE, secret);
    mac.update(format!("{}:{generation}", pid.simple()).as_bytes());
    mac
}

impl Model {
    /// The token of this feed's current link: `<pid, 32 hex digits><signature, 32 hex digits>`.
    #[must_use]
    pub fn token(&self, secret: &str) -> String {
        let signature = mac(secret, &self.pid, self.generation)
            .finalize()
            .into_bytes();
        format!(
            "{}{}",
            self.pid.simple(),
            hex::encode(&signature[..SIGNATURE_BYTES])
        )
    }

    /// The organization's feed, made on first use.
    ///
    /// # Errors
    /// Database errors.
    pub async fn of_organization(db: &DatabaseConnection, org_id: i64) -> Result<Self> {
        Entity::insert(ActiveModel {
            pid: ActiveValue::Set(Uuid::now_v7()),
            generation: ActiveValue::Set(1),
            organization_id: ActiveValue::Set(org_id),
            ..Default::default()
        })
        .on_conflict(
            OnConflict::column(Column::OrganizationId)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
        Entity::find()
            .filter(Column::OrganizationId.eq(org_id))
            .one(db)
            .await?
            .ok_or_else(|| Error::string("calendar feed vanished"))
    }

    /// Gives the organization's feed a new link: the old one stops working at once.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rotate(db: &DatabaseConnection, org_id: i64) -> Result<Self> {
        let feed = Self::of_organization(db, org_id).await?;
        Entity::update_many()
            .col_expr(Column::Generation, Expr::col(Column::Generation).add(1))
            .col_expr(Column::UpdatedAt, Expr::current_timestamp())
            .filter(Column::Id.eq(feed.id))
            .exec(db)
            .await?;
        Entity::find_by_id(feed.id)
            .one(db)
            .await?
            .ok_or_else(|| Error::string("calendar feed vanished"))
    }

    /// The feed whose current link `token` is; `None` for anything else, an old link included
    /// (the signature is compared in constant time).
    ///
    /// # Errors
    /// Database errors.
    pub async fn find_by_token(
        db: &DatabaseConnection,
        secret: &str,
        token: &str,
    ) -> Result<Option<Self>> {
        if token.len() != 32 + SIGNATURE_BYTES * 2 || !token.is_ascii() {
            return Ok(None);
        }
        let (pid, signature) = token.split_at(32);
        let Ok(parsed) = Uuid::try_parse(pid) else {
            return Ok(None);
        };
        if parsed.simple().to_string() != pid {
            return Ok(None);
        }
        let Ok(signature) = hex::decode(signature) else {
            return Ok(None);
        };
        let Some(feed) = Entity::find()
            .filter(Column::Pid.eq(parsed))
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        Ok(mac(secret, &feed.pid, feed.generation)
            .verify_truncated_left(&signature)
            .is_ok()
            .then_some(feed))
    }
}

/// One current document with an expiration date, and its vendor's name.
#[derive(Debug, Clone, PartialEq, Eq, sea_orm::FromQueryResult)]
pub struct Expiration {
    pub pid: Uuid,
    pub document_type: String,
    pub coi_type: Option<String>,
    pub file_name: String,
    pub expiration_date: NaiveDate,
    pub vendor_name: String,
    pub vendor_key: String,
}

/// The organization's current documents that expire, soonest first.
///
/// # Errors
/// Database errors.
pub async fn expirations(db: &DatabaseConnection, org_id: i64) -> Result<Vec<Expiration>> {
    Ok(documents::Entity::find()
        .select_only()
        .column(documents::Column::Pid)
        .column(documents::Column::DocumentType)
        .column(documents::Column::CoiType)
        .column(documents::Column::FileName)
        .column(documents::Column::ExpirationDate)
        .column_as(vendors::Column::Name, "vendor_name")
        .column_as(vendors::Column::Key, "vendor_key")
        .inner_join(vendors::Entity)
        .filter(documents::Column::OrganizationId.eq(org_id))
        .filter(documents::Column::IsCurrent.eq(true))
        .filter(documents::Column::ExpirationDate.is_not_null())
        .order_by_asc(documents::Column::ExpirationDate)
        .order_by_asc(documents::Column::Id)
        .into_model::<Expiration>()
        .all(db)
        .await?)
}

/// The feed's iCalendar file: one all-day event per expiration, on its date (`DTEND` the day
/// after, as RFC 5545 wants of a one-day event), named after the document and its vendor; the
/// event's `UID` is the document's, so a calendar updates an event rather than adding another.
#[must_use]
pub fn ics(org_name: &str, app_url: &str, stamp: DateTime, rows: &[Expiration]) -> String {
    let app_url = app_url.trim_end_matches('/');
    let mut calendar = Calendar::new();
    calendar
        .name(&format!("Vendorwatch: {org_name}"))
        .description("Expiration dates of your vendors' current documents");
    for row in rows {
        let label = compliance::stored_label(&row.document_type, row.coi_type.as_deref());
        let end = row
            .expiration_date
            .checked_add_days(Days::new(1))
            .unwrap_or(row.expiration_date);
        calendar.push(
            icalendar::Event::new()
                .uid(&format!("{}@vendorwatch", row.pid))
                .timestamp(stamp.and_utc())
                .summary(&format!("{label} expires: {}", row.vendor_name))
                .description(&format!(
                    "{label} \"{}\" of {} expires on this day.",
                    row.file_name, row.vendor_name
                ))
                .url(&format!("{app_url}/view-document/{}", row.pid))
                .starts(row.expiration_date)
                .ends(end)
                .done(),
        );
    }
    calendar.done().to_string()
}
