//! Reminder rows: when a document's expiration date is set or changed, its pending reminders
//! are replaced (30 and 7 days before, and on the day; offsets are configuration). Sending them
//! is the daily sweep's work: `claims` hands due reminders out, `gather` brings an
//! organization's together under one worker, `delivery` sends them.

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::sea_query::{Expr, ExprTrait, QueryStatementBuilder};
use uuid::Uuid;

mod claimed;
mod claims;
mod delivery;
mod gather;

pub use super::reminder_deliveries::DeliveryKind;
pub use claims::{now, Claim, ClaimPolicy, ClaimedReminder, Cursor};
pub use delivery::{Delivered, Outcome};
pub use gather::{Group, WORKER_TOKEN_PREFIX};

pub use super::_entities::reminders::{self, ActiveModel, Entity, Model};
use super::{
    _entities::{documents, vendors},
    compliance, pending_expiries,
};

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> reminders::Column {
        reminders::Column::OrganizationId
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// Replaces the document's pending reminders with ones for its expiration date (none
    /// without a date), and waits for that date's expiry to record it. Reminders already sent
    /// stay as they are.
    ///
    /// # Errors
    /// Database errors.
    pub async fn replace_for_document<C: ConnectionTrait>(
        db: &C,
        document: &documents::Model,
        offsets: &[u32],
        today: NaiveDate,
    ) -> Result<()> {
        Self::clear_pending(db, document.id).await?;
        pending_expiries::Model::wait_for(db, document).await?;
        let Some(expiration) = document.expiration_date else {
            return Ok(());
        };
        let rows: Vec<ActiveModel> = compliance::reminder_dates(expiration, offsets, today)
            .into_iter()
            .map(|date| ActiveModel {
                pid: ActiveValue::Set(Uuid::new_v4()),
                reminder_date: ActiveValue::Set(date),
                offset_days: ActiveValue::Set(
                    i32::try_from((expiration - date).num_days()).unwrap_or(0),
                ),
                organization_id: ActiveValue::Set(document.organization_id),
                document_id: ActiveValue::Set(document.id),
                ..Default::default()
            })
            .collect();
        if !rows.is_empty() {
            Entity::insert_many(rows).exec(db).await?;
        }
        Ok(())
    }

    /// Drops the document's unsent reminders and its pending expiry (it was renewed, changed or
    /// deleted).
    ///
    /// # Errors
    /// Database errors.
    pub async fn clear_pending<C: ConnectionTrait>(db: &C, document_id: i64) -> Result<()> {
        pending_expiries::Model::clear(db, document_id).await?;
        Self::drop_claims_of_document(db, document_id).await?;
        Entity::delete_many()
            .filter(reminders::Column::DocumentId.eq(document_id))
            .filter(reminders::Column::SentAt.is_null())
            .exec(db)
            .await?;
        Ok(())
    }

    /// The organization's reminders with their documents and vendors, in `sort`'s order (ties
    /// by id; no expiration date last either way), the page only, and how many there are.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(
        db: &DatabaseConnection,
        org_id: i64,
        sort: super::search::Sort<ReminderSort>,
        page: super::search::Page,
        today: NaiveDate,
    ) -> Result<(Vec<(Self, documents::Model, vendors::Model)>, u64)> {
        let select = Entity::find().in_tenant(org_id);
        let count = select.clone().count(db);
        let order = sort.order();
        let key = sort.key.expr(today);
        let select = if sort.key.nullable() {
            select.order_by_with_nulls(key, order.clone(), sea_orm::sea_query::NullOrdering::Last)
        } else {
            select.order_by(key, order.clone())
        };
        let rows = page
            .apply(select.order_by(Expr::col((Entity, reminders::Column::Id)), order))
            .find_also_related(documents::Entity)
            .all(db)
            .await?;
        let total = page.total(rows.len(), count).await?;
        let vendor_ids: Vec<i64> = rows
            .iter()
            .filter_map(|(_, d)| d.as_ref().map(|d| d.vendor_id))
            .collect();
        let vendors: std::collections::HashMap<i64, vendors::Model> = vendors::Entity::find()
            .filter(vendors::Column::Id.is_in(vendor_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|v| (v.id, v))
            .collect();
        Ok((
            rows.into_iter()
                .filter_map(|(r, d)| {
                    let d = d?;
                    let v = vendors.get(&d.vendor_id)?.clone();
                    Some((r, d, v))
                })
                .collect(),
            total,
        ))
    }
}

/// What the reminder list can be ordered by.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum ReminderSort {
    /// The vendor's name, whatever its case.
    Vendor,
    DocumentType,
    /// The document's expiration date; none last either way.
    ExpirationDate,
    /// When the reminder goes out (the default, soonest first).
    #[default]
    ReminderDate,
    /// The document's status by severity: current, expiring soon, expired.
    Status,
    /// Not sent yet, then sent.
    Sent,
}

impl ReminderSort {
    /// The `sort` names of the API, each with its key.
    pub const KEYS: [(&'static str, Self); 6] = [
        ("vendor", Self::Vendor),
        ("documentType", Self::DocumentType),
        ("expirationDate", Self::ExpirationDate),
        ("reminderDate", Self::ReminderDate),
        ("status", Self::Status),
        ("sent", Self::Sent),
    ];

    /// Whether the key can be NULL (a document without an expiration date): only then does the
    /// order say where NULLs go, so that the others keep matching an index in either direction
    /// (`DocumentSort::nullable`).
    const fn nullable(self) -> bool {
        matches!(self, Self::ExpirationDate)
    }

    /// The key in SQL, over a `reminders` row joined with its document.
    fn expr(self, today: chrono::NaiveDate) -> Expr {
        use sea_orm::sea_query::{Func, Query};
        let doc = |c: documents::Column| Expr::col((documents::Entity, c));
        match self {
            Self::Vendor => Expr::SubQuery(
                None,
                Box::new(
                    Query::select()
                        .expr(Func::lower(Expr::col((
                            vendors::Entity,
                            vendors::Column::Name,
                        ))))
                        .from(vendors::Entity)
                        .and_where(
                            Expr::col((vendors::Entity, vendors::Column::Id))
                                .equals((documents::Entity, documents::Column::VendorId)),
                        )
                        .to_owned()
                        .into_sub_query_statement(),
                ),
            ),
            Self::DocumentType => doc(documents::Column::DocumentType),
            Self::ExpirationDate => doc(documents::Column::ExpirationDate),
            Self::ReminderDate => Expr::col((Entity, reminders::Column::ReminderDate)),
            Self::Status => super::compliance::sql::document_rank(
                &doc(documents::Column::ExpirationDate),
                today,
            ),
            Self::Sent => Expr::col((Entity, reminders::Column::SentAt)).is_not_null(),
        }
    }
}
