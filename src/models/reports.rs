//! The Professional plan's reports (docs/product.md, "Reports"): compliance over time from a
//! daily snapshot per organization, expirations ahead, the vendors that are not compliant and
//! why, and how vendors answered renewal requests. A day without a snapshot is reported as
//! missing, never filled in.

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use loco_rs::prelude::*;
use sea_orm::sea_query::OnConflict;

use super::_entities::report_snapshots::Column as C;

use super::{documents, organizations, report_snapshots, vendor_figures, vendors};

mod expirations;
mod non_compliant;
mod responsiveness;

pub use expirations::{
    expirations, ExpirationWeek, ExpirationsReport, ExpiringDocument, ExpiringVendor,
    EXPIRATION_COLUMNS, EXPIRATION_WEEKS,
};
pub use non_compliant::{non_compliant, NonCompliantReport, NonCompliantVendor};
pub use responsiveness::{responsiveness, Responsiveness, ResponsivenessReport};

/// Begins a transaction that only reads, for a report read in several statements while it is
/// sent: on `PostgreSQL` repeatable read, so that every statement sees the database as the first
/// found it; on `SQLite` a deferred transaction, whose first read fixes what it sees (WAL).
///
/// # Errors
/// When the transaction cannot begin.
async fn begin_read(db: &DatabaseConnection) -> Result<sea_orm::DatabaseTransaction> {
    Ok(match db.get_database_backend() {
        sea_orm::DbBackend::Postgres => {
            db.begin_with_config(
                Some(sea_orm::IsolationLevel::RepeatableRead),
                Some(sea_orm::AccessMode::ReadOnly),
            )
            .await?
        }
        _ => db.begin().await?,
    })
}

/// A report read a batch of rows at a time in one read transaction ([`begin_read`]), so that
/// its first rows can be sent while the rest are read.
trait ReadInBatches: Send + Sized + 'static {
    type Row: Send + 'static;

    /// The next batch's rows, or `None` after the last.
    fn next_rows(
        &mut self,
    ) -> impl std::future::Future<Output = Result<Option<Vec<Self::Row>>>> + Send;

    /// The read transaction, to end.
    fn into_read(self) -> sea_orm::DatabaseTransaction;
}

/// Every row of `report`, a batch at a time, the read ended after the last (or rolled back when
/// the stream is dropped before it: a client that went away).
fn rows_in_batches<R: ReadInBatches>(
    report: R,
) -> futures_util::stream::BoxStream<'static, Result<R::Row>> {
    use futures_util::{StreamExt, TryStreamExt};
    futures_util::stream::try_unfold(report, |mut report| async move {
        let Some(batch) = report.next_rows().await? else {
            report.into_read().commit().await?;
            return Ok(None);
        };
        Ok::<_, Error>(Some((batch, report)))
    })
    .map_ok(|batch| futures_util::stream::iter(batch.into_iter().map(Ok)))
    .try_flatten()
    .boxed()
}

/// How long snapshots are kept (at least 400 days, as the yearly trend needs).
pub const SNAPSHOT_RETENTION_DAYS: i64 = 800;

/// The organization's figures as they stand on `day`: what a snapshot records, without
/// recording it.
///
/// # Errors
/// Database errors.
pub async fn figures_on(
    db: &DatabaseConnection,
    org_id: i64,
    day: NaiveDate,
) -> Result<report_snapshots::Model> {
    let vendors = vendor_figures::of_organization(db, org_id, day)
        .await?
        .vendors;
    let docs = documents::Model::chart(db, org_id, day).await?;
    let count = |n: u64| i32::try_from(n).unwrap_or(i32::MAX);
    let now = chrono::Utc::now().into();
    Ok(report_snapshots::Model {
        id: 0,
        organization_id: org_id,
        day,
        vendors_current: count(vendors.current),
        vendors_expiring_soon: count(vendors.expiring_soon),
        vendors_expired: count(vendors.expired),
        vendors_missing: count(vendors.missing),
        documents_current: count(docs.current),
        documents_expiring_soon: count(docs.expiring_soon),
        documents_expired: count(docs.expired),
        created_at: now,
        updated_at: now,
    })
}

