#![allow(non_upper_case_globals)]

use loco_rs::prelude::*;
use serde_json::json;

use crate::{
    models::{invitations, organizations},
    settings::Settings,
};

static invitation: Dir<'_> = include_dir!("src/mailers/team/invitation");

pub struct TeamMailer;

impl TeamMailer {
    /// The invitation to join `org`, with its one-time link to the accept-invitation page.
    ///
    /// # Errors
    /// When the email cannot be rendered or handed on.
    pub async fn invitation(
        ctx: &AppContext,
        org: &organizations::Model,
        sent: &invitations::Model,
        token: &str,
    ) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        super::deliver(
            ctx,
            &invitation,
            &sent.email,
            json!({
                "invitedBy": sent.invited_by_name,
                "organization": org.name,
                "role": sent.org_role().with_article(),
                "acceptUrl": format!("{}/accept-invitation?token={token}", settings.app_url),
                "ttlDays": settings.invitation_ttl_days,
                "supportEmail": settings.support_email,
            }),
        )
        .await
    }
}
