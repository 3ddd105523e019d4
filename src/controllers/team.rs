//! Teams: the organization's people, their roles, invitations and the hand-over of ownership
//! (docs/product.md, "Teams"). Who may call what is said by each handler's extractor
//! (`controllers::current`).

use axum::http::StatusCode;
use chrono::Duration;
use loco_rs::prelude::*;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    current::{CurrentUser, OrgAdmin, OrgOwner},
    json::ApiJson,
};
use crate::{
    errors::{self, ApiError, ApiResult, Envelope},
    mailers::team::TeamMailer,
    models::{
        invitations::{self, NewInvitation},
        members::{self, OrgRole},
        refusal::Refusal,
    },
    settings::Settings,
    views::{
        auth::{LoginResponse, UserResponse},
        team::{InvitationPreview, InvitationResponse, MemberResponse},
    },
};

/// A role given by an admin or the owner: `admin`, `member` or `viewer` (`owner` is handed
/// over, not given).
fn given_role(name: &str) -> Result<OrgRole> {
    match crate::models::state::parse::<OrgRole>(name) {
        Some(role) if role != OrgRole::Owner => Ok(role),
        _ => Err(Refusal::field("orgRole", "Role must be admin, member or viewer.").into()),
    }
}

#[derive(Debug, Default, Deserialize, Validate, ToSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct InvitationParams {
    #[validate(custom(function = "crate::models::users::validate_email"))]
    #[schema(required = true, format = Email, max_length = 254)]
    pub email: String,
    /// `admin` (the owner only), `member` or `viewer`.
    #[schema(required = true, pattern = "^(admin|member|viewer)$")]
    pub org_role: String,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct RoleParams {
    /// `admin` (the owner only), `member` or `viewer`.
    #[schema(required = true, pattern = "^(admin|member|viewer)$")]
    pub org_role: String,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct TransferParams {
    /// The `id` of the member who becomes the owner.
    #[schema(required = true)]
    pub member_id: String,
}

#[derive(Debug, Default, Deserialize, Validate, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct AcceptParams {
    /// 2 to 100 characters once trimmed.
    #[validate(custom(function = "crate::models::users::validate_name"))]
    #[schema(
        required = true,
        min_length = 2,
        max_length = 100,
        pattern = r"\S[\s\S]*\S"
    )]
    pub name: String,
    #[validate(custom(function = "crate::models::users::validate_password"))]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
}

/// The organization's people, the owner first. Every role may see them.
#[utoipa::path(get, path = "/api/team/members", tag = "team", security(("bearer" = [])),
    responses((status = 200, body = [MemberResponse]), (status = 401, body = Envelope)))]
async fn list_members(current: CurrentUser, State(ctx): State<AppContext>) -> ApiResult {
    let people = members::list(&ctx.db, current.org.id).await?;
    super::ok_json(people.iter().map(MemberResponse::new).collect::<Vec<_>>())
}

/// Changes a person's role. Admins change members and viewers; only the owner makes, changes
/// or unmakes admins; no one changes their own role or the owner's.
#[utoipa::path(put, path = "/api/team/members/{id}", tag = "team", security(("bearer" = [])),
    params(("id" = String, Path, description = "The member's id")), request_body = RoleParams,
    responses((status = 200, body = MemberResponse), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope), (status = 422, body = Envelope)))]
async fn change_role(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
    ApiJson(params): ApiJson<RoleParams>,
) -> ApiResult {
    let role = given_role(&params.org_role)?;
    let person = members::change_role(&ctx.db, &current.user, &id, role).await?;
    super::ok_json(MemberResponse::new(&person))
}

