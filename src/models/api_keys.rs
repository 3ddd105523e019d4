//! API keys (docs/product.md, "Integrations"): an organization's own systems call the API with
//! a key its admins made. A key is `vwk_` and 40 random characters, shown once; only its
//! SHA-256 digest is kept, with its first eight characters to tell keys apart. A key acts
//! through the person who made it, never above its scope: a `read` key is a viewer, a `write`
//! key at most a member. Removing the key (or its maker) ends it at once.

use chrono::Duration;
use loco_rs::prelude::*;
use rand::{distr::Alphanumeric, Rng};
use sea_orm::entity::prelude::{ActiveEnum, DeriveActiveEnum, EnumIter, StringLen};
use uuid::Uuid;

pub use super::_entities::api_keys::{ActiveModel, Column, Entity, Model};
use super::{
    _entities::{organizations, users},
    members::OrgRole,
    refusal::Refusal,
    secret_tokens,
};

impl ActiveModelBehavior for ActiveModel {}

/// What every key starts with: a leaked key is easy to recognise (and to search for).
pub const KEY_PREFIX: &str = "vwk_";
/// Random characters after the prefix.
const KEY_RANDOM_CHARS: usize = 40;
/// Characters of the key kept in the clear, to tell keys apart in the list.
const SHOWN_CHARS: usize = 8;
/// How stale `last_used_at` may be: a busy key writes it once a minute, not once a call.
const LAST_USED_RESOLUTION: Duration = Duration::minutes(1);
/// A key's name: 1 to 100 characters once trimmed.
const NAME_MAX: usize = 100;

// `api_keys.scope` (decision 49).
/// What a key may do.
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
#[schema(as = ApiKeyScope)]
pub enum Scope {
    /// Reads everything a viewer reads.
    #[sea_orm(string_value = "read")]
    Read,
    /// Also writes what a member writes.
    #[sea_orm(string_value = "write")]
    Write,
}

impl Scope {
    /// The role a key of this scope acts with when `maker` made it: the maker's, but never
    /// above the scope's ceiling (a viewer for `read`, a member for `write`).
    #[must_use]
    pub fn cap(self, maker: OrgRole) -> OrgRole {
        let ceiling = match self {
            Self::Read => OrgRole::Viewer,
            Self::Write => OrgRole::Member,
        };
        maker.min(ceiling)
    }
}

impl Model {
    /// The key's scope (a row changed by hand to an unknown scope reads as `read`).
    #[must_use]
    pub fn scope(&self) -> Scope {
        super::state::stored("api_keys.scope", &self.scope, Scope::Read)
    }

    /// Makes a key named `name` for `maker`'s organization; returns it with the key itself,
    /// which is never seen again.
    ///
    /// # Errors
    /// 422 for a name empty or too long; database errors.
    pub async fn create(
        db: &DatabaseConnection,
        maker: &users::Model,
        name: &str,
        scope: Scope,
    ) -> Result<(Self, String)> {
        let name = name.trim();
        if name.is_empty() {
            return Err(Refusal::field("name", "Give the key a name.").into());
        }
        if name.chars().count() > NAME_MAX {
            return Err(Refusal::field("name", "A key's name is at most 100 characters.").into());
        }
        let org_id = maker.organization_id;
        let random: String = rand::rng()
            .sample_iter(&Alphanumeric)
            .take(KEY_RANDOM_CHARS)
            .map(char::from)
            .collect();
        let key = format!("{KEY_PREFIX}{random}");
        let row = ActiveModel {
            pid: ActiveValue::Set(Uuid::now_v7()),
            name: ActiveValue::Set(name.to_string()),
            scope: ActiveValue::Set(scope.to_value()),
            prefix: ActiveValue::Set(key.chars().take(SHOWN_CHARS).collect()),
            digest: ActiveValue::Set(secret_tokens::digest(&key)),
            organization_id: ActiveValue::Set(org_id),
            user_id: ActiveValue::Set(maker.id),
            ..Default::default()
        }
        .insert(db)
        .await?;
        Ok((row, key))
    }

    /// The organization's keys, newest first, each with the name of its maker.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(db: &DatabaseConnection, org_id: i64) -> Result<Vec<(Self, Option<String>)>> {
        let rows = Entity::find()
            .filter(Column::OrganizationId.eq(org_id))
            .find_also_related(users::Entity)
            .order_by_desc(Column::Id)
            .all(db)
            .await?;
        Ok(rows
            .into_iter()
            .map(|(key, maker)| (key, maker.map(|m| m.name)))
            .collect())
    }

    /// Ends key `pid` of the organization at once.
    ///
    /// # Errors
    /// `EntityNotFound` (404) for no such key in the organization; database errors.
    pub async fn revoke(db: &DatabaseConnection, org_id: i64, pid: &str) -> Result<()> {
        let pid = Uuid::parse_str(pid).map_err(|_| Error::NotFound)?;
        let gone = Entity::delete_many()
            .filter(Column::OrganizationId.eq(org_id))
            .filter(Column::Pid.eq(pid))
            .exec(db)
            .await?;
        if gone.rows_affected == 0 {
            return Err(Error::NotFound);
        }
        Ok(())
    }

    /// The key sent as `key`, with its maker and their organization; `None` for a key that is
    /// unknown or revoked, or whose maker is no longer in an organization. Notes the use.
    ///
    /// # Errors
    /// Database errors.
    pub async fn find_by_key(
        db: &DatabaseConnection,
        key: &str,
        now: DateTimeWithTimeZone,
    ) -> Result<Option<(Self, users::Model, organizations::Model)>> {
        if !key.starts_with(KEY_PREFIX) {
            return Ok(None);
        }
        let Some((found, Some(maker))) = Entity::find()
            .filter(Column::Digest.eq(secret_tokens::digest(key)))
            .find_also_related(users::Entity)
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        if maker.organization_id != found.organization_id {
            return Ok(None);
        }
        let Some(org) = organizations::Entity::find_by_id(found.organization_id)
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        let stale = found
            .last_used_at
            .is_none_or(|at| at + LAST_USED_RESOLUTION <= now);
        let found = if stale {
            Entity::update_many()
                .col_expr(Column::LastUsedAt, Expr::value(now))
                .filter(Column::Id.eq(found.id))
                .exec(db)
                .await?;
            Self {
                last_used_at: Some(now),
                ..found
            }
        } else {
            found
        };
        Ok(Some((found, maker, org)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_stored_as_the_contract_names_them() {
        super::super::state::assert_pinned(&[(Scope::Read, "read"), (Scope::Write, "write")]);
    }

    #[test]
    fn a_key_never_acts_above_its_scope_nor_above_its_maker() {
        assert_eq!(Scope::Read.cap(OrgRole::Owner), OrgRole::Viewer);
        assert_eq!(Scope::Write.cap(OrgRole::Owner), OrgRole::Member);
        assert_eq!(Scope::Write.cap(OrgRole::Admin), OrgRole::Member);
        assert_eq!(Scope::Write.cap(OrgRole::Viewer), OrgRole::Viewer);
    }
}
