//! Readings of certificates by AI (docs/product.md, "Reading certificates with AI"): one row
//! per attempt, `queued` -> `running` -> `done`, `failed` or `unavailable`, each end with its
//! reason in words. A reading keeps a suggestion; it never writes the document's coverage (a
//! person accepts it). A reading still `running` after `settings.ai.stale_after_seconds`
//! belonged to a worker that died: the scheduler's sweep fails it with a reason, so none stays
//! "running" for good, and the person may ask again.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, TimeZone, Utc};
use loco_rs::prelude::*;
use sea_orm::{ActiveValue, QueryOrder, QuerySelect};
use serde::Serialize;

pub use super::_entities::extractions::{self, ActiveModel, Entity, Model};
use super::{
    _entities::{documents, organizations},
    coverage::Coverage,
    refusal::Refusal,
    secret_tokens,
};
use crate::services::{ai::Usage, certificates::Reading};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// Where a reading is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExtractionStatus {
    Queued,
    Running,
    Done,
    /// The AI service failed, timed out or answered nonsense; `reason` says which.
    Failed,
    /// The file cannot be read by the configured model (a scan, and no image reading), or the
    /// month's allowance is used up; `reason` says which.
    Unavailable,
}

impl ExtractionStatus {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Unavailable => "unavailable",
        }
    }

    fn parse(raw: &str) -> Self {
        [
            Self::Queued,
            Self::Running,
            Self::Done,
            Self::Failed,
            Self::Unavailable,
        ]
        .into_iter()
        .find(|s| s.as_str() == raw)
        .unwrap_or(Self::Failed)
    }
}

impl Model {
    #[must_use]
    pub fn status(&self) -> ExtractionStatus {
        ExtractionStatus::parse(&self.status)
    }

    /// The coverage read, when done.
    #[must_use]
    pub fn suggestion(&self) -> Option<Coverage> {
        Coverage::stored(self.suggestion.as_deref())
    }

    /// Each field's confidence, 0 to 1, by path.
    #[must_use]
    pub fn confidence(&self) -> BTreeMap<String, f64> {
        self.confidence
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok())
            .unwrap_or_default()
    }

    /// What was read and left out, in words.
    #[must_use]
    pub fn notes(&self) -> Vec<String> {
        self.notes
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok())
            .unwrap_or_default()
    }

    /// Queued or running.
    #[must_use]
    pub fn is_open(&self) -> bool {
        matches!(
            self.status(),
            ExtractionStatus::Queued | ExtractionStatus::Running
        )
    }
}

/// What a reading shows that a person should look at, in words, whatever the vendor's
/// requirement set: the insured not being the vendor, a certificate dated more than a year
/// before `today`, and a certificate holder that is not the organization.
#[must_use]
pub fn checks(
    read: &Coverage,
    vendor_name: &str,
    org_name: &str,
    today: chrono::NaiveDate,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(insured) = read.insured.as_deref() {
        if !super::gaps::same_business(insured, vendor_name) {
            out.push(format!(
                "The certificate names {insured}, not {vendor_name}."
            ));
        }
    }
    if let Some(date) = read.certificate_date {
        if date < today - chrono::Months::new(12) {
            out.push(format!(
                "The certificate is dated {}, more than a year ago: ask for a current one.",
                super::compliance::display_date(date)
            ));
        }
    }
    if let Some(holder) = read.certificate_holder.as_deref() {
        if !super::gaps::same_business(holder, org_name) {
            out.push(format!(
                "The certificate holder is {holder}, not {org_name}."
            ));
        }
    }
    out
}

/// The start of the calendar month (UTC) `now` is in.
fn month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now)
}

/// Readings the organization asked the AI service for this month (not those `unavailable`,
/// which never reached it).
///
/// # Errors
/// Database errors.
pub async fn used_this_month<C: ConnectionTrait>(
    db: &C,
    org_id: i64,
    now: DateTime<Utc>,
) -> Result<u64> {
    Ok(Entity::find()
        .filter(extractions::Column::OrganizationId.eq(org_id))
        .filter(extractions::Column::CreatedAt.gte(month_start(now)))
        .filter(extractions::Column::Status.ne(ExtractionStatus::Unavailable.as_str()))
        .count(db)
        .await?)
}