/// Removes a person: every token they hold stops working at once; what they made stays.
/// Admins remove members and viewers; only the owner removes admins; the owner cannot be
/// removed.
#[utoipa::path(delete, path = "/api/team/members/{id}", tag = "team", security(("bearer" = [])),
    params(("id" = String, Path, description = "The member's id")),
    responses((status = 204, description = "Removed"), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn remove_member(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    members::remove(&ctx.db, &current.user, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Hands ownership over: the member becomes the owner, the owner an admin.
#[utoipa::path(post, path = "/api/team/transfer-ownership", tag = "team", security(("bearer" = [])),
    request_body = TransferParams,
    responses((status = 200, body = MemberResponse), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn transfer_ownership(
    OrgOwner(current): OrgOwner,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<TransferParams>,
) -> ApiResult {
    let owner = members::transfer_ownership(&ctx.db, &current.user, &params.member_id).await?;
    super::ok_json(MemberResponse::new(&owner))
}

/// Invites someone by email; inviting an email again re-sends it (the earlier link stops
/// working). Seats (people plus pending invitations) are limited by the plan.
#[utoipa::path(post, path = "/api/team/invitations", tag = "team", security(("bearer" = [])),
    request_body = InvitationParams,
    responses((status = 201, body = InvitationResponse), (status = 401, body = Envelope),
        (status = 402, body = Envelope), (status = 403, body = Envelope),
        (status = 409, body = Envelope), (status = 422, body = Envelope)))]
async fn invite(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    ApiJson(params): ApiJson<InvitationParams>,
) -> ApiResult {
    errors::validate(&params)?;
    let role = given_role(&params.org_role)?;
    if role == OrgRole::Admin {
        current.require(OrgRole::Owner)?;
    }
    let settings = Settings::from_context(&ctx)?;
    let limits = settings.plan_limits(current.org.plan());
    let plan = current.org.plan().name();
    let (sent, token) = invitations::Model::invite(
        &ctx.db,
        NewInvitation {
            org: &current.org,
            inviter: &current.user,
            email: &params.email,
            role,
            ttl: Duration::days(settings.invitation_ttl_days),
            seats: limits.seats,
            seats_message: format!(
                "{plan} accounts have room for {} people, counting pending invitations. \
                 Upgrade or remove someone to invite more.",
                limits.seats
            ),
        },
    )
    .await?;
    TeamMailer::invitation(&ctx, &current.org, &sent, &token).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(InvitationResponse::new(&sent)),
    )
        .into_response())
}

/// The organization's pending invitations, newest first.
#[utoipa::path(get, path = "/api/team/invitations", tag = "team", security(("bearer" = [])),
    responses((status = 200, body = [InvitationResponse]), (status = 401, body = Envelope),
        (status = 403, body = Envelope)))]
async fn list_invitations(OrgAdmin(current): OrgAdmin, State(ctx): State<AppContext>) -> ApiResult {
    let pending = invitations::Model::pending(&ctx.db, current.org.id).await?;
    super::ok_json(
        pending
            .iter()
            .map(InvitationResponse::new)
            .collect::<Vec<_>>(),
    )
}

/// Revokes a pending invitation: its link stops working.
#[utoipa::path(delete, path = "/api/team/invitations/{id}", tag = "team", security(("bearer" = [])),
    params(("id" = String, Path, description = "The invitation's id")),
    responses((status = 204, description = "Revoked"), (status = 401, body = Envelope),
        (status = 403, body = Envelope), (status = 404, body = Envelope)))]
async fn revoke_invitation(
    OrgAdmin(current): OrgAdmin,
    State(ctx): State<AppContext>,
    Path(id): Path<String>,
) -> ApiResult {
    invitations::Model::revoke(&ctx.db, current.org.id, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// What an invitation's link offers: who invited whom into what. Unknown, used, revoked and
/// expired links get the same 404.
#[utoipa::path(get, path = "/api/invitations/{token}", tag = "team",
    params(("token" = String, Path, description = "The token of the emailed link")),
    responses((status = 200, body = InvitationPreview), (status = 404, body = Envelope)))]
async fn show_invitation(State(ctx): State<AppContext>, Path(token): Path<String>) -> ApiResult {
    let (invitation, org) = invitations::Model::find_open(&ctx.db, &token).await?;
    super::ok_json(InvitationPreview::new(&invitation, &org))
}

/// Accepts an invitation: creates the account in the inviting organization, with the invited
/// role, and signs it in. The link works once.
#[utoipa::path(post, path = "/api/invitations/{token}/accept", tag = "team",
    params(("token" = String, Path, description = "The token of the emailed link")),
    request_body = AcceptParams,
    responses((status = 201, body = LoginResponse), (status = 404, body = Envelope),
        (status = 409, body = Envelope), (status = 422, body = Envelope)))]
async fn accept_invitation(
    State(ctx): State<AppContext>,
    Path(token): Path<String>,
    ApiJson(params): ApiJson<AcceptParams>,
) -> ApiResult {
    errors::validate(&params)?;
    let (user, org) =
        invitations::Model::accept(&ctx.db, &token, &params.name, &params.password).await?;
    let jwt = ctx.config.get_jwt_config()?;
    let body = LoginResponse {
        token: user
            .generate_jwt(&jwt.secret, jwt.expiration)
            .map_err(|e| ApiError::from(Error::from(e)))?,
        user: UserResponse::new(&user, &org),
    };
    Ok((StatusCode::CREATED, axum::Json(body)).into_response())
}

pub fn routes() -> Routes {
    Routes::new()
        .add("/api/team/members", get(list_members))
        .add("/api/team/members/{id}", put(change_role))
        .add("/api/team/members/{id}", delete(remove_member))
        .add("/api/team/transfer-ownership", post(transfer_ownership))
        .add("/api/team/invitations", post(invite))
        .add("/api/team/invitations", get(list_invitations))
        .add("/api/team/invitations/{id}", delete(revoke_invitation))
        .add("/api/invitations/{token}", get(show_invitation))
        .add("/api/invitations/{token}/accept", post(accept_invitation))
}
