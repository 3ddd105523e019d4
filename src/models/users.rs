use std::sync::OnceLock;

use chrono::{Duration, Utc};
use loco_rs::{auth::jwt, hash, prelude::*};
use sea_orm::entity::prelude::{ActiveEnum, DeriveActiveEnum, EnumIter, StringLen};
use sea_orm::sea_query::{Expr, ExprTrait};
use serde::{Deserialize, Serialize};
use serde_json::Map;
use uuid::Uuid;

pub use super::_entities::users::{self, ActiveModel, Entity, Model};
use super::{
    email::{self, EmailAddress},
    organizations, revoked_tokens, secret_tokens,
};

// `users.role` (decision 49); `admin` only by `make_admin` (decision 4).
/// Who a user is to the platform: `admin` is its operator.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum PlatformRole {
    #[sea_orm(string_value = "user")]
    User,
    /// The platform operator, set only by `cargo loco task make_admin`.
    #[sea_orm(string_value = "admin")]
    Admin,
}

/// The token's own id, what signing out revokes.
const CLAIM_JTI: &str = "jti";
/// The user's `token_generation` when the token was issued.
const CLAIM_GENERATION: &str = "gen";

/// What a verified token says beyond its expiry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenClaims {
    pub pid: Uuid,
    pub jti: Uuid,
    pub generation: i32,
}

impl TokenClaims {
    /// The claims of a verified token; `None` when one is missing or malformed (a token
    /// issued before sign-out existed has no `jti`, and cannot be signed out alone: it is
    /// refused, and its holder signs in once more).
    #[must_use]
    pub fn from_verified(claims: &jwt::UserClaims) -> Option<Self> {
        Some(Self {
            pid: Uuid::parse_str(&claims.pid).ok()?,
            jti: Uuid::parse_str(claims.claims.get(CLAIM_JTI)?.as_str()?).ok()?,
            generation: i32::try_from(claims.claims.get(CLAIM_GENERATION)?.as_i64()?).ok()?,
        })
    }
}

#[derive(Debug, Default, Deserialize, Serialize, Validate, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RegisterParams {
    /// 2 to 100 characters once trimmed.
    #[validate(custom(function = "validate_name"))]
    #[schema(
        required = true,
        min_length = 2,
        max_length = 100,
        pattern = r"\S[\s\S]*\S"
    )]
    pub name: String,
    #[validate(custom(function = "validate_email"))]
    #[schema(required = true, format = Email, max_length = 254)]
    pub email: String,
    #[validate(custom(function = "crate::models::users::validate_password"))]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
    /// The organization's name, at most 100 characters once trimmed; the user's name when
    /// empty.
    #[validate(custom(function = "validate_company"))]
    #[schema(max_length = 100)]
    pub company: Option<String>,
    /// The organization's IANA time zone, the browser's
    /// (`Intl.DateTimeFormat().resolvedOptions().timeZone`); UTC when absent, null or empty. A
    /// name the tz database does not know, as it spells it, is refused (422 on `timeZone`).
    #[serde(rename = "timeZone")]
    #[schema(schema_with = crate::models::organizations::time_zone_or_none_schema)]
    pub time_zone: Option<String>,
}

#[derive(Debug, Default, Deserialize, Serialize, Validate, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct LoginParams {
    #[validate(custom(function = "validate_email"))]
    #[schema(required = true, format = Email, max_length = 254)]
    pub email: String,
    #[validate(custom(function = "crate::models::users::validate_password"))]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
}

/// Passwords: 6 to 128 characters (the upper bound keeps hashing cheap to refuse).
///
/// # Errors
/// The rule that failed, with the message the form shows.
pub fn validate_password(password: &str) -> Result<(), validator::ValidationError> {
    let len = password.chars().count();
    if len < 6 {
        return Err(validator::ValidationError::new("length")
            .with_message("Password must be at least 6 characters".into()));
    }
    if len > 128 {
        return Err(validator::ValidationError::new("length")
            .with_message("Password must be at most 128 characters".into()));
    }
    Ok(())
}

