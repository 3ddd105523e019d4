//! Sends one organization's weekly summary (docs/product.md, "Reports"): once per week, however
//! often the job runs, to each user who has not turned it off. Professional organizations only.

use chrono::{Datelike, Duration, NaiveDate};
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{
    mailers::reports::{ExpiringItem, GapItem, ReportMailer},
    models::{
        compliance::display_date, organizations, reports, users, vendor_figures, weekly_summaries,
    },
};

pub struct WeeklySummaryWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WeeklySummaryArgs {
    pub organization_id: i64,
    /// The organization's day the summary is for (the scheduled run's); absent in jobs queued
    /// before it was passed: the organization's date when the job runs.
    #[serde(default)]
    pub day: Option<NaiveDate>,
}

/// The Monday of `day`'s week.
#[must_use]
pub fn week_start(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

#[async_trait]
impl BackgroundWorker<WeeklySummaryArgs> for WeeklySummaryWorker {
    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// Database errors, or an email that could not be handed on (the week's row is then taken
    /// back, so the next run sends it).
    async fn perform(&self, args: WeeklySummaryArgs) -> Result<()> {
        let result: Result<()> = async {
            let db = &self.ctx.db;
            let org = organizations::Model::find_by_id(db, args.organization_id).await?;
            if org.plan() != organizations::Plan::Professional {
                return Ok(());
            }
            let day = args.day.unwrap_or_else(|| org.today());
            let week = week_start(day);
            if !weekly_summaries::claim(db, org.id, week).await? {
                return Ok(());
            }
            let sent = self.send(&org, day).await;
            if sent.is_err() {
                weekly_summaries::release(db, org.id, week).await?;
            }
            sent
        }
        .await;
        crate::infra::observability::job_done("weekly_summary", &result);
        result
    }
}

impl WeeklySummaryWorker {
    async fn send(&self, org: &organizations::Model, day: NaiveDate) -> Result<()> {
        let db = &self.ctx.db;
        let counts = vendor_figures::of_organization(db, org.id, day)
            .await?
            .vendors;
        let weeks = reports::expirations(db, org.id, day).await?;
        let expiring: Vec<ExpiringItem> = weeks
            .first()
            .map(|w| {
                w.vendors
                    .iter()
                    .flat_map(|v| {
                        v.documents.iter().map(|d| ExpiringItem {
                            vendor: v.name.clone(),
                            label: d.label.clone(),
                            date: display_date(d.expiration_date),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let readers = users::Entity::find()
            .filter(users::users::Column::OrganizationId.eq(org.id))
            .filter(users::users::Column::WeeklySummary.eq(true))
            .all(db)
            .await?;
        let week_of = display_date(week_start(day));
        let short = crate::models::gaps::Review::vendors_with_gaps(db, org.id, day).await?;
        let mut with_gaps: Vec<GapItem> = short
            .into_iter()
            .filter_map(|(vendor, review)| {
                let mut counting = review.counting().into_iter();
                let first = counting.next()?;
                Some(GapItem {
                    vendor: vendor.name,
                    first,
                    more: counting.len(),
                })
            })
            .collect();
        with_gaps.sort_by_key(|g| g.vendor.to_lowercase());
        for user in &readers {
            ReportMailer::weekly_summary(
                &self.ctx, org, user, &week_of, &counts, &expiring, &with_gaps,
            )
            .await?;
        }
        Ok(())
    }
}
