use axum::http::StatusCode;
use chrono::Duration;
use loco_rs::prelude::*;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    current::{CurrentUser, Reader},
    json::ApiJson,
};
use crate::{
    errors::{
        self, conflict, field_error, rate_limited, unauthorized, ApiError, ApiResult, Envelope,
    },
    infra::rate_limit::{client_key, RateLimiters},
    mailers::auth::AuthMailer,
    models::{
        organizations, revoked_tokens,
        users::{self, LoginParams, RegisterParams},
    },
    settings::Settings,
    views::auth::{LoginResponse, MessageResponse, UserResponse},
};

#[derive(Debug, Default, Deserialize, Validate, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ForgotParams {
    #[validate(custom(function = "crate::models::users::validate_email"))]
    #[schema(required = true, format = Email, max_length = 254)]
    pub email: String,
}

#[derive(Debug, Default, Deserialize, Validate, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ResetParams {
    /// The token of the emailed link.
    #[schema(required = true)]
    pub token: String,
    #[validate(custom(function = "crate::models::users::validate_password"))]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
}

fn token_for(ctx: &AppContext, user: &users::Model) -> Result<String> {
    let jwt = ctx.config.get_jwt_config()?;
    Ok(user.generate_jwt(&jwt.secret, jwt.expiration)?)
}

/// Creates an organization and its owner, and signs the owner in. Each address may register a
/// few accounts per window (`settings.rate_limits`).
#[utoipa::path(post, path = "/api/auth/register", tag = "auth", request_body = RegisterParams,
    responses((status = 201, body = LoginResponse), (status = 409, body = Envelope),
        (status = 422, body = Envelope), (status = 429, body = Envelope)))]
#[tracing::instrument(skip_all)]
async fn register(
    State(ctx): State<AppContext>,
    ip: RemoteIP,
    ApiJson(params): ApiJson<RegisterParams>,
) -> ApiResult {
    errors::validate(&params)?;
    if let Some(zone) = params.time_zone.as_deref().filter(|z| !z.is_empty()) {
        organizations::parse_time_zone(zone)?;
    }
    // Every attempt past validation counts, taken emails too: each 409 says an account exists.
    let limiters = RateLimiters::from_context(&ctx)?;
    limiters
        .registrations
        .spend(&client_key(&ip))
        .await
        .map_err(rate_limited)?;
    let (user, org) = match users::Model::register(&ctx.db, &params).await {
        Ok(pair) => pair,
        Err(ModelError::EntityAlreadyExists) => {
            return Err(ApiError::from(conflict(
                "email_taken",
                "An account with this email already exists.",
            )))
        }
        Err(e) => return Err(e.into()),
    };
    let body = LoginResponse {
        token: token_for(&ctx, &user)?,
        user: UserResponse::new(&user, &org),
    };
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

/// Signs in. Unknown emails and wrong passwords get the same answer. Failures are limited per
/// address and email, and per address whatever the email; past the latter every sign-in from
/// the address is refused until its window ends, so a sprayed password cannot be confirmed.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth", request_body = LoginParams,
    responses((status = 200, body = LoginResponse), (status = 401, body = Envelope),
        (status = 422, body = Envelope), (status = 429, body = Envelope)))]
#[tracing::instrument(skip_all)]
async fn login(
    State(ctx): State<AppContext>,
    ip: RemoteIP,
    ApiJson(params): ApiJson<LoginParams>,
) -> ApiResult {
    errors::validate(&params)?;
    let limiters = RateLimiters::from_context(&ctx)?;
    let address = client_key(&ip);
    limiters
        .login_failures
        .check(&address)
        .await
        .map_err(rate_limited)?;
    let key = format!(
        "{address}|{}",
        crate::models::email::normalize(&params.email)
    );
    limiters.login.spend(&key).await.map_err(rate_limited)?;
    let Ok(user) = users::Model::authenticate(&ctx.db, &params.email, &params.password).await
    else {
        limiters.login_failures.record(&address).await;
        return Err(ApiError::from(unauthorized(
            "invalid_credentials",
            "Invalid email or password.",
        )));
    };
    let org = user.organization(&ctx.db).await?;
    super::ok_json(LoginResponse {
        token: token_for(&ctx, &user)?,
        user: UserResponse::new(&user, &org),
    })
}