/// Names: 2 to 100 characters once trimmed.
///
/// # Errors
/// The rule that failed, with the message the form shows.
pub fn validate_name(name: &str) -> Result<(), validator::ValidationError> {
    let len = name.trim().chars().count();
    if len < 2 {
        return Err(validator::ValidationError::new("length")
            .with_message("Name must be at least 2 characters".into()));
    }
    if len > 100 {
        return Err(validator::ValidationError::new("length")
            .with_message("Name must be at most 100 characters".into()));
    }
    Ok(())
}

/// The same bound as the person's name: the organization's name is sent back on every
/// `/api/auth/me`, shown on every screen and sent to Stripe.
fn validate_company(company: &str) -> Result<(), validator::ValidationError> {
    if company.trim().chars().count() > 100 {
        return Err(validator::ValidationError::new("length")
            .with_message("Company must be at most 100 characters".into()));
    }
    Ok(())
}

/// # Errors
/// When `email` is not an address the app accepts (at most 254 characters).
pub fn validate_email(email: &str) -> Result<(), validator::ValidationError> {
    if EmailAddress::parse(email).is_some() {
        Ok(())
    } else {
        Err(validator::ValidationError::new("email").with_message("Invalid email address".into()))
    }
}

/// A hash checked against when the email is unknown, so that login costs the same either way.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash::hash_password("not-a-real-password").unwrap_or_default())
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
            this.api_key = ActiveValue::Set(format!("vw-{}", Uuid::new_v4()));
            // Written, not left to the column's default: SQLite can answer NULL in the
            // `RETURNING` of a column added by `ALTER TABLE` with a default (seen in CI).
            if this.weekly_summary.is_not_set() {
                this.weekly_summary = ActiveValue::Set(true);
            }
            if this.token_generation.is_not_set() {
                this.token_generation = ActiveValue::Set(0);
            }
            if this.reminder_emails.is_not_set() {
                this.reminder_emails = ActiveValue::Set(true);
            }
            if this.org_role.is_not_set() {
                this.org_role = ActiveValue::Set(super::members::OrgRole::Owner.to_value());
            }
        }
        Ok(this)
    }
}

#[async_trait]
impl Authenticable for Model {
    async fn find_by_api_key(db: &DatabaseConnection, api_key: &str) -> ModelResult<Self> {
        Entity::find()
            .filter(users::Column::ApiKey.eq(api_key))
            .one(db)
            .await?
            .ok_or(ModelError::EntityNotFound)
    }

    async fn find_by_claims_key(db: &DatabaseConnection, claims_key: &str) -> ModelResult<Self> {
        Self::find_by_pid(db, claims_key).await
    }
}

impl Model {
    /// # Errors
    /// `EntityNotFound` when no user has this email.
    pub async fn find_by_email(db: &DatabaseConnection, email: &str) -> ModelResult<Self> {
        Entity::find()
            .filter(users::Column::Email.eq(email::normalize(email)))
            .one(db)
            .await?
            .ok_or(ModelError::EntityNotFound)
    }

    /// # Errors
    /// `EntityNotFound` when no user has this pid (or it is not a uuid).
    pub async fn find_by_pid(db: &DatabaseConnection, pid: &str) -> ModelResult<Self> {
        let pid = Uuid::parse_str(pid).map_err(|_| ModelError::EntityNotFound)?;
        Entity::find()
            .filter(users::Column::Pid.eq(pid))
            .one(db)
            .await?
            .ok_or(ModelError::EntityNotFound)
    }

    /// The user a verified token names and their organization, in one query (every signed-in
    /// request): `None` for an unknown user, and for a token signed out (`revoked_tokens`) or
    /// issued before the user's tokens were last ended (`token_generation`). The check goes to
    /// the database on every request, not to a cache of this process, so a token ended on one
    /// server is refused at once by all of them.
    ///
    /// # Errors
    /// Database errors.
    pub async fn find_signed_in(
        db: &DatabaseConnection,
        claims: &TokenClaims,
    ) -> ModelResult<Option<(Self, organizations::Model)>> {
        let found = Entity::find()
            .filter(users::Column::Pid.eq(claims.pid))
            .filter(Expr::exists(revoked_tokens::Model::revoked(claims.jti)).not())
            .find_also_related(organizations::Entity)
            .one(db)
            .await?;
        Ok(found
            .filter(|(user, _)| user.token_generation == claims.generation)
            .and_then(|(user, org)| Some((user, org?))))
    }

