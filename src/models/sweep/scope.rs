//! Which organizations a sweep covers, which day is each one's, and which rows are due then
//! (docs/product.md, "Time zones"). The scheduler runs the sweep every hour; each run takes every
//! organization's latest day whose morning (8:00 local) has come (`organizations::swept_day`), and
//! sweeps the organizations of the zones that share a day together. Sweeping a day again changes
//! nothing (claims and expiries are idempotent), so a run need not know which days earlier runs
//! swept: an organization's day is swept from its first run after 8:00 local, never before, and
//! again by the runs after that until its next morning (which also catches up a run the scheduler
//! missed).

use std::{collections::BTreeMap, sync::Arc};

use chrono::{DateTime, NaiveDate, Utc};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait, Query, SelectStatement},
    QuerySelect,
};

use super::ExpiryKey;
use crate::models::{
    _entities::{documents, pending_expiries},
    organizations,
};

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

/// A batch of pending expiries: those of `scope`'s organizations due by `day`, after `after`
/// (from the first when `None`) and up to `end` (to the last when `None`).
#[derive(Debug, Clone, Copy)]
pub struct Due<'a> {
    pub day: NaiveDate,
    pub scope: &'a Scope,
    pub after: Option<ExpiryKey>,
    pub end: Option<ExpiryKey>,
}

/// The due pending expiries after `after` and up to `end`, in (date, document) order, when
/// given. Columns are qualified: `documents` has an `expiration_date` too.
pub(super) fn due_expiries(
    &Due {
        day,
        scope,
        after,
        end,
    }: &Due<'_>,
) -> Condition {
    let key = || {
        Expr::tuple([
            Expr::col((
                pending_expiries::Entity,
                pending_expiries::Column::ExpirationDate,
            )),
            Expr::col((
                pending_expiries::Entity,
                pending_expiries::Column::DocumentId,
            )),
        ])
    };
    let value = |(date, id): ExpiryKey| Expr::tuple([Expr::val(date), Expr::val(id)]);
    let mut due = Condition::all().add(
        Expr::col((
            pending_expiries::Entity,
            pending_expiries::Column::ExpirationDate,
        ))
        .lte(day),
    );
    if let Some(documents) = scope.document_ids() {
        due = due.add(
            Expr::col((
                pending_expiries::Entity,
                pending_expiries::Column::DocumentId,
            ))
            .in_subquery(documents),
        );
    }
    if let Some(after) = after {
        due = due.add(key().gt(value(after)));
    }
    if let Some(end) = end {
        due = due.add(key().lte(value(end)));
    }
    due
}
