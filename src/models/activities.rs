//! The activity log: one readable entry for every change, newest first.

use loco_rs::prelude::*;
use sea_orm::entity::prelude::{ActiveEnum, DeriveActiveEnum, EnumIter, StringLen};
use uuid::Uuid;

pub use super::_entities::activities::{self, ActiveModel, Entity, Model};

// `activities.activity_type` (decision 49).
/// What an activity log entry records.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum ActivityType {
    #[sea_orm(string_value = "vendor_created")]
    VendorCreated,
    #[sea_orm(string_value = "vendor_updated")]
    VendorUpdated,
    #[sea_orm(string_value = "vendor_deleted")]
    VendorDeleted,
    #[sea_orm(string_value = "document_uploaded")]
    DocumentUploaded,
    #[sea_orm(string_value = "document_updated")]
    DocumentUpdated,
    #[sea_orm(string_value = "document_deleted")]
    DocumentDeleted,
    #[sea_orm(string_value = "document_expired")]
    DocumentExpired,
    /// The organization moved between Free and Professional (a payment, a subscription that
    /// ended, or the operator).
    #[sea_orm(string_value = "plan_changed")]
    PlanChanged,
    /// A gap of a vendor was waived, or its waiver withdrawn.
    #[sea_orm(string_value = "gap_waived")]
    GapWaived,
}

// `activities.source` (decision 49).
/// Where a change came from.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum ActivitySource {
    /// A person signed in to the app.
    #[sea_orm(string_value = "user")]
    User,
    /// A vendor, through the public upload portal.
    #[sea_orm(string_value = "vendor_portal")]
    VendorPortal,
    /// A program using an API key.
    #[sea_orm(string_value = "api")]
    Api,
    /// The product itself: expiries, billing events, the operator's tools.
    #[sea_orm(string_value = "system")]
    System,
}

/// Who made a change: a person (by pid, with their name as it was) or nobody in particular,
/// and where it came from. Every write that records activity takes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub person: Option<(Uuid, String)>,
    pub source: ActivitySource,
}

impl Actor {
    /// A person signed in to the app.
    #[must_use]
    pub fn user(user: &super::users::Model) -> Self {
        Self {
            person: Some((user.pid, user.name.clone())),
            source: ActivitySource::User,
        }
    }

    /// A vendor uploading through the portal: no person of the organization.
    #[must_use]
    pub const fn vendor_portal() -> Self {
        Self {
            person: None,
            source: ActivitySource::VendorPortal,
        }
    }

