#![allow(non_upper_case_globals)]

use loco_rs::prelude::*;
use serde_json::json;

use crate::{
    models::{organizations, unsubscribe, users, vendors::VendorCounts},
    settings::Settings,
};

static weekly_summary: Dir<'_> = include_dir!("src/mailers/reports/weekly_summary");

/// A document expiring in the coming week, as the summary lists it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ExpiringItem {
    pub vendor: String,
    pub label: String,
    pub date: String,
}

/// A vendor short of its requirement set, as the summary lists it: its first gap in words and
/// how many more it has.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GapItem {
    pub vendor: String,
    pub first: String,
    pub more: usize,
}

pub struct ReportMailer;

impl ReportMailer {
    /// The weekly summary to one user of the organization, with its one-click unsubscribe link
    /// in the body and in `List-Unsubscribe` (RFC 8058).
    ///
    /// # Errors
    /// When the message cannot be rendered or handed on.
    pub async fn weekly_summary(
        ctx: &AppContext,
        org: &organizations::Model,
        user: &users::Model,
        week_of: &str,
        counts: &VendorCounts,
        expiring: &[ExpiringItem],
        with_gaps: &[GapItem],
    ) -> Result<()> {
        let settings = Settings::from_context(ctx)?;
        let unsubscribe = unsubscribe::link(ctx, &settings.app_url, user)?;
        super::deliver_with(
            ctx,
            &weekly_summary,
            &user.email,
            json!({
                "name": user.name,
                "organization": org.name,
                "weekOf": week_of,
                "total": counts.total,
                "current": counts.current,
                "expiringSoon": counts.expiring_soon,
                "expired": counts.expired,
                "missing": counts.missing,
                "expiring": expiring,
                "withGaps": with_gaps,
                "reportsUrl": format!("{}/reports", settings.app_url.trim_end_matches('/')),
                "unsubscribeUrl": unsubscribe,
            }),
            &super::Headers {
                list_unsubscribe: Some(unsubscribe),
                ..Default::default()
            },
        )
        .await
    }
}