/// The month's readings over every organization: how many and what they cost (the admin
/// area's figure).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MonthReadings {
    pub readings: u64,
    pub cost_micros: i64,
}

/// # Errors
/// Database errors.
pub async fn month_readings(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<MonthReadings> {
    let costs: Vec<i64> = Entity::find()
        .select_only()
        .column(extractions::Column::CostMicros)
        .filter(extractions::Column::CreatedAt.gte(month_start(now)))
        .filter(extractions::Column::Status.ne(ExtractionStatus::Unavailable.as_str()))
        .into_tuple()
        .all(db)
        .await?;
    Ok(MonthReadings {
        readings: costs.len() as u64,
        cost_micros: costs.iter().sum(),
    })
}

/// The latest reading of a document, if any.
///
/// # Errors
/// Database errors.
pub async fn latest<C: ConnectionTrait>(db: &C, document_id: i64) -> Result<Option<Model>> {
    Ok(Entity::find()
        .filter(extractions::Column::DocumentId.eq(document_id))
        .order_by_desc(extractions::Column::Id)
        .one(db)
        .await?)
}

/// Who asked: a person (by public id), or the upload itself.
pub type RequestedBy = Option<uuid::Uuid>;

fn new_row(
    doc: &documents::Model,
    requested_by: RequestedBy,
    status: ExtractionStatus,
) -> ActiveModel {
    let now = Utc::now();
    ActiveModel {
        pid: ActiveValue::Set(uuid::Uuid::new_v4()),
        status: ActiveValue::Set(status.as_str().to_string()),
        prompt_tokens: ActiveValue::Set(0),
        completion_tokens: ActiveValue::Set(0),
        cost_micros: ActiveValue::Set(0),
        requested_by_pid: ActiveValue::Set(requested_by),
        organization_id: ActiveValue::Set(doc.organization_id),
        document_id: ActiveValue::Set(doc.id),
        created_at: ActiveValue::Set(now.into()),
        updated_at: ActiveValue::Set(now.into()),
        ..Default::default()
    }
}

/// What asking for a reading came to.
#[derive(Debug)]
pub enum Queued {
    /// Queued now, or already queued or running.
    Reading(Box<Model>),
    /// The plan's month allowance is used: a sentence naming the plan.
    UsedUp(String),
}

/// Queues a reading of `doc` within the plan's month allowance, under the organization's row
/// lock so that two at once cannot both take the last one. A reading of it already queued or
/// running is answered instead of a second.
///
/// # Errors
/// Database errors.
pub async fn queue(
    db: &DatabaseConnection,
    org: &organizations::Model,
    doc: &documents::Model,
    requested_by: RequestedBy,
    allowance: u64,
) -> Result<Queued> {
    let txn = super::begin_write(db).await?;
    organizations::Entity::find_by_id(org.id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(Refusal::NotFound)?;
    if let Some(open) = latest(&txn, doc.id).await?.filter(Model::is_open) {
        txn.commit().await?;
        return Ok(Queued::Reading(Box::new(open)));
    }
    if used_this_month(&txn, org.id, Utc::now()).await? >= allowance {
        return Ok(Queued::UsedUp(format!(
            "The {} plan reads {allowance} certificates with AI a month, and this month's are \
             used. Enter the coverage by hand, or upgrade for more.",
            org.plan().name()
        )));
    }
    let row = new_row(doc, requested_by, ExtractionStatus::Queued)
        .insert(&txn)
        .await?;
    txn.commit().await?;
    Ok(Queued::Reading(Box::new(row)))
}

/// Records a reading that cannot happen, with why (shown on the document's page).
///
/// # Errors
/// Database errors.
pub async fn unavailable(
    db: &DatabaseConnection,
    doc: &documents::Model,
    requested_by: RequestedBy,
    reason: &str,
) -> Result<Model> {
    let mut row = new_row(doc, requested_by, ExtractionStatus::Unavailable);
    let now = Utc::now();
    row.reason = ActiveValue::Set(Some(reason.to_string()));
    row.finished_at = ActiveValue::Set(Some(now.into()));
    Ok(row.insert(db).await?)
}

impl Model {
    /// Takes a queued reading: `running`. `None` when it is no longer queued (done by another
    /// worker, or failed by the sweep).
    ///
    /// # Errors
    /// Database errors.
    pub async fn start(db: &DatabaseConnection, id: i64) -> Result<Option<Self>> {
        let now = Utc::now();
        let taken = Entity::update_many()
            .col_expr(
                extractions::Column::Status,
                Expr::value(ExtractionStatus::Running.as_str()),
            )
            .col_expr(extractions::Column::StartedAt, Expr::value(Some(now)))
            .col_expr(extractions::Column::UpdatedAt, Expr::value(now))
            .filter(extractions::Column::Id.eq(id))
            .filter(extractions::Column::Status.eq(ExtractionStatus::Queued.as_str()))
            .exec(db)
            .await?;
        if taken.rows_affected == 0 {
            return Ok(None);
        }
        Ok(Entity::find_by_id(id).one(db).await?)
    }

    /// Ends a running reading; `false` when it was no longer running (the sweep failed it).
    async fn finish(self, db: &DatabaseConnection, mut row: ActiveModel) -> Result<bool> {
        let now = Utc::now();
        row.finished_at = ActiveValue::Set(Some(now.into()));
        row.updated_at = ActiveValue::Set(now.into());
        let updated = Entity::update_many()
            .set(row)
            .filter(extractions::Column::Id.eq(self.id))
            .filter(extractions::Column::Status.eq(ExtractionStatus::Running.as_str()))
            .exec(db)
            .await?;
        Ok(updated.rows_affected > 0)
    }

    /// Keeps what was read.
    ///
    /// # Errors
    /// Database errors.
    pub async fn succeed(
        self,
        db: &DatabaseConnection,
        reading: &Reading,
        cost_micros: i64,
    ) -> Result<bool> {
        let row = ActiveModel {
            status: ActiveValue::Set(ExtractionStatus::Done.as_str().to_string()),
            suggestion: ActiveValue::Set(Some(serde_json::to_string(&reading.coverage)?)),
            confidence: ActiveValue::Set(Some(serde_json::to_string(&reading.confidence)?)),
            notes: ActiveValue::Set(Some(serde_json::to_string(&reading.notes)?)),
            model: ActiveValue::Set(Some(reading.model.clone())),
            prompt_tokens: ActiveValue::Set(tokens(reading.usage.prompt_tokens)),
            completion_tokens: ActiveValue::Set(tokens(reading.usage.completion_tokens)),
            cost_micros: ActiveValue::Set(cost_micros),
            ..Default::default()
        };
        self.finish(db, row).await
    }

    /// Ends the reading with a reason: `failed` (the service) or `unavailable` (the file).
    ///
    /// # Errors
    /// Database errors.
    pub async fn end(
        self,
        db: &DatabaseConnection,
        status: ExtractionStatus,
        reason: &str,
        model: Option<&str>,
        usage: Option<(Usage, i64)>,
    ) -> Result<bool> {
        let (usage, cost) = usage.unwrap_or_default();
        let row = ActiveModel {
            status: ActiveValue::Set(status.as_str().to_string()),
            reason: ActiveValue::Set(Some(reason.chars().take(1000).collect())),
            model: ActiveValue::Set(model.map(ToString::to_string)),
            prompt_tokens: ActiveValue::Set(tokens(usage.prompt_tokens)),
            completion_tokens: ActiveValue::Set(tokens(usage.completion_tokens)),
            cost_micros: ActiveValue::Set(cost),
            ..Default::default()
        };
        self.finish(db, row).await
    }
}

/// How long a portal upload's token shows its reading to the vendor.
pub const PORTAL_TOKEN_HOURS: i64 = 2;

impl Model {
    /// Gives the reading of a portal upload a token for the vendor: 32 random bytes, of which
    /// only the digest is kept. The vendor sees and corrects this one reading with it, for
    /// [`PORTAL_TOKEN_HOURS`].
    ///
    /// # Errors
    /// Database errors.
    pub async fn grant_portal_token(&self, db: &DatabaseConnection) -> Result<String> {
        let token = secret_tokens::new();
        Entity::update_many()
            .col_expr(
                extractions::Column::PortalTokenDigest,
                Expr::value(Some(secret_tokens::digest(&token))),
            )
            .filter(extractions::Column::Id.eq(self.id))
            .exec(db)
            .await?;
        Ok(token)
    }

    /// The reading a portal token shows, while it is fresh.
    ///
    /// # Errors
    /// `NotFound` for a token unknown or past its time (not told apart); database errors.
    pub async fn of_portal_token(db: &DatabaseConnection, token: &str) -> Result<Self> {
        let token = token.trim();
        if token.is_empty() {
            return Err(Refusal::NotFound.into());
        }
        let since = Utc::now() - chrono::Duration::hours(PORTAL_TOKEN_HOURS);
        Ok(Entity::find()
            .filter(extractions::Column::PortalTokenDigest.eq(secret_tokens::digest(token)))
            .filter(extractions::Column::CreatedAt.gte(since))
            .one(db)
            .await?
            .ok_or(Refusal::NotFound)?)
    }

    /// The vendor's correction of what was read, before it is sent: it becomes the suggestion
    /// (with a note saying who wrote it) that a person of the organization then accepts. Not
    /// while the reading is under way.
    ///
    /// # Errors
    /// `Taken` (`reading_in_progress`) while queued or running; database errors.
    pub async fn correct_by_vendor(
        self,
        db: &DatabaseConnection,
        coverage: &Coverage,
    ) -> Result<Self> {
        if self.is_open() {
            return Err(Refusal::Taken {
                code: "reading_in_progress",
                message:
                    "The certificate is still being read. Correct it once the reading is done."
                        .into(),
            }
            .into());
        }
        let mut notes = self.notes();
        let note = "Corrected by the vendor through the portal.".to_string();
        if !notes.contains(&note) {
            notes.push(note);
        }
        let now = Utc::now();
        let mut row: ActiveModel = self.into();
        row.status = ActiveValue::Set(ExtractionStatus::Done.as_str().to_string());
        row.reason = ActiveValue::Set(None);
        row.suggestion = ActiveValue::Set(Some(serde_json::to_string(coverage)?));
        row.notes = ActiveValue::Set(Some(serde_json::to_string(&notes)?));
        // The model's confidence no longer speaks for what the vendor wrote.
        row.confidence = ActiveValue::Set(Some("{}".to_string()));
        row.updated_at = ActiveValue::Set(now.into());
        Ok(row.update(db).await?)
    }
}

fn tokens(count: u32) -> i32 {
    i32::try_from(count).unwrap_or(i32::MAX)
}

/// Fails every reading still `running` since before `stale_after` ago, and every one still
/// `queued` for ten times that (their job was lost): none stays open for good. Returns how
/// many.
///
/// # Errors
/// Database errors.
pub async fn fail_stale(db: &DatabaseConnection, stale_after: chrono::Duration) -> Result<u64> {
    let now = Utc::now();
    let mut failed = 0;
    for (status, since, column) in [
        (
            ExtractionStatus::Running,
            now - stale_after,
            extractions::Column::StartedAt,
        ),
        (
            ExtractionStatus::Queued,
            now - stale_after * 10,
            extractions::Column::CreatedAt,
        ),
    ] {
        let done = Entity::update_many()
            .col_expr(
                extractions::Column::Status,
                Expr::value(ExtractionStatus::Failed.as_str()),
            )
            .col_expr(
                extractions::Column::Reason,
                Expr::value(
                    "The reading stopped before it finished (its worker ended). Try again.",
                ),
            )
            .col_expr(extractions::Column::FinishedAt, Expr::value(Some(now)))
            .col_expr(extractions::Column::UpdatedAt, Expr::value(now))
            .filter(extractions::Column::Status.eq(status.as_str()))
            .filter(column.lt(since))
            .exec(db)
            .await?;
        failed += done.rows_affected;
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> chrono::NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn a_reading_is_checked_against_the_vendor_the_date_and_the_organization() {
        let read = Coverage {
            certificate_date: Some(day("2025-03-15")),
            insured: Some("Someone Else Holdings".into()),
            certificate_holder: Some("Harbor Property Group, Inc.".into()),
            ..Coverage::default()
        };
        assert_eq!(
            checks(&read, "Granite Builders LLC", "Harbor Property Group", day("2026-11-27")),
            vec![
                "The certificate names Someone Else Holdings, not Granite Builders LLC.",
                "The certificate is dated Mar 15, 2025, more than a year ago: ask for a current one.",
            ]
        );
        assert_eq!(
            checks(
                &read,
                "Someone Else Holdings",
                "Other Org",
                day("2026-03-15")
            ),
            vec!["The certificate holder is Harbor Property Group, Inc., not Other Org."],
            "a year to the day is not more than a year"
        );
    }
}
