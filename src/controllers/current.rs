//! The signed-in user and their organization (the tenant), from a verified JWT only.

use axum::{extract::FromRequestParts, http::request::Parts};
use loco_rs::prelude::*;

use crate::{
    errors::ApiError,
    models::{organizations, users},
};

pub struct CurrentUser {
    pub user: users::Model,
    pub org: organizations::Model,
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
        let user = users::Model::find_by_pid(&ctx.db, &claims.pid)
            .await
            .map_err(|_| Error::Unauthorized("token for an unknown user".to_string()))?;
        let org = user.organization(&ctx.db).await?;
        Ok(Self { user, org })
    }
}
