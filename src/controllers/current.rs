//! The signed-in user and their organization (the tenant), from a verified JWT only; and the
//! signed-in admin of the `/api/admin/*` calls.

use axum::{
    extract::FromRequestParts,
    http::{request::Parts, StatusCode},
};
use loco_rs::prelude::*;

use crate::{
    errors::{api_error, ApiError},
    models::{organizations, users},
};

pub struct CurrentUser {
    pub user: users::Model,
    pub org: organizations::Model,
    /// The token's claims: signing out revokes its `jti`.
    pub token: users::TokenClaims,
    /// The organization's date (in its time zone) when the request came: its "today" for
    /// statuses, the dashboard and reports.
    pub today: chrono::NaiveDate,
}

impl FromRequestParts<AppContext> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        ctx: &AppContext,
    ) -> std::result::Result<Self, Self::Rejection> {
        // Loco's `auth::JWT` extractor does the same, but logs every bad token at ERROR: a
        // client's expired or forged token is no fault of ours.
        let jwt = ctx.config.get_jwt_config()?;
        let token = loco_rs::controller::extractor::auth::extract_token(jwt, parts)?;
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
        crate::observability::record_caller(org.id, user.id);
        let today = org.today_at(crate::clock::Clock::from_context(ctx).now());
        Ok(Self {
            user,
            org,
            token,
            today,
        })
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
        let current = CurrentUser::from_request_parts(parts, ctx).await?;
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
