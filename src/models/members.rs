//! The people of an organization and their roles (docs/product.md, "Teams").
//!
//! A person belongs to one organization, with one role in it. What each role may call is
//! decided once, in `controllers::current` (`CurrentUser` and the extractors beside it); this
//! module changes roles and membership under the rules of who may change whom.

use chrono::{Duration, Utc};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, StringLen},
    ActiveEnum, DeriveActiveEnum, EnumIter,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{
    organizations,
    refusal::Refusal,
    users::{self, users as user_entity},
};

/// A person's role in their organization. The order is the order of what they may do: each
/// role may do everything the roles before it may.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum OrgRole {
    /// Reads everything of the organization and changes nothing.
    #[sea_orm(string_value = "viewer")]
    Viewer,
    /// Also adds, edits and deletes vendors and documents.
    #[sea_orm(string_value = "member")]
    Member,
    /// Also manages the team (members and viewers), billing and the organization's settings.
    #[sea_orm(string_value = "admin")]
    Admin,
    /// Exactly one per organization: also makes and unmakes admins, hands ownership over.
    #[sea_orm(string_value = "owner")]
    Owner,
}

impl OrgRole {
    /// "a viewer", "an admin": for sentences.
    #[must_use]
    pub fn with_article(self) -> &'static str {
        match self {
            Self::Viewer => "a viewer",
            Self::Member => "a member",
            Self::Admin => "an admin",
            Self::Owner => "the owner",
        }
    }
}

impl users::Model {
    /// The person's role; a stored value this version does not know counts as the least
    /// (`viewer`), so that nothing unknown grants more.
    #[must_use]
    pub fn org_role(&self) -> OrgRole {
        super::state::stored("users.org_role", &self.org_role, OrgRole::Viewer)
    }
}

/// How long `last_active_at` may lag: a signed-in request writes it only when it is older.
pub const ACTIVITY_RESOLUTION_MINUTES: i64 = 5;

/// Notes that `user` is using the app now, unless that was noted in the last few minutes (so
/// a busy person costs one small write every few minutes, not one per request).
///
/// # Errors
/// Database errors.
pub async fn note_active<C: ConnectionTrait>(db: &C, user: &users::Model) -> Result<()> {
    let now = Utc::now();
    let stale = user.last_active_at.is_none_or(|at| {
        now - at.with_timezone(&Utc) >= Duration::minutes(ACTIVITY_RESOLUTION_MINUTES)
    });
    if stale {
        user_entity::Entity::update_many()
            .col_expr(
                user_entity::Column::LastActiveAt,
                Expr::value(DateTimeWithTimeZone::from(now)),
            )
            .filter(user_entity::Column::Id.eq(user.id))
            .exec(db)
            .await?;
    }
    Ok(())
}

/// The organization's people: the owner first, then admins, members and viewers, each by name.
///
/// # Errors
/// Database errors.
pub async fn list(db: &DatabaseConnection, org_id: i64) -> Result<Vec<users::Model>> {
    let mut people = user_entity::Entity::find()
        .filter(user_entity::Column::OrganizationId.eq(org_id))
        .order_by_asc(user_entity::Column::Name)
        .order_by_asc(user_entity::Column::Id)
        .all(db)
        .await?;
    people.sort_by_key(|p| std::cmp::Reverse(p.org_role()));
    Ok(people)
}

/// How many people the organization has.
///
/// # Errors
/// Database errors.
pub async fn count<C: ConnectionTrait>(db: &C, org_id: i64) -> Result<u64> {
    Ok(user_entity::Entity::find()
        .filter(user_entity::Column::OrganizationId.eq(org_id))
        .count(db)
        .await?)
}

/// The person `pid` of the organization, in `txn`.
async fn find_in<C: ConnectionTrait>(txn: &C, org_id: i64, pid: &str) -> Result<users::Model> {
    let pid = Uuid::parse_str(pid).map_err(|_| Refusal::NotFound)?;
    Ok(user_entity::Entity::find()
        .filter(user_entity::Column::OrganizationId.eq(org_id))
        .filter(user_entity::Column::Pid.eq(pid))
        .one(txn)
        .await?
        .ok_or(Refusal::NotFound)?)
}

fn refuse(message: &str) -> Error {
    Refusal::ForbiddenRole(message.to_string()).into()
}

/// Whether `actor` may change or remove `target` at all: only as an admin or the owner (the
/// extractor let the request in as one; `acting_in` read the role again), never themselves,
/// never the owner, and an admin only when the actor is the owner.
fn may_manage(actor: &users::Model, target: &users::Model) -> Result<()> {
    if actor.org_role() < OrgRole::Admin {
        return Err(refuse(
            "Only the owner and admins of your team can do this.",
        ));
    }
    if actor.id == target.id {
        return Err(refuse(
            "You cannot change your own role or remove yourself.",
        ));
    }
    match target.org_role() {
        OrgRole::Owner => Err(refuse(
            "The owner cannot be changed or removed; the owner can hand ownership over.",
        )),
        OrgRole::Admin if actor.org_role() != OrgRole::Owner => {
            Err(refuse("Only the owner can change or remove an admin."))
        }
        _ => Ok(()),
    }
}

