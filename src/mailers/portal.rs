#![allow(non_upper_case_globals)]

use loco_rs::prelude::*;
use serde_json::json;

use crate::{
    models::{_entities::vendors, documents, organizations, users},
    settings::Settings,
};

static received: Dir<'_> = include_dir!("src/mailers/portal/received");

pub struct PortalMailer;

impl PortalMailer {
    /// Tells every user of the organization that a vendor sent a document.
    ///
    /// # Errors
    /// When the users cannot be read or a message cannot be rendered or queued.
    pub async fn document_received(
        ctx: &AppContext,
        org: &organizations::Model,
        vendor: &vendors::Model,
        doc: &documents::Model,
        label: &str,
    ) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        let members = users::Entity::find()
            .filter(users::users::Column::OrganizationId.eq(org.id))
            .all(&ctx.db)
            .await?;
        for member in members {
            super::deliver(
                ctx,
                &received,
                &member.email,
                json!({
                    "name": member.name,
                    "vendor": vendor.name,
                    "label": label,
                    "fileName": doc.file_name,
                    "expirationDate": doc.expiration_date.map(crate::models::compliance::display_date),
                    "vendorUrl": format!("{}/vendors/{}", settings.app_url, vendor.key),
                }),
            )
            .await?;
        }
        Ok(())
    }
}
