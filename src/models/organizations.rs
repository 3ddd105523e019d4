use loco_rs::prelude::*;
use sea_orm::entity::prelude::{DeriveActiveEnum, EnumIter, StringLen};
use uuid::Uuid;

mod zone;

pub use zone::{
    local_date, parse_time_zone, swept_day, time_zone_or_none_schema, time_zone_schema, zone_named,
    DEFAULT_TIME_ZONE, MORNING_HOUR,
};

pub use super::_entities::organizations::{self, ActiveModel, Entity, Model};

// `organizations.plan` (decision 49).
/// The plan an organization is on.
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
pub enum Plan {
    #[sea_orm(string_value = "free")]
    Free,
    #[sea_orm(string_value = "professional")]
    Professional,
}

impl Plan {
    /// The plan's name as screens and messages write it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Free => "Free",
            Self::Professional => "Professional",
        }
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {
    async fn before_save<C>(self, _db: &C, insert: bool) -> Result<Self, DbErr>
    where
        C: ConnectionTrait,
    {
        let mut this = self;
        if insert {
            this.pid = ActiveValue::Set(Uuid::new_v4());
        }
        if let ActiveValue::Set(plan) = &this.plan {
            if super::state::parse::<Plan>(plan).is_none() {
                return Err(DbErr::Custom(format!("unknown plan `{plan}`")));
            }
        }
        Ok(this)
    }
}

/// The date now in the time zone of organization `id` (UTC when there is no such organization).
///
/// # Errors
/// Database errors.
pub async fn today_of<C: ConnectionTrait>(db: &C, id: i64) -> Result<chrono::NaiveDate> {
    let zone: Option<String> = Entity::find_by_id(id)
        .select_only()
        .column(organizations::Column::TimeZone)
        .into_tuple()
        .one(db)
        .await?;
    Ok(local_date(
        zone_named(zone.as_deref().unwrap_or(DEFAULT_TIME_ZONE)),
        chrono::Utc::now(),
    ))
}

impl Model {
    /// # Errors
    /// `EntityNotFound` when there is no such organization.
    pub async fn find_by_id<C: ConnectionTrait>(db: &C, id: i64) -> ModelResult<Self> {
        Entity::find_by_id(id)
            .one(db)
            .await?
            .ok_or(ModelError::EntityNotFound)
    }

    /// The organization's owner: its first user, who registered it. `None` only for an
    /// organization without users.
    ///
    /// # Errors
    /// Database errors.
    pub async fn owner<C: ConnectionTrait>(
        db: &C,
        id: i64,
    ) -> ModelResult<Option<super::_entities::users::Model>> {
        use super::_entities::users;
        Ok(users::Entity::find()
            .filter(users::Column::OrganizationId.eq(id))
            .order_by_asc(users::Column::Id)
            .one(db)
            .await?)
    }
}

impl Model {
    #[must_use]
    pub fn plan(&self) -> Plan {
        super::state::stored("organizations.plan", &self.plan, Plan::Free)
    }

    /// Professional features are for Professional organizations.
    ///
    /// # Errors
    /// `PlanRequired`, naming the plan, for any other plan.
    pub fn require_professional(&self, feature: &str) -> Result<(), super::refusal::Refusal> {
        if self.plan() == Plan::Professional {
            Ok(())
        } else {
            Err(super::refusal::Refusal::PlanRequired(format!(
                "{feature} are part of the Professional plan. Upgrade to use them."
            )))
        }
    }
}

impl Model {
    /// Sets the organization's time zone (from [`parse_time_zone`]).
    ///
    /// # Errors
    /// Database errors.
    pub async fn set_time_zone(
        db: &DatabaseConnection,
        id: i64,
        zone: chrono_tz::Tz,
    ) -> ModelResult<Self> {
        set_column(db, id, organizations::Column::TimeZone, zone.name()).await
    }
}

impl ActiveModel {
    /// Moves the organization to another plan.
    ///
    /// # Errors
    /// Database errors.
    pub async fn set_plan(self, db: &DatabaseConnection, plan: Plan) -> ModelResult<Model> {
        set_column(db, *self.id.as_ref(), organizations::Column::Plan, plan).await
    }
}

/// Sets one column of organization `id` (and `updated_at`), then reads the row again, rather
/// than `update`'s `RETURNING`: on `SQLite` that once answered the row with `data_version`
/// NULL (a test of CI, 1 run in many), which the column's NOT NULL rules out in the table
/// itself.
async fn set_column(
    db: &DatabaseConnection,
    id: i64,
    column: organizations::Column,
    value: impl Into<sea_orm::Value>,
) -> ModelResult<Model> {
    Entity::update_many()
        .col_expr(column, sea_orm::sea_query::Expr::value(value))
        .col_expr(
            organizations::Column::UpdatedAt,
            sea_orm::sea_query::Expr::value(chrono::Utc::now().fixed_offset()),
        )
        .filter(organizations::Column::Id.eq(id))
        .exec(db)
        .await?;
    Model::find_by_id(db, id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_stored_and_serialized_as_before() {
        super::super::state::assert_pinned(&[
            (Plan::Free, "free"),
            (Plan::Professional, "professional"),
        ]);
    }
}