    /// The user a reset token was issued to, while it is unused and younger than `ttl`.
    ///
    /// # Errors
    /// `EntityNotFound` for an unknown, used or expired token.
    pub async fn find_by_reset_token(
        db: &DatabaseConnection,
        token: &str,
        ttl: Duration,
    ) -> ModelResult<Self> {
        let user = Entity::find()
            .filter(users::Column::ResetToken.eq(secret_tokens::digest(token)))
            .one(db)
            .await?
            .ok_or(ModelError::EntityNotFound)?;
        match user.reset_sent_at {
            Some(sent_at) if sent_at + ttl >= Utc::now() => Ok(user),
            _ => Err(ModelError::EntityNotFound),
        }
    }

    /// Checks credentials. Unknown emails cost one hash verification too.
    ///
    /// # Errors
    /// `EntityNotFound` for an unknown email or a wrong password (not told apart).
    pub async fn authenticate(
        db: &DatabaseConnection,
        email: &str,
        password: &str,
    ) -> ModelResult<Self> {
        let Ok(user) = Self::find_by_email(db, email).await else {
            let _ = hash::verify_password(password, dummy_hash());
            return Err(ModelError::EntityNotFound);
        };
        if hash::verify_password(password, &user.password) {
            Ok(user)
        } else {
            Err(ModelError::EntityNotFound)
        }
    }

    /// Registration: the organization (named after the company, or the user's name) and its
    /// owner, in one transaction.
    ///
    /// # Errors
    /// `EntityAlreadyExists` when the email is taken; database errors.
    pub async fn register(
        db: &DatabaseConnection,
        params: &RegisterParams,
    ) -> ModelResult<(Self, organizations::Model)> {
        let email = email::normalize(&params.email);
        let name = params.name.trim().to_string();
        let company = params
            .company
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(ToString::to_string);
        let password_hash =
            hash::hash_password(&params.password).map_err(|e| ModelError::Any(e.into()))?;

        let txn = crate::models::begin_write(db).await?;
        if Entity::find()
            .filter(users::Column::Email.eq(&email))
            .one(&txn)
            .await?
            .is_some()
        {
            return Err(ModelError::EntityAlreadyExists);
        }
        let time_zone = params
            .time_zone
            .as_deref()
            .and_then(|zone| organizations::parse_time_zone(zone).ok())
            .map_or(organizations::DEFAULT_TIME_ZONE, |zone| zone.name());
        let org = organizations::ActiveModel {
            name: ActiveValue::Set(company.clone().unwrap_or_else(|| name.clone())),
            plan: ActiveValue::Set(organizations::Plan::Free.to_value()),
            time_zone: ActiveValue::Set(time_zone.to_string()),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        let user = ActiveModel {
            email: ActiveValue::Set(email),
            password: ActiveValue::Set(password_hash),
            name: ActiveValue::Set(name),
            company: ActiveValue::Set(company),
            role: ActiveValue::Set(PlatformRole::User.to_value()),
            org_role: ActiveValue::Set(super::members::OrgRole::Owner.to_value()),
            organization_id: ActiveValue::Set(org.id),
            ..Default::default()
        }
        .insert(&txn)
        .await
        // The unique index settles a race between two registrations of one email.
        .map_err(|e| match e.sql_err() {
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => ModelError::EntityAlreadyExists,
            _ => ModelError::from(e),
        })?;
        txn.commit().await?;
        Ok((user, org))
    }

    /// A signed token for this user: their pid, a token id of its own (what signing out
    /// revokes) and their current `token_generation` (what ending all their tokens raises).
    ///
    /// # Errors
    /// When the token cannot be signed.
    pub fn generate_jwt(&self, secret: &str, expiration: u64) -> ModelResult<String> {
        let mut claims = Map::new();
        claims.insert(CLAIM_JTI.into(), Uuid::new_v4().to_string().into());
        claims.insert(CLAIM_GENERATION.into(), self.token_generation.into());
        jwt::JWT::new(secret)
            .generate_token(expiration, self.pid.to_string(), claims)
            .map_err(ModelError::from)
    }

    /// Ends every token of this user issued until now (a password reset; removing someone
    /// from a team): tokens carry the generation they were issued under, and from now on only
    /// the next one is accepted. Raised in SQL, so two at once both count.
    ///
    /// # Errors
    /// Database errors.
    pub async fn end_all_tokens<C: ConnectionTrait>(db: &C, user_id: i64) -> ModelResult<()> {
        Entity::update_many()
            .col_expr(
                users::Column::TokenGeneration,
                Expr::col(users::Column::TokenGeneration).add(1),
            )
            .filter(users::Column::Id.eq(user_id))
            .exec(db)
            .await?;
        Ok(())
    }

    #[must_use]
    pub fn role(&self) -> PlatformRole {
        super::state::stored("users.role", &self.role, PlatformRole::User)
    }

    #[must_use]
    pub fn is_admin(&self) -> bool {
        self.role() == PlatformRole::Admin
    }

    /// # Errors
    /// When the organization is gone or the database fails.
    pub async fn organization(&self, db: &DatabaseConnection) -> ModelResult<organizations::Model> {
        organizations::Model::find_by_id(db, self.organization_id).await
    }
}

impl ActiveModel {
    /// Issues a new reset token; returns the user and the token to email (only its digest is
    /// stored, and any earlier token stops working).
    ///
    /// # Errors
    /// Database errors.
    pub async fn issue_reset_token(
        mut self,
        db: &DatabaseConnection,
    ) -> ModelResult<(Model, String)> {
        let token = hash::random_string(43);
        self.reset_token = ActiveValue::Set(Some(secret_tokens::digest(&token)));
        self.reset_sent_at = ActiveValue::Set(Some(Utc::now().into()));
        Ok((self.update(db).await?, token))
    }

