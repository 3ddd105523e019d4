//! The activity log: one readable entry for every change, newest first.

use loco_rs::prelude::*;
use uuid::Uuid;

pub use super::_entities::activities::{self, ActiveModel, Entity, Model};

pub const VENDOR_CREATED: &str = "vendor_created";
pub const VENDOR_UPDATED: &str = "vendor_updated";
pub const VENDOR_DELETED: &str = "vendor_deleted";
pub const DOCUMENT_UPLOADED: &str = "document_uploaded";
pub const DOCUMENT_UPDATED: &str = "document_updated";
pub const DOCUMENT_DELETED: &str = "document_deleted";
pub const DOCUMENT_EXPIRED: &str = "document_expired";
/// The organization moved between Free and Professional (a payment, or a subscription that
/// ended).
pub const PLAN_CHANGED: &str = "plan_changed";

pub const TYPES: [&str; 8] = [
    VENDOR_CREATED,
    VENDOR_UPDATED,
    VENDOR_DELETED,
    DOCUMENT_UPLOADED,
    DOCUMENT_UPDATED,
    DOCUMENT_DELETED,
    DOCUMENT_EXPIRED,
    PLAN_CHANGED,
];

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> activities::Column {
        activities::Column::OrganizationId
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// What an entry is about.
#[derive(Debug, Default, Clone)]
pub struct Subject {
    pub vendor_key: Option<String>,
    pub document_pid: Option<Uuid>,
}

/// Filters of the activity list.
#[derive(Debug, Default, Clone)]
pub struct ActivityQuery {
    pub activity_type: Option<String>,
    pub q: Option<String>,
    pub page: super::search::Page,
}

impl Model {
    /// Records an entry, in the same transaction as the change it describes.
    ///
    /// # Errors
    /// Database errors.
    pub async fn record<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
        activity_type: &str,
        description: String,
        subject: Subject,
    ) -> Result<Self> {
        let entry = ActiveModel {
            pid: ActiveValue::Set(Uuid::now_v7()),
            activity_type: ActiveValue::Set(activity_type.to_string()),
            description: ActiveValue::Set(description),
            vendor_key: ActiveValue::Set(subject.vendor_key),
            document_pid: ActiveValue::Set(subject.document_pid.map(|p| p.to_string())),
            ..Default::default()
        }
        .set_tenant(org_id)?;
        Ok(entry.insert(db).await?)
    }

    /// The organization's entries, newest first, and how many match in all.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(
        db: &DatabaseConnection,
        org_id: i64,
        query: &ActivityQuery,
    ) -> Result<(Vec<Self>, u64)> {
        let mut select = Entity::find().in_tenant(org_id);
        if let Some(t) = &query.activity_type {
            select = select.filter(activities::Column::ActivityType.eq(t.as_str()));
        }
        if let Some(q) = super::search::text(query.q.as_deref()) {
            select = select.filter(super::search::contains_ci(
                activities::Column::Description,
                q,
            ));
        }
        let count = select.clone().count(db);
        let rows = query
            .page
            .apply(
                select
                    .order_by_desc(activities::Column::CreatedAt)
                    .order_by_desc(activities::Column::Id),
            )
            .all(db)
            .await?;
        let total = query.page.total(rows.len(), count).await?;
        Ok((rows, total))
    }
}
