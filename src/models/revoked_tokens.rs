//! Tokens signed out before they expire: their `jti`, kept until the token would have expired
//! anyway, then pruned.

use chrono::{DateTime, FixedOffset, Utc};
use loco_rs::prelude::*;
use sea_orm::{sea_query::OnConflict, QuerySelect, QueryTrait};
use uuid::Uuid;

pub use super::_entities::revoked_tokens::{self, ActiveModel, Column, Entity, Model};

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// The rows naming `jti`: `CurrentUser` refuses a token when one exists (a subquery of its
    /// one look-up of the user, on the unique index of `jti`).
    #[must_use]
    pub fn revoked(jti: Uuid) -> sea_orm::sea_query::SelectStatement {
        Entity::find()
            .select_only()
            .column(Column::Id)
            .filter(Column::Jti.eq(jti))
            .into_query()
    }

    /// Signs out the token `jti`, which expires at `expires_at` at the latest; and prunes the
    /// rows of tokens expired since (a revoked token past its expiry is refused anyway).
    ///
    /// # Errors
    /// Database errors.
    pub async fn revoke(
        db: &DatabaseConnection,
        jti: Uuid,
        expires_at: DateTime<FixedOffset>,
    ) -> ModelResult<()> {
        let now: DateTime<FixedOffset> = Utc::now().into();
        Entity::insert(ActiveModel {
            jti: ActiveValue::Set(jti),
            expires_at: ActiveValue::Set(expires_at),
            created_at: ActiveValue::Set(now),
            updated_at: ActiveValue::Set(now),
            ..Default::default()
        })
        // Signing out twice at once: the second finds the first's row, and that is the same.
        .on_conflict(OnConflict::column(Column::Jti).do_nothing().to_owned())
        .exec_without_returning(db)
        .await?;
        Self::prune(db).await?;
        Ok(())
    }

    /// Deletes the rows of tokens that have expired; how many.
    ///
    /// # Errors
    /// Database errors.
    pub async fn prune(db: &DatabaseConnection) -> ModelResult<u64> {
        let now: DateTime<FixedOffset> = Utc::now().into();
        Ok(Entity::delete_many()
            .filter(Column::ExpiresAt.lt(now))
            .exec(db)
            .await?
            .rows_affected)
    }
}