/// Gives the person `pid` the role `role` (not `owner`: ownership is handed over with
/// [`transfer_ownership`]). `actor` is an admin or the owner (checked by the caller's
/// extractor); only the owner makes or unmakes admins.
///
/// # Errors
/// `NotFound` for someone not in the organization; `ForbiddenRole` as [`may_manage`] says, or
/// for an admin making an admin; database errors.
pub async fn change_role(
    db: &DatabaseConnection,
    actor: &users::Model,
    pid: &str,
    role: OrgRole,
) -> Result<users::Model> {
    let txn = super::begin_write(db).await?;
    let actor = acting_in(&txn, actor).await?;
    let target = find_in(&txn, actor.organization_id, pid).await?;
    may_manage(&actor, &target)?;
    if role == OrgRole::Owner {
        return Err(Refusal::field(
            "orgRole",
            "Ownership is handed over with the transfer of ownership, not a role change.",
        )
        .into());
    }
    if role == OrgRole::Admin && actor.org_role() != OrgRole::Owner {
        return Err(refuse("Only the owner can make someone an admin."));
    }
    let mut row: users::ActiveModel = target.into();
    row.org_role = ActiveValue::Set(role.to_value());
    let updated = row.update(&txn).await?;
    txn.commit().await?;
    Ok(updated)
}

/// Removes the person `pid` from the organization: their account goes, and with it every token
/// they hold, at once on every server (each signed-in request reads the person's row). What
/// they made stays: activity entries keep their name.
///
/// # Errors
/// `NotFound` for someone not in the organization; `ForbiddenRole` as [`may_manage`] says;
/// database errors.
pub async fn remove(db: &DatabaseConnection, actor: &users::Model, pid: &str) -> Result<()> {
    let txn = super::begin_write(db).await?;
    let actor = acting_in(&txn, actor).await?;
    let target = find_in(&txn, actor.organization_id, pid).await?;
    may_manage(&actor, &target)?;
    user_entity::Entity::delete_by_id(target.id)
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(())
}

/// The person acting, read again in `txn` under the organization's row lock (on `PostgreSQL`
/// `SELECT ... FOR UPDATE`; `SQLite`'s write transactions take turns anyway): changes of people
/// take turns, and each is judged by the role its author has now, not the one their request
/// was let in with (an admin demoted a moment before cannot still remove someone).
///
/// # Errors
/// `NotFound` when the organization or the person is gone; database errors.
async fn acting_in<C: ConnectionTrait>(txn: &C, actor: &users::Model) -> Result<users::Model> {
    organizations::Entity::find_by_id(actor.organization_id)
        .lock_exclusive()
        .one(txn)
        .await?
        .ok_or(Refusal::NotFound)?;
    user_entity::Entity::find_by_id(actor.id)
        .one(txn)
        .await?
        .ok_or_else(|| Refusal::NotFound.into())
}

/// Makes the person `pid` the owner and the owner `actor` an admin, in one transaction.
///
/// # Errors
/// `NotFound` for someone not in the organization or the owner themselves; `ForbiddenRole`
/// when `actor` is not the owner; database errors.
pub async fn transfer_ownership(
    db: &DatabaseConnection,
    actor: &users::Model,
    pid: &str,
) -> Result<users::Model> {
    let txn = super::begin_write(db).await?;
    // A second transfer at the same time sees the first one's result.
    let owner = acting_in(&txn, actor).await?;
    if owner.org_role() != OrgRole::Owner {
        return Err(refuse("Only the owner can hand ownership over."));
    }
    let target = find_in(&txn, actor.organization_id, pid).await?;
    if target.id == owner.id {
        return Err(Refusal::NotFound.into());
    }
    let mut former: users::ActiveModel = owner.into();
    former.org_role = ActiveValue::Set(OrgRole::Admin.to_value());
    former.update(&txn).await?;
    let mut new_owner: users::ActiveModel = target.into();
    new_owner.org_role = ActiveValue::Set(OrgRole::Owner.to_value());
    let new_owner = new_owner.update(&txn).await?;
    txn.commit().await?;
    Ok(new_owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_keep_their_stored_names_and_their_order() {
        super::super::state::assert_pinned(&[
            (OrgRole::Viewer, "viewer"),
            (OrgRole::Member, "member"),
            (OrgRole::Admin, "admin"),
            (OrgRole::Owner, "owner"),
        ]);
        assert!(OrgRole::Viewer < OrgRole::Member);
        assert!(OrgRole::Member < OrgRole::Admin);
        assert!(OrgRole::Admin < OrgRole::Owner);
    }
}