/// Takes (or takes again) the organization's snapshot for `day`: one row per day, whatever
/// the number of runs.
///
/// # Errors
/// Database errors.
pub async fn take_snapshot(db: &DatabaseConnection, org_id: i64, day: NaiveDate) -> Result<()> {
    let mut row =
        report_snapshots::ActiveModel::from(figures_on(db, org_id, day).await?).reset_all();
    row.id = ActiveValue::NotSet;
    report_snapshots::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([C::OrganizationId, C::Day])
                .update_columns([
                    C::VendorsCurrent,
                    C::VendorsExpiringSoon,
                    C::VendorsExpired,
                    C::VendorsMissing,
                    C::DocumentsCurrent,
                    C::DocumentsExpiringSoon,
                    C::DocumentsExpired,
                    C::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The daily job: every organization's snapshot for its own day at `now` (its time zone's
/// date), and old snapshots dropped. Returns how many organizations were counted.
///
/// # Errors
/// Database errors (organizations already counted stay counted).
pub async fn take_all_snapshots(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<usize> {
    let orgs = organizations::Entity::find().all(db).await?;
    for org in &orgs {
        take_snapshot(db, org.id, org.today_at(now)).await?;
    }
    let day = now.date_naive();
    report_snapshots::Entity::delete_many()
        .filter(
            report_snapshots::report_snapshots::Column::Day
                .lt(day - Duration::days(SNAPSHOT_RETENTION_DAYS)),
        )
        .exec(db)
        .await?;
    Ok(orgs.len())
}

/// One day of the compliance trend.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendPoint {
    pub date: NaiveDate,
    pub vendors_current: i32,
    pub vendors_expiring_soon: i32,
    pub vendors_expired: i32,
    pub vendors_missing: i32,
    pub documents_current: i32,
    pub documents_expiring_soon: i32,
    pub documents_expired: i32,
    /// Current vendors as a percentage of all vendors (0 to 100); null without vendors.
    pub compliance_rate: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct Rate {
    pub current: Option<f64>,
    pub start: Option<f64>,
    /// `current - start`, in percentage points.
    pub change: Option<f64>,
}

/// Compliance over the last `days` days.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComplianceTrend {
    pub days: i64,
    pub points: Vec<TrendPoint>,
    /// Days of the period (since the organization exists) without a snapshot.
    pub missing_days: Vec<NaiveDate>,
    pub rate: Rate,
}

#[allow(clippy::cast_precision_loss)]
fn rate_of(row: &report_snapshots::Model) -> Option<f64> {
    let total =
        row.vendors_current + row.vendors_expiring_soon + row.vendors_expired + row.vendors_missing;
    (total > 0).then(|| f64::from(row.vendors_current) * 100.0 / f64::from(total))
}

/// The trend of the last `days` days up to `today`: the snapshots taken before today, then
/// today's figures as they stand.
///
/// # Errors
/// Database errors.
pub async fn compliance_trend(
    db: &DatabaseConnection,
    org: &organizations::Model,
    days: i64,
    today: NaiveDate,
) -> Result<ComplianceTrend> {
    let created = org.created_at.with_timezone(&org.zone()).date_naive();
    let from = (today - Duration::days(days - 1)).max(created);
    // The days before today from their snapshots; today's figures as they stand, so that
    // reading the report writes nothing (the daily task records today's snapshot).
    let mut rows = report_snapshots::Entity::find()
        .filter(C::OrganizationId.eq(org.id))
        .filter(C::Day.gte(from))
        .filter(C::Day.lt(today))
        .order_by_asc(C::Day)
        .all(db)
        .await?;
    rows.push(figures_on(db, org.id, today).await?);
    let taken: std::collections::HashSet<NaiveDate> = rows.iter().map(|r| r.day).collect();
    let missing_days = from
        .iter_days()
        .take_while(|d| *d <= today)
        .filter(|d| !taken.contains(d))
        .collect();
    let points: Vec<TrendPoint> = rows
        .iter()
        .map(|r| TrendPoint {
            date: r.day,
            vendors_current: r.vendors_current,
            vendors_expiring_soon: r.vendors_expiring_soon,
            vendors_expired: r.vendors_expired,
            vendors_missing: r.vendors_missing,
            documents_current: r.documents_current,
            documents_expiring_soon: r.documents_expiring_soon,
            documents_expired: r.documents_expired,
            compliance_rate: rate_of(r),
        })
        .collect();
    let start = points.first().and_then(|p| p.compliance_rate);
    let current = points.last().and_then(|p| p.compliance_rate);
    Ok(ComplianceTrend {
        days,
        missing_days,
        rate: Rate {
            current,
            start,
            change: current.zip(start).map(|(c, s)| c - s),
        },
        points,
    })
}

/// The organization's vendors' company keys and names by id: every vendor's, or only those
/// `among` selects.
///
/// # Errors
/// Database errors.
async fn vendor_names<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    among: Option<Condition>,
) -> Result<HashMap<i64, (String, String)>> {
    use vendors::vendors::Column as V;
    let mut select = vendors::Entity::find().in_tenant(org_id);
    if let Some(among) = among {
        select = select.filter(among);
    }
    let rows: Vec<(i64, String, String)> = select
        .select_only()
        .columns([V::Id, V::Key, V::Name])
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, key, name)| (id, (key, name)))
        .collect())
}