    /// Sets a new password and spends the reset token.
    ///
    /// # Errors
    /// Hashing or database errors.
    pub async fn reset_password(
        mut self,
        db: &DatabaseConnection,
        password: &str,
    ) -> ModelResult<Model> {
        self.password =
            ActiveValue::Set(hash::hash_password(password).map_err(|e| ModelError::Any(e.into()))?);
        self.reset_token = ActiveValue::Set(None);
        self.reset_sent_at = ActiveValue::Set(None);
        let id = *self.id.as_ref();
        let txn = crate::models::begin_write(db).await?;
        // Whoever held a token (maybe the one who took the old password) is signed out.
        Model::end_all_tokens(&txn, id).await?;
        let user = self.update(&txn).await?;
        txn.commit().await?;
        Ok(user)
    }

    /// # Errors
    /// Database errors.
    pub async fn set_role(
        mut self,
        db: &DatabaseConnection,
        role: PlatformRole,
    ) -> ModelResult<Model> {
        self.role = ActiveValue::Set(role.to_value());
        Ok(self.update(db).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_params_report_each_spec_message() {
        let params = RegisterParams {
            name: " a ".into(),
            email: "nope".into(),
            password: "12345".into(),
            company: None,
            time_zone: None,
        };
        let errs =
            crate::errors::from_validator(&validator::Validate::validate(&params).unwrap_err());
        assert_eq!(errs["name"], vec!["Name must be at least 2 characters"]);
        assert_eq!(errs["email"], vec!["Invalid email address"]);
        assert_eq!(
            errs["password"],
            vec!["Password must be at least 6 characters"]
        );
    }

    #[test]
    fn reset_tokens_are_stored_as_digests() {
        assert_ne!(secret_tokens::digest("abc"), "abc");
        assert_eq!(secret_tokens::digest("abc").len(), 64);
    }

    #[test]
    fn platform_roles_are_stored_and_serialized_as_before() {
        crate::models::state::assert_pinned(&[
            (PlatformRole::User, "user"),
            (PlatformRole::Admin, "admin"),
        ]);
    }
}