/// The signed-in user.
#[utoipa::path(get, path = "/api/auth/me", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = UserResponse), (status = 401, body = Envelope)))]
async fn me(current: CurrentUser) -> ApiResult {
    super::ok_json(UserResponse::new(&current.user, &current.org))
}

/// Signs out: the token of this request stops working at once, on every server; the user's
/// other tokens (other browsers) go on.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth", security(("bearer" = [])),
    responses((status = 204, description = "Signed out"), (status = 401, body = Envelope)))]
#[tracing::instrument(skip_all)]
async fn logout(Reader(current): Reader, State(ctx): State<AppContext>) -> ApiResult {
    // An API key is not signed out: it is revoked on the Integrations page.
    let Some(token) = current.token else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    let jwt = ctx.config.get_jwt_config()?;
    // The token expires by then at the latest (it was issued at most this long ago).
    let lifetime = i64::try_from(jwt.expiration)
        .ok()
        .and_then(Duration::try_seconds)
        .unwrap_or(Duration::MAX);
    let expires_at = chrono::Utc::now()
        .checked_add_signed(lifetime)
        .unwrap_or(chrono::DateTime::<chrono::Utc>::MAX_UTC);
    revoked_tokens::Model::revoke(&ctx.db, token.jti, expires_at.into()).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Emails a password-reset link when the account exists; answers the same either way (a
/// malformed address is refused whether or not it exists).
#[utoipa::path(post, path = "/api/auth/forgot", tag = "auth", request_body = ForgotParams,
    responses((status = 200, body = MessageResponse), (status = 422, body = Envelope),
        (status = 429, body = Envelope)))]
#[tracing::instrument(skip_all)]
async fn forgot(
    State(ctx): State<AppContext>,
    ip: RemoteIP,
    ApiJson(params): ApiJson<ForgotParams>,
) -> ApiResult {
    errors::validate(&params)?;
    RateLimiters::from_context(&ctx)?
        .forgot
        .spend(&client_key(&ip))
        .await
        .map_err(rate_limited)?;
    if let Ok(user) = users::Model::find_by_email(&ctx.db, &params.email).await {
        let (user, token) = user.into_active_model().issue_reset_token(&ctx.db).await?;
        AuthMailer::forgot_password(&ctx, &user, &token).await?;
    }
    super::ok_json(MessageResponse {
        message: "If an account exists for that email, we sent a link to reset your password."
            .to_string(),
    })
}

/// Sets a new password with a reset token (once, before it expires), and ends every token the
/// user held: whoever had the old password is signed out everywhere.
#[utoipa::path(post, path = "/api/auth/reset", tag = "auth", request_body = ResetParams,
    responses((status = 200, body = MessageResponse), (status = 422, body = Envelope)))]
#[tracing::instrument(skip_all)]
async fn reset(State(ctx): State<AppContext>, ApiJson(params): ApiJson<ResetParams>) -> ApiResult {
    errors::validate(&params)?;
    let ttl = Duration::minutes(Settings::from_context(&ctx)?.reset_token_ttl_minutes);
    let Ok(user) = users::Model::find_by_reset_token(&ctx.db, &params.token, ttl).await else {
        return Err(ApiError::from(field_error(
            "token",
            "This reset link is invalid or has expired.",
        )));
    };
    user.into_active_model()
        .reset_password(&ctx.db, &params.password)
        .await?;
    super::ok_json(MessageResponse {
        message: "Your password has been updated.".to_string(),
    })
}

pub fn routes() -> Routes {
    Routes::new()
        .prefix("/api/auth")
        .add("/register", post(register))
        .add("/login", post(login))
        .add("/me", get(me))
        .add("/logout", post(logout))
        .add("/forgot", post(forgot))
        .add("/reset", post(reset))
}
