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
        let jwt = auth::JWT::from_request_parts(parts, ctx).await?;
        let user = users::Model::find_by_pid(&ctx.db, &jwt.claims.pid)
            .await
            .map_err(|_| Error::Unauthorized("token for an unknown user".to_string()))?;
        let org = user.organization(&ctx.db).await?;
        Ok(Self { user, org })
    }
}
