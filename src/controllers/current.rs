//! The signed-in user and their organization (the tenant), from a verified JWT only; what
//! their role in the organization lets them call; and the signed-in admin of the
//! `/api/admin/*` calls.
//!
//! Roles are checked here and nowhere else (docs/product.md, "Teams"): a handler says what it
//! needs by the extractor it takes, and the default is the safe one. `CurrentUser` lets every
//! role read (GET, HEAD) and lets only members and above call anything else, so a new handler
//! that writes refuses viewers without a line of its own. [`Reader`] opens a non-GET call to
//! viewers (signing out, one's own preferences, a ZIP of documents); [`OrgAdmin`] and
//! [`OrgOwner`] narrow a call to admins and the owner.
//!
//! An API key (docs/product.md, "Integrations") is sent the same way as a token: it acts
//! through the person who made it, never above its scope (a `read` key is a viewer, a `write`
//! key at most a member), has its own rate budget, and never reaches the platform's admin
//! tools.

use axum::{
    extract::FromRequestParts,
    http::{request::Parts, StatusCode},
};
use loco_rs::prelude::*;

use crate::{
    errors::{api_error, ApiError},
    infra::rate_limit::RateLimiters,
    models::{
        api_keys,
        members::{self, OrgRole},
        organizations,
        refusal::Refusal,
        users,
    },
};

pub struct CurrentUser {
    pub user: users::Model,
    pub org: organizations::Model,
    /// The token's claims: signing out revokes its `jti`. `None` for a call with an API key.
    pub token: Option<users::TokenClaims>,
    /// The API key the call came with, if it came with one.
    pub api_key: Option<api_keys::Model>,
    /// The organization's date (in its time zone) when the request came: its "today" for
    /// statuses, the dashboard and reports.
    pub today: chrono::NaiveDate,
}

impl CurrentUser {
    /// The person, for the activity entries of what they change.
    #[must_use]
    pub fn actor(&self) -> crate::models::activities::Actor {
        use crate::models::activities::{ActivitySource, Actor};
        match &self.api_key {
            Some(key) => Actor {
                person: Some((
                    self.user.pid,
                    format!("{} (API key \"{}\")", self.user.name, key.name),
                )),
                source: ActivitySource::Api,
            },
            None => Actor::user(&self.user),
        }
    }

    /// The person's role in their organization; with an API key, never above its scope.
    #[must_use]
    pub fn role(&self) -> OrgRole {
        let role = self.user.org_role();
        match &self.api_key {
            Some(key) => key.scope().cap(role),
            None => role,
        }
    }

    /// Refuses (403 `forbidden_role`) unless the person's role is `least` or above.
    ///
    /// # Errors
    /// The refusal, with a sentence saying who may.
    pub fn require(&self, least: OrgRole) -> std::result::Result<(), ApiError> {
        if self.role() >= least {
            return Ok(());
        }
        let message = match least {
            OrgRole::Viewer | OrgRole::Member => {
                "Viewers can see everything but change nothing. Ask an admin of your team to \
                 make you a member."
            }
            OrgRole::Admin => "Only the owner and admins of your team can do this.",
            OrgRole::Owner => "Only the owner of your team can do this.",
        };
        Err(ApiError::from(Error::from(Refusal::ForbiddenRole(
            message.to_string(),
        ))))
    }

    /// The person a verified token names, whatever their role.
    async fn signed_in(parts: &mut Parts, ctx: &AppContext) -> std::result::Result<Self, ApiError> {
        // Loco's `auth::JWT` extractor does the same, but logs every bad token at ERROR: a
        // client's expired or forged token is no fault of ours.
        let jwt = ctx.config.get_jwt_config()?;
        let token = loco_rs::controller::extractor::auth::extract_token(jwt, parts)?;
        if token.starts_with(api_keys::KEY_PREFIX) {
            return Self::with_api_key(ctx, &token).await;
        }
        let claims = loco_rs::auth::jwt::JWT::new(&jwt.secret)
            .validate(&token)
            .map_err(|err| Error::Unauthorized(format!("token is not valid: {err}")))?
            .claims;
        let token = users::TokenClaims::from_verified(&claims)
            .ok_or_else(|| Error::Unauthorized("token without its claims".to_string()))?;
        // One query, on the shared database: a token signed out or ended on any server process
        // is refused here at once.
        let (user, org) = users::Model::find_signed_in(&ctx.db, &token)
            .await?
            .ok_or_else(|| {
                Error::Unauthorized("token for an unknown user, or ended".to_string())
            })?;
        crate::infra::observability::record_caller(org.id, user.id);
        members::note_active(&ctx.db, &user).await?;
        let today = org.today_at(crate::infra::clock::Clock::from_context(ctx).now());
        Ok(Self {
            user,
            org,
            token: Some(token),
            api_key: None,
            today,
        })
    }