    /// The product itself.
    #[must_use]
    pub const fn system() -> Self {
        Self {
            person: None,
            source: ActivitySource::System,
        }
    }
}

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> activities::Column {
        activities::Column::OrganizationId
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// The webhook event an entry of `activity_type` makes. Expiries are told by the webhooks'
/// own look (`webhooks::changes`), which also sees the documents about to expire.
const fn webhook_event(activity_type: ActivityType) -> Option<super::webhooks::EventType> {
    use super::webhooks::EventType;
    match activity_type {
        ActivityType::VendorCreated => Some(EventType::VendorCreated),
        ActivityType::VendorUpdated => Some(EventType::VendorUpdated),
        ActivityType::VendorDeleted => Some(EventType::VendorDeleted),
        ActivityType::DocumentUploaded => Some(EventType::DocumentUploaded),
        ActivityType::DocumentUpdated
        | ActivityType::DocumentDeleted
        | ActivityType::DocumentExpired
        | ActivityType::PlanChanged
        | ActivityType::GapWaived => None,
    }
}

/// What an entry is about.
#[derive(Debug, Default, Clone)]
pub struct Subject {
    pub vendor_key: Option<String>,
    pub document_pid: Option<Uuid>,
}

/// Filters of the activity list.
#[derive(Debug, Default, Clone)]
pub struct ActivityQuery {
    pub activity_type: Option<ActivityType>,
    /// Only the changes made by this person (their pid).
    pub actor: Option<Uuid>,
    pub q: Option<String>,
    pub page: super::search::Page,
}

/// Inserts `entry` and asks, in the same statement, whether organization `org_id` has any
/// webhook endpoint: most have none, and then the event costs nothing more. The write this
/// entry belongs to holds its lock (`SQLite`'s database, `PostgreSQL`'s rows) through every
/// round trip, so the question rides on the insert's `RETURNING` rather than adding one
/// (docs/benchmarks/api.md, "Seventh pass"). An endpoint added by a write that commits while
/// this one runs may miss the event, as it may when asked in a statement of its own.
async fn insert_asking_for_endpoints<C: ConnectionTrait>(
    db: &C,
    entry: ActiveModel,
    org_id: i64,
) -> Result<(Model, bool)> {
    use sea_orm::{
        sea_query::{Expr, Query},
        FromQueryResult, Iterable, QueryTrait,
    };
    let any_endpoint = Query::select()
        .expr(Expr::val(1))
        .from(super::_entities::webhook_endpoints::Entity)
        .and_where(super::_entities::webhook_endpoints::Column::OrganizationId.eq(org_id))
        .to_owned();
    let columns: Vec<Expr> = activities::Column::iter().map(Expr::col).collect();
    let asked = columns.len();
    let mut insert = Entity::insert(entry).into_query();
    insert.returning(
        Query::returning().exprs(columns.into_iter().chain([Expr::exists(any_endpoint)])),
    );
    let row = db
        .query_one(&insert)
        .await?
        .ok_or_else(|| DbErr::RecordNotInserted)?;
    Ok((
        Model::from_query_result(&row, "")?,
        row.try_get_by_index::<bool>(asked)?,
    ))
}

impl Model {
    /// Records an entry, in the same transaction as the change it describes, and the webhook
    /// event it makes (vendor created, updated or deleted, document uploaded) for every
    /// endpoint of the organization that wants it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn record<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
        actor: &Actor,
        activity_type: ActivityType,
        description: String,
        subject: Subject,
    ) -> Result<Self> {
        let (actor_pid, actor_name) = actor.person.clone().unzip();
        let entry = ActiveModel {
            actor_pid: ActiveValue::Set(actor_pid),
            actor_name: ActiveValue::Set(actor_name),
            source: ActiveValue::Set(actor.source.to_value()),
            pid: ActiveValue::Set(Uuid::now_v7()),
            activity_type: ActiveValue::Set(activity_type.to_value()),
            description: ActiveValue::Set(description),
            vendor_key: ActiveValue::Set(subject.vendor_key),
            document_pid: ActiveValue::Set(subject.document_pid.map(|p| p.to_string())),
            ..Default::default()
        }
        .set_tenant(org_id)?;
        let Some(event) = webhook_event(activity_type) else {
            return Ok(entry.insert(db).await?);
        };
        let (entry, any_endpoint) = insert_asking_for_endpoints(db, entry, org_id).await?;
        if any_endpoint {
            let data = serde_json::json!({
                "vendorId": entry.vendor_key,
                "documentId": entry.document_pid,
                "description": entry.description,
                "source": actor.source,
                "actorName": entry.actor_name,
            });
            super::webhooks::events::emit(db, org_id, event, &data, entry.created_at.to_utc())
                .await?;
        }
        Ok(entry)
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
        if let Some(t) = query.activity_type {
            select = select.filter(activities::Column::ActivityType.eq(t));
        }
        if let Some(pid) = query.actor {
            select = select.filter(activities::Column::ActorPid.eq(pid));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activity_types_are_stored_and_serialized_as_before() {
        super::super::state::assert_pinned(&[
            (ActivityType::VendorCreated, "vendor_created"),
            (ActivityType::VendorUpdated, "vendor_updated"),
            (ActivityType::VendorDeleted, "vendor_deleted"),
            (ActivityType::DocumentUploaded, "document_uploaded"),
            (ActivityType::DocumentUpdated, "document_updated"),
            (ActivityType::DocumentDeleted, "document_deleted"),
            (ActivityType::DocumentExpired, "document_expired"),
            (ActivityType::PlanChanged, "plan_changed"),
            (ActivityType::GapWaived, "gap_waived"),
        ]);
    }

    #[test]
    fn sources_are_stored_and_serialized_as_the_contract_names_them() {
        super::super::state::assert_pinned(&[
            (ActivitySource::User, "user"),
            (ActivitySource::VendorPortal, "vendor_portal"),
            (ActivitySource::Api, "api"),
            (ActivitySource::System, "system"),
        ]);
    }
}
