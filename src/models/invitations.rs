//! Invitations to join an organization (docs/product.md, "Teams").
//!
//! An invitation is a link with a random token (32 bytes) that only its email receives; only
//! the token's SHA-256 digest is stored. It is pending until it is accepted, revoked, replaced
//! by a new invitation to the same email, or expired (`settings.invitation_ttl_days`). Unknown,
//! used, revoked and expired tokens are all answered the same way.

use chrono::{Duration, Utc};
use loco_rs::prelude::*;
use sea_orm::{sea_query::Expr, ActiveEnum, Condition, QueryOrder};
use uuid::Uuid;

pub use super::_entities::invitations::{self, ActiveModel, Entity, Model};
use super::{
    email,
    members::{self, OrgRole},
    organizations,
    refusal::Refusal,
    secret_tokens,
    users::{self, users as user_entity},
};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> invitations::Column {
        invitations::Column::OrganizationId
    }
}

/// Rows that still hold a seat and whose link works: neither accepted nor revoked, not expired.
fn pending_at(now: chrono::DateTime<Utc>) -> Condition {
    Condition::all()
        .add(invitations::Column::AcceptedAt.is_null())
        .add(invitations::Column::RevokedAt.is_null())
        .add(invitations::Column::ExpiresAt.gt(now))
}

/// Revokes the organization's pending invitations that `which` picks, as of `now`; returns how
/// many (their links stop working).
async fn revoke_pending<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    which: sea_orm::sea_query::SimpleExpr,
    now: chrono::DateTime<Utc>,
) -> Result<u64> {
    let done = Entity::update_many()
        .col_expr(
            invitations::Column::RevokedAt,
            Expr::value(DateTimeWithTimeZone::from(now)),
        )
        .filter(invitations::Column::OrganizationId.eq(org_id))
        .filter(which)
        .filter(pending_at(now))
        .exec(db)
        .await?;
    Ok(done.rows_affected)
}

/// What asking for an invitation needs to know.
pub struct NewInvitation<'a> {
    pub org: &'a organizations::Model,
    pub inviter: &'a users::Model,
    pub email: &'a str,
    pub role: OrgRole,
    pub ttl: Duration,
    /// The plan's seats: people plus pending invitations.
    pub seats: u64,
    /// The sentence of the 402 when the seats are used.
    pub seats_message: String,
}

impl Model {
    #[must_use]
    pub fn org_role(&self) -> OrgRole {
        super::state::stored("invitations.org_role", &self.org_role, OrgRole::Viewer)
    }

    /// Invites `new.email` with `new.role`; returns the invitation and its token, to email. A
    /// pending invitation to the same email is revoked first (its link stops working), so that
    /// inviting again is how an invitation is re-sent.
    ///
    /// # Errors
    /// `Taken` (`already_member`, `email_taken`) when the email has an account;
    /// `PlanLimit` when the plan's seats are used; database errors.
    pub async fn invite(db: &DatabaseConnection, new: NewInvitation<'_>) -> Result<(Self, String)> {
        let email = email::normalize(new.email);
        let txn = super::begin_write(db).await?;
        // One invitation at a time per organization counts the seats (`PostgreSQL` row lock;
        // `SQLite`'s immediate transaction holds the database).
        organizations::Entity::find_by_id(new.org.id)
            .lock_exclusive()
            .one(&txn)
            .await?
            .ok_or(Refusal::NotFound)?;
        if let Some(user) = user_entity::Entity::find()
            .filter(user_entity::Column::Email.eq(&email))
            .one(&txn)
            .await?
        {
            return Err(if user.organization_id == new.org.id {
                Refusal::Taken {
                    code: "already_member",
                    message: "This person is already a member of your team.".to_string(),
                }
            } else {
                Refusal::Taken {
                    code: "email_taken",
                    message: "An account with this email already exists; invitations are for \
                              people without a Vendorwatch account."
                        .to_string(),
                }
            }
            .into());
        }
        let now = Utc::now();
        revoke_pending(&txn, new.org.id, invitations::Column::Email.eq(&email), now).await?;
        let people = members::count(&txn, new.org.id).await?;
        let pending = Entity::find()
            .filter(invitations::Column::OrganizationId.eq(new.org.id))
            .filter(pending_at(now))
            .count(&txn)
            .await?;
        if people + pending >= new.seats {
            return Err(Refusal::PlanLimit(new.seats_message).into());
        }
        let token = secret_tokens::new();
        let invitation = ActiveModel {
            pid: ActiveValue::Set(Uuid::now_v7()),
            email: ActiveValue::Set(email),
            org_role: ActiveValue::Set(new.role.to_value()),
            token_digest: ActiveValue::Set(secret_tokens::digest(&token)),
            invited_by_name: ActiveValue::Set(new.inviter.name.clone()),
            expires_at: ActiveValue::Set((now + new.ttl).into()),
            ..Default::default()
        }
        .set_tenant(new.org.id)?
        .insert(&txn)
        .await?;
        txn.commit().await?;
        Ok((invitation, token))
    }