    /// The person behind API key `key`, acting within its scope; each call spends from the
    /// key's rate budget (`rate_limits.api_key_calls` a minute).
    async fn with_api_key(ctx: &AppContext, key: &str) -> std::result::Result<Self, ApiError> {
        let now = crate::infra::clock::Clock::from_context(ctx).now();
        let (api_key, user, org) = api_keys::Model::find_by_key(&ctx.db, key, now.into())
            .await?
            .ok_or_else(|| Error::Unauthorized("unknown or revoked API key".to_string()))?;
        RateLimiters::from_context(ctx)?
            .api_keys
            .spend(&format!("key:{}", api_key.pid))
            .await
            .map_err(crate::errors::rate_limited)?;
        crate::infra::observability::record_caller(org.id, user.id);
        let today = org.today_at(now);
        Ok(Self {
            user,
            org,
            token: None,
            api_key: Some(api_key),
            today,
        })
    }
}

impl FromRequestParts<AppContext> for CurrentUser {
    type Rejection = ApiError;

    /// Every role may read; any other method needs `member` or above.
    async fn from_request_parts(
        parts: &mut Parts,
        ctx: &AppContext,
    ) -> std::result::Result<Self, Self::Rejection> {
        let current = Self::signed_in(parts, ctx).await?;
        if !parts.method.is_safe() {
            current.require(OrgRole::Member)?;
        }
        Ok(current)
    }
}

/// The calls other than reads that every role may make (each takes [`Reader`]), as method and
/// path: the `OpenAPI` document states a 403 for every other signed-in call that writes, and
/// the role tests call each one as a viewer.
pub const OPEN_TO_EVERY_ROLE: [(&str, &str); 3] = [
    ("POST", "/api/auth/logout"),
    ("PUT", "/api/account/preferences"),
    ("POST", "/api/documents/archive"),
];

/// A signed-in person of any role, whatever the method: for calls that change only the caller's
/// own things (signing out, their preferences) or that only read though sent by POST (a ZIP of
/// chosen documents).
pub struct Reader(pub CurrentUser);

impl FromRequestParts<AppContext> for Reader {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        ctx: &AppContext,
    ) -> std::result::Result<Self, ApiError> {
        Ok(Self(CurrentUser::signed_in(parts, ctx).await?))
    }
}

/// A signed-in admin or owner of their organization: the team, billing, the organization's
/// settings.
pub struct OrgAdmin(pub CurrentUser);

impl FromRequestParts<AppContext> for OrgAdmin {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        ctx: &AppContext,
    ) -> std::result::Result<Self, ApiError> {
        let current = CurrentUser::signed_in(parts, ctx).await?;
        current.require(OrgRole::Admin)?;
        Ok(Self(current))
    }
}

/// The signed-in owner of their organization: handing ownership over.
pub struct OrgOwner(pub CurrentUser);

impl FromRequestParts<AppContext> for OrgOwner {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        ctx: &AppContext,
    ) -> std::result::Result<Self, ApiError> {
        let current = CurrentUser::signed_in(parts, ctx).await?;
        current.require(OrgRole::Owner)?;
        Ok(Self(current))
    }
}

/// A signed-in admin; anyone else is refused (401 without a token, 403 otherwise).
pub struct AdminUser(pub CurrentUser);

impl FromRequestParts<AppContext> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        ctx: &AppContext,
    ) -> std::result::Result<Self, ApiError> {
        // The platform's tools, not the organization's data: the organization role is not asked.
        let current = CurrentUser::signed_in(parts, ctx).await?;
        if current.api_key.is_some() {
            return Err(ApiError::from(api_error(
                StatusCode::FORBIDDEN,
                "forbidden",
                "API keys cannot use the platform's admin tools.",
            )));
        }
        if !current.user.is_admin() {
            return Err(ApiError::from(api_error(
                StatusCode::FORBIDDEN,
                "forbidden",
                "Only an admin may do this.",
            )));
        }
        Ok(Self(current))
    }
}
