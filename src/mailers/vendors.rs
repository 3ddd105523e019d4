#![allow(non_upper_case_globals)]

use loco_rs::prelude::*;
use serde_json::json;

use crate::{
    models::{
        _entities::{users, vendors},
        bulk::RenewalAsk,
        organizations,
    },
    settings::Settings,
};

static documents_request: Dir<'_> = include_dir!("src/mailers/vendors/documents_request");
static gaps_request: Dir<'_> = include_dir!("src/mailers/vendors/gaps_request");

pub struct VendorMailer;

impl VendorMailer {
    /// Asks a vendor, on the organization's behalf, for the documents not on file as current,
    /// with the portal link and its company key (as the reminder emails do). The vendor's reply
    /// goes to `sender`, the member who asked for it.
    ///
    /// # Errors
    /// When the message cannot be rendered or handed on.
    pub async fn documents_request(
        ctx: &AppContext,
        org: &organizations::Model,
        ask: &RenewalAsk,
        sender: &users::Model,
    ) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        super::deliver_with(
            ctx,
            &documents_request,
            &ask.vendor.email,
            json!({
                "vendor": ask.vendor.name,
                "organization": org.name,
                "wanted": ask.wanted,
                "companyKey": ask.vendor.key,
                "uploadUrl": format!("{}/vendor-upload", settings.app_url.trim_end_matches('/')),
            }),
            &super::Headers::reply_to(&sender.name, &sender.email),
        )
        .await
    }

    /// Asks a vendor, on the organization's behalf, to correct its certificates: the gaps in
    /// words, with the portal link and its company key. The vendor's reply goes to `sender`.
    ///
    /// # Errors
    /// When the message cannot be rendered or handed on.
    pub async fn gaps_request(
        ctx: &AppContext,
        org: &organizations::Model,
        vendor: &vendors::Model,
        gaps: &[String],
        sender: &users::Model,
    ) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        super::deliver_with(
            ctx,
            &gaps_request,
            &vendor.email,
            json!({
                "vendor": vendor.name,
                "organization": org.name,
                "gaps": gaps,
                "companyKey": vendor.key,
                "uploadUrl": format!("{}/vendor-upload", settings.app_url.trim_end_matches('/')),
            }),
            &super::Headers::reply_to(&sender.name, &sender.email),
        )
        .await
    }
}