    /// The organization's pending invitations, newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn pending(db: &DatabaseConnection, org_id: i64) -> Result<Vec<Self>> {
        Ok(Entity::find()
            .in_tenant(org_id)
            .filter(pending_at(Utc::now()))
            .order_by_desc(invitations::Column::CreatedAt)
            .order_by_desc(invitations::Column::Id)
            .all(db)
            .await?)
    }

    /// Revokes the organization's pending invitation `pid`: its link stops working.
    ///
    /// # Errors
    /// `NotFound` for an unknown id, another organization's, or one no longer pending;
    /// database errors.
    pub async fn revoke(db: &DatabaseConnection, org_id: i64, pid: &str) -> Result<()> {
        let pid = Uuid::parse_str(pid).map_err(|_| Refusal::NotFound)?;
        let now = Utc::now();
        if revoke_pending(db, org_id, invitations::Column::Pid.eq(pid), now).await? == 0 {
            return Err(Refusal::NotFound.into());
        }
        Ok(())
    }

    /// The pending invitation a link's token names, and its organization.
    ///
    /// # Errors
    /// `InvitationNotFound` for an unknown, used, revoked or expired token; database errors.
    pub async fn find_open<C: ConnectionTrait>(
        db: &C,
        token: &str,
    ) -> Result<(Self, organizations::Model)> {
        let found = Entity::find()
            .filter(invitations::Column::TokenDigest.eq(secret_tokens::digest(token)))
            .filter(pending_at(Utc::now()))
            .find_also_related(organizations::Entity)
            .one(db)
            .await?;
        match found {
            Some((invitation, Some(org))) => Ok((invitation, org)),
            _ => Err(Refusal::InvitationNotFound.into()),
        }
    }

    /// Accepts the invitation a link's token names: creates the account, in the inviting
    /// organization with the invited role, and spends the link, in one transaction.
    ///
    /// # Errors
    /// `InvitationNotFound` as [`Self::find_open`]; `Taken` (`email_taken`) when an account
    /// with the email was made since; hashing or database errors.
    pub async fn accept(
        db: &DatabaseConnection,
        token: &str,
        name: &str,
        password: &str,
    ) -> Result<(users::Model, organizations::Model)> {
        let password_hash =
            loco_rs::hash::hash_password(password).map_err(|e| Error::Any(e.into()))?;
        let txn = super::begin_write(db).await?;
        let (invitation, org) = Self::find_open(&txn, token).await?;
        // Spent first, conditionally: of two acceptances at once, one wins.
        let spent = Entity::update_many()
            .col_expr(
                invitations::Column::AcceptedAt,
                Expr::value(DateTimeWithTimeZone::from(Utc::now())),
            )
            .filter(invitations::Column::Id.eq(invitation.id))
            .filter(invitations::Column::AcceptedAt.is_null())
            .exec(&txn)
            .await?;
        if spent.rows_affected == 0 {
            return Err(Refusal::InvitationNotFound.into());
        }
        let email_taken = || -> Error {
            Refusal::Taken {
                code: "email_taken",
                message: "An account with this email already exists. Sign in instead.".to_string(),
            }
            .into()
        };
        if user_entity::Entity::find()
            .filter(user_entity::Column::Email.eq(&invitation.email))
            .one(&txn)
            .await?
            .is_some()
        {
            return Err(email_taken());
        }
        let user = users::ActiveModel {
            email: ActiveValue::Set(invitation.email.clone()),
            password: ActiveValue::Set(password_hash),
            name: ActiveValue::Set(name.trim().to_string()),
            company: ActiveValue::Set(Some(org.name.clone())),
            role: ActiveValue::Set(users::PlatformRole::User.to_value()),
            org_role: ActiveValue::Set(invitation.org_role.clone()),
            organization_id: ActiveValue::Set(org.id),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(|e| match e.sql_err() {
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => email_taken(),
            _ => Error::from(e),
        })?;
        txn.commit().await?;
        Ok((user, org))
    }
}
