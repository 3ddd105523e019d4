#![allow(non_upper_case_globals)]

use loco_rs::prelude::*;
use serde_json::json;

use crate::{models::users, settings::Settings};

static forgot: Dir<'_> = include_dir!("src/mailers/auth/forgot");

pub struct AuthMailer;

impl AuthMailer {
    /// The password-reset email with its one-time link.
    ///
    /// # Errors
    /// When the email cannot be rendered or handed on.
    pub async fn forgot_password(ctx: &AppContext, user: &users::Model, token: &str) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        super::deliver(
            ctx,
            &forgot,
            &user.email,
            json!({
                "name": user.name,
                "resetUrl": format!("{}/reset-password?token={token}", settings.app_url),
                "ttlMinutes": settings.reset_token_ttl_minutes,
                "supportEmail": settings.support_email,
            }),
        )
        .await
    }
}
