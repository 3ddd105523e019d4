//! Which organizations a sweep covers, and which day is each one's (docs/product.md, "Time
//! zones"). The scheduler runs the sweep every hour; each run takes every organization's latest
//! day whose morning (8:00 local) has come (`organizations::swept_day`), and sweeps the
//! organizations of the zones that share a day together. Sweeping a day again changes nothing
//! (claims and expiries are idempotent), so a run need not know which days earlier runs swept:
//! an organization's day is swept from its first run after 8:00 local, never before, and again
//! by the runs after that until its next morning (which also catches up a run the scheduler
//! missed).

use std::{collections::BTreeMap, sync::Arc};

use chrono::{DateTime, NaiveDate, Utc};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait, Query, SelectStatement},
    QuerySelect,
};

use crate::models::{_entities::documents, organizations};

/// The organizations a sweep covers: every one (an operator's `date:`), or those whose
/// `time_zone` is one of a list (exactly as stored).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope(Option<Arc<[String]>>);

impl Scope {
    /// Every organization.
    #[must_use]
    pub fn all() -> Self {
        Self(None)
    }

    /// The organizations whose time zone is one of `zones`.
    #[must_use]
    pub fn zones(zones: Vec<String>) -> Self {
        Self(Some(zones.into()))
    }

    /// `SELECT id FROM organizations WHERE time_zone IN (...)`; `None` for every organization.
    #[must_use]
    pub fn organization_ids(&self) -> Option<SelectStatement> {
        let zones = self.0.as_ref()?;
        let mut ids = Query::select();
        ids.column(organizations::organizations::Column::Id)
            .from(organizations::Entity)
            .and_where(
                Expr::col(organizations::organizations::Column::TimeZone)
                    .is_in(zones.iter().cloned()),
            );
        Some(ids)
    }

    /// `SELECT id FROM documents WHERE organization_id IN (...)`: the documents of the
    /// organizations covered; `None` for every organization.
    #[must_use]
    pub fn document_ids(&self) -> Option<SelectStatement> {
        let orgs = self.organization_ids()?;
        let mut ids = Query::select();
        ids.column(documents::Column::Id)
            .from(documents::Entity)
            .and_where(Expr::col(documents::Column::OrganizationId).in_subquery(orgs));
        Some(ids)
    }
}

/// The days due at `now`: each day with the zones whose organizations' latest morning it is
/// (in date order; at most three, as zones lie within a day of UTC either way).
///
/// # Errors
/// Database errors.
pub async fn due_days<C: ConnectionTrait>(
    db: &C,
    now: DateTime<Utc>,
) -> Result<Vec<(NaiveDate, Scope)>> {
    let zones: Vec<String> = organizations::Entity::find()
        .select_only()
        .column(organizations::organizations::Column::TimeZone)
        .distinct()
        .into_tuple()
        .all(db)
        .await?;
    let mut days: BTreeMap<NaiveDate, Vec<String>> = BTreeMap::new();
    for zone in zones {
        let day = organizations::swept_day(organizations::zone_named(&zone), now);
        days.entry(day).or_default().push(zone);
    }
    Ok(days
        .into_iter()
        .map(|(day, zones)| (day, Scope::zones(zones)))
        .collect())
}
