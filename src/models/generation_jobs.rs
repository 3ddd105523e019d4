//! AI drafts (docs/product.md, "Content engine"): one job per draft, asked for by an admin or
//! scheduled by a weekly plan. A job moves `scheduled` -> `queued` -> `running` ->
//! `succeeded` | `failed` (or `scheduled` -> `cancelled`); every move is one conditional
//! UPDATE, so two schedulers or two workers never take the same job twice, and a draft is
//! saved in the same transaction as the job's success (never half a post).

use chrono::{DateTime, Datelike, Duration, FixedOffset, TimeZone, Utc};
use loco_rs::prelude::*;
use sea_orm::entity::prelude::{ActiveEnum, DeriveActiveEnum, EnumIter, StringLen};
use sea_orm::{
    sea_query::{Expr, ExprTrait},
    ConnectionTrait,
};
use serde::Deserialize;

pub use super::_entities::generation_jobs::{self, ActiveModel, Column, Entity, Model};
use super::{
    blog_posts::{self, form, markdown, PostForm},
    keywords,
    refusal::{FieldErrors, Refusal},
};
use crate::services::ai::{Brief, Failure, Generated, Usage};

// `generation_jobs.status` (decision 49).
/// Where an AI draft's job is: `scheduled` -> `queued` -> `running` -> `succeeded` or
/// `failed`, or `scheduled` -> `cancelled`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    #[sea_orm(string_value = "scheduled")]
    Scheduled,
    #[sea_orm(string_value = "queued")]
    Queued,
    #[sea_orm(string_value = "running")]
    Running,
    #[sea_orm(string_value = "succeeded")]
    Succeeded,
    #[sea_orm(string_value = "failed")]
    Failed,
    #[sea_orm(string_value = "cancelled")]
    Cancelled,
}

impl JobStatus {
    /// Whether the job's draft is still to come.
    #[must_use]
    pub const fn is_pending(self) -> bool {
        matches!(self, Self::Scheduled | Self::Queued | Self::Running)
    }
}

pub const TONES: [&str; 5] = [
    "professional",
    "friendly",
    "authoritative",
    "conversational",
    "educational",
];
pub const DEFAULT_WORD_COUNT: u32 = 1200;
/// A job whose worker died is queued again this many times in all.
pub const MAX_ATTEMPTS: i32 = 3;
/// The author of AI drafts.
pub const AUTHOR: &str = "Vendorwatch Team";

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// The AI dialog's fields, as sent (`POST /api/admin/generate-content`).
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateFields {
    /// 1 to 5 keywords of at most 100 characters, none blank, without control characters.
    #[schema(required = true, min_items = 1, max_items = 5, value_type = Vec<DraftKeyword>)]
    pub target_keywords: Vec<String>,
    /// At most 60 characters without control characters; `Vendor Management` when absent or
    /// blank.
    #[schema(max_length = 60, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")]
    pub category: Option<String>,
    /// `professional` (the default, also when absent or empty), `friendly`, `authoritative`,
    /// `conversational` or `educational`.
    #[schema(pattern = "^(professional|friendly|authoritative|conversational|educational)?$")]
    pub tone: Option<String>,
    /// 300 to 3,000; 1,200 by default.
    #[schema(minimum = 300, maximum = 3000)]
    #[serde(deserialize_with = "whole_number")]
    pub word_count: Option<i64>,
}

/// A whole number as JSON Schema counts one: `1200`, and `1200.0` too.
fn whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Option::<serde_json::Number>::deserialize(d)?
        .map(|n| {
            crate::models::keywords::whole(&n)
                .ok_or_else(|| serde::de::Error::custom("expected a whole number"))
        })
        .transpose()
}

/// One keyword of a draft, for the `OpenAPI` document: not blank, at most 100 characters, no
/// control characters.
pub struct DraftKeyword;

impl utoipa::PartialSchema for DraftKeyword {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .max_length(Some(100))
            .pattern(Some(
                r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$",
            ))
            .into()
    }
}

impl utoipa::ToSchema for DraftKeyword {}

impl GenerateFields {
    /// # Errors
    /// `Invalid`, naming each field.
    pub fn brief(self) -> Result<Brief, Refusal> {
        let mut errs = FieldErrors::new();
        let mut push =
            |f: &str, m: &str| errs.entry(f.to_string()).or_default().push(m.to_string());
        // Checked as sent, as the document's limits count; then trimmed and each kept once.
        let mut keywords: Vec<String> = Vec::new();
        for k in &self.target_keywords {
            let k = k.trim();
            if !keywords.iter().any(|x| x.eq_ignore_ascii_case(k)) {
                keywords.push(k.to_string());
            }
        }
        if self.target_keywords.is_empty()
            || self.target_keywords.len() > 5
            || keywords.iter().any(String::is_empty)
        {
            push("targetKeywords", "Give 1 to 5 keywords");
        } else if self
            .target_keywords
            .iter()
            .any(|k| k.chars().count() > 100 || k.chars().any(char::is_control))
        {
            push(
                "targetKeywords",
                "Each keyword is at most 100 characters of text",
            );
        }
        let given = self.category.unwrap_or_default();
        if given.chars().count() > keywords::MAX_CATEGORY_CHARS
            || given.chars().any(char::is_control)
        {
            push("category", "The category is at most 60 characters");
        }
        let category = Some(given.trim())
            .filter(|c| !c.is_empty())
            .unwrap_or(keywords::DEFAULT_CATEGORY)
            .to_string();
        // As the dialog's list sends it, and as the document's pattern says.
        let tone = self
            .tone
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| TONES[0].to_string());
        if !TONES.contains(&tone.as_str()) {
            push(
                "tone",
                "Use professional, friendly, authoritative, conversational or educational",
            );
        }
        let word_count = self.word_count.unwrap_or(i64::from(DEFAULT_WORD_COUNT));
        if !(300..=3000).contains(&word_count) {
            push("wordCount", "The word count is 300 to 3,000");
        }
        if !errs.is_empty() {
            return Err(Refusal::Invalid(errs));
        }
        Ok(Brief {
            keywords,
            category,
            tone,
            word_count: u32::try_from(word_count).unwrap_or(DEFAULT_WORD_COUNT),
        })
    }
}

/// Generations of a month and what they cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MonthUsage {
    pub generations: u64,
    pub cost_micros: i64,
}

impl Model {
    /// A job in a state no variant stores is read as failed: nothing takes it up again.
    #[must_use]
    pub fn status(&self) -> JobStatus {
        super::state::stored("generation_jobs.status", &self.status, JobStatus::Failed)
    }

    #[must_use]
    pub fn keyword_list(&self) -> Vec<String> {
        serde_json::from_str(&self.keywords).unwrap_or_default()
    }

    #[must_use]
    pub fn brief(&self) -> Brief {
        Brief {
            keywords: self.keyword_list(),
            category: self.category.clone(),
            tone: self.tone.clone(),
            word_count: u32::try_from(self.word_count).unwrap_or(DEFAULT_WORD_COUNT),
        }
    }

    /// Records a job (queued now, or scheduled for later) and reserves its keywords for it;
    /// keywords not known yet are added.
    ///
    /// # Errors
    /// Database errors (nothing recorded).
    pub async fn create<C: crate::models::writes::Writable>(
        db: &C,
        brief: &Brief,
        scheduled_for: Option<DateTime<Utc>>,
        weekly_plan_id: Option<i64>,
    ) -> Result<Self> {
        let txn = crate::models::begin_write(db).await?;
        let now = Utc::now();
        let job = ActiveModel {
            status: ActiveValue::Set(
                if scheduled_for.is_some() {
                    JobStatus::Scheduled
                } else {
                    JobStatus::Queued
                }
                .to_value(),
            ),
            keywords: ActiveValue::Set(
                serde_json::to_string(&brief.keywords).unwrap_or_else(|_| "[]".into()),
            ),
            category: ActiveValue::Set(brief.category.clone()),
            tone: ActiveValue::Set(brief.tone.clone()),
            word_count: ActiveValue::Set(i32::try_from(brief.word_count).unwrap_or(i32::MAX)),
            weekly_plan_id: ActiveValue::Set(weekly_plan_id),
            scheduled_for: ActiveValue::Set(scheduled_for.map(Into::into)),
            attempts: ActiveValue::Set(0),
            created_at: ActiveValue::Set(now.into()),
            updated_at: ActiveValue::Set(now.into()),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        keywords::reserve(&txn, &brief.keywords, &brief.category, job.id).await?;
        txn.commit().await?;
        Ok(job)
    }

    /// Queues the scheduled jobs that are due; each is queued by exactly one caller, however
    /// many schedulers run at once. Returns the ids the caller queued.
    ///
    /// # Errors
    /// Database errors.
    pub async fn claim_due(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<Vec<i64>> {
        let due: Vec<i64> = Entity::find()
            .select_only()
            .column(Column::Id)
            .filter(Column::Status.eq(JobStatus::Scheduled))
            .filter(Column::ScheduledFor.lte(now))
            .into_tuple()
            .all(db)
            .await?;
        let mut claimed = Vec::new();
        for id in due {
            if move_status(db, id, JobStatus::Scheduled, JobStatus::Queued).await? {
                claimed.push(id);
            }
        }
        Ok(claimed)
    }

    /// Jobs to queue again: queued for over ten minutes (their queue message was lost; at most
    /// once every ten minutes), or
    /// running past `stale_after` (their worker died; queued again while attempts remain,
    /// failed after). Queuing a job twice is harmless: one worker takes it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn requeue_stale(
        db: &DatabaseConnection,
        now: DateTime<Utc>,
        stale_after: Duration,
    ) -> Result<Vec<i64>> {
        let lost = Column::UpdatedAt.lt(now - Duration::minutes(10));
        let mut ids: Vec<i64> = Entity::find()
            .select_only()
            .column(Column::Id)
            .filter(Column::Status.eq(JobStatus::Queued))
            .filter(lost.clone())
            .into_tuple()
            .all(db)
            .await?;
        // Their clock starts again: queued once more now, not again at every run while the
        // queue is slow.
        Entity::update_many()
            .col_expr(Column::UpdatedAt, Expr::value(now))
            .filter(Column::Id.is_in(ids.clone()))
            .filter(Column::Status.eq(JobStatus::Queued))
            .filter(lost)
            .exec(db)
            .await?;
        let stuck = Entity::find()
            .filter(Column::Status.eq(JobStatus::Running))
            .filter(Column::StartedAt.lt(now - stale_after))
            .all(db)
            .await?;
        for job in stuck {
            if job.attempts < MAX_ATTEMPTS {
                if move_status(db, job.id, JobStatus::Running, JobStatus::Queued).await? {
                    ids.push(job.id);
                }
            } else {
                let txn = crate::models::begin_write(db).await?;
                if finish_failed(
                    &txn,
                    &job,
                    "The worker stopped while writing the draft",
                    None,
                    None,
                )
                .await?
                {
                    txn.commit().await?;
                }
            }
        }
        Ok(ids)
    }

    /// Takes a queued job for this worker: `None` when another took it (or it is not queued).
    ///
    /// # Errors
    /// Database errors.
    pub async fn start(db: &DatabaseConnection, id: i64) -> Result<Option<Self>> {
        let now = Utc::now();
        let taken = Entity::update_many()
            .col_expr(Column::Status, Expr::value(JobStatus::Running))
            .col_expr(Column::Attempts, Expr::col(Column::Attempts).add(1))
            .col_expr(Column::StartedAt, Expr::value(now))
            .col_expr(Column::UpdatedAt, Expr::value(now))
            .filter(Column::Id.eq(id))
            .filter(Column::Status.eq(JobStatus::Queued))
            .exec(db)
            .await?
            .rows_affected;
        if taken == 0 {
            return Ok(None);
        }
        Ok(Entity::find_by_id(id).one(db).await?)
    }

    /// Saves the draft and the job's success together, and links the job's keywords to the
    /// post; `None` (nothing saved) when this run no longer holds the job.
    ///
    /// # Errors
    /// Database errors (nothing saved).
    pub async fn succeed(
        &self,
        db: &DatabaseConnection,
        generated: &Generated,
        cost_micros: i64,
    ) -> Result<Option<blog_posts::Model>> {
        let txn = crate::models::begin_write(db).await?;
        let now = Utc::now();
        let post = blog_posts::Model::create(&txn, &post_form(generated), AUTHOR).await?;
        let done = Entity::update_many()
            .col_expr(Column::Status, Expr::value(JobStatus::Succeeded))
            .col_expr(Column::BlogPostId, Expr::value(post.id))
            .col_expr(Column::Model, Expr::value(generated.model.clone()))
            .col_expr(
                Column::PromptTokens,
                Expr::value(i64::from(generated.usage.prompt_tokens)),
            )
            .col_expr(
                Column::CompletionTokens,
                Expr::value(i64::from(generated.usage.completion_tokens)),
            )
            .col_expr(Column::CostMicros, Expr::value(cost_micros))
            .col_expr(Column::Error, Expr::value(Option::<String>::None))
            .col_expr(Column::FinishedAt, Expr::value(now))
            .col_expr(Column::UpdatedAt, Expr::value(now))
            .filter(Column::Id.eq(self.id))
            .filter(Column::Status.eq(JobStatus::Running))
            .filter(Column::Attempts.eq(self.attempts))
            .exec(&txn)
            .await?
            .rows_affected;
        if done == 0 {
            txn.rollback().await?;
            return Ok(None);
        }
        keywords::link_to_post(&txn, self.id, post.id).await?;
        txn.commit().await?;
        Ok(Some(post))
    }

    /// Records why the job failed, and frees its keywords for another post.
    ///
    /// # Errors
    /// Database errors.
    pub async fn fail(
        &self,
        db: &DatabaseConnection,
        failure: &Failure,
        model: &str,
        usage: Option<(Usage, i64)>,
    ) -> Result<()> {
        let txn = crate::models::begin_write(db).await?;
        if finish_failed(&txn, self, &failure.to_string(), Some(model), usage).await? {
            txn.commit().await?;
        }
        Ok(())
    }

    /// The newest jobs first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn recent(db: &DatabaseConnection, limit: u64) -> Result<Vec<Self>> {
        Ok(Entity::find()
            .order_by_desc(Column::Id)
            .limit(limit)
            .all(db)
            .await?)
    }

    /// Drafts generated since the first of the month (UTC), and what every request of the
    /// month cost (failed ones included).
    ///
    /// # Errors
    /// Database errors.
    pub async fn month_usage(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<MonthUsage> {
        let start = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        let rows: Vec<(String, Option<i64>)> = Entity::find()
            .select_only()
            .column(Column::Status)
            .column(Column::CostMicros)
            .filter(Column::FinishedAt.gte(start))
            .into_tuple()
            .all(db)
            .await?;
        Ok(MonthUsage {
            generations: rows
                .iter()
                .filter(|(s, _)| super::state::parse(s) == Some(JobStatus::Succeeded))
                .count() as u64,
            cost_micros: rows.iter().filter_map(|(_, c)| *c).sum(),
        })
    }
}

/// Moves a job from one state to the next if it is still in the first; true when this call
/// moved it.
async fn move_status<C: ConnectionTrait>(
    db: &C,
    id: i64,
    from: JobStatus,
    to: JobStatus,
) -> Result<bool> {
    Ok(Entity::update_many()
        .col_expr(Column::Status, Expr::value(to))
        .col_expr(Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(Column::Id.eq(id))
        .filter(Column::Status.eq(from))
        .exec(db)
        .await?
        .rows_affected
        == 1)
}

async fn finish_failed<C: ConnectionTrait>(
    db: &C,
    job: &Model,
    reason: &str,
    model: Option<&str>,
    usage: Option<(Usage, i64)>,
) -> Result<bool> {
    let now = Utc::now();
    let mut update = Entity::update_many()
        .col_expr(Column::Status, Expr::value(JobStatus::Failed))
        .col_expr(Column::Error, Expr::value(reason.to_string()))
        .col_expr(Column::FinishedAt, Expr::value(now))
        .col_expr(Column::UpdatedAt, Expr::value(now));
    if let Some(model) = model {
        update = update.col_expr(Column::Model, Expr::value(model.to_string()));
    }
    if let Some((usage, cost)) = usage {
        update = update
            .col_expr(
                Column::PromptTokens,
                Expr::value(i64::from(usage.prompt_tokens)),
            )
            .col_expr(
                Column::CompletionTokens,
                Expr::value(i64::from(usage.completion_tokens)),
            )
            .col_expr(Column::CostMicros, Expr::value(cost));
    }
    let done = update
        .filter(Column::Id.eq(job.id))
        .filter(Column::Status.eq(JobStatus::Running))
        .filter(Column::Attempts.eq(job.attempts))
        .exec(db)
        .await?
        .rows_affected;
    if done == 1 {
        keywords::release(db, job.id).await?;
    }
    Ok(done == 1)
}

/// One line of a draft: no control character (a model can answer with any), at most `max`
/// characters.
fn clip(text: &str, max: usize) -> String {
    text.trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(max)
        .collect::<String>()
        .trim()
        .to_string()
}

/// The draft as the editor's form: fields cut to the editor's limits, tags lower-cased and
/// unique.
fn post_form(generated: &Generated) -> PostForm {
    let draft = &generated.draft;
    let title = clip(&draft.title, 200);
    let mut tags: Vec<String> = Vec::new();
    for tag in &draft.tags {
        let tag = clip(&tag.to_lowercase(), 40);
        if !tag.is_empty() && !tags.contains(&tag) && tags.len() < 10 {
            tags.push(tag);
        }
    }
    let content = form::without_controls(draft.content.trim());
    PostForm {
        meta_title: Some(clip(&title, 70)),
        meta_description: Some(clip(&draft.meta_description, 160)).filter(|d| !d.is_empty()),
        excerpt: markdown::excerpt_of(&content),
        title,
        content,
        tags,
        published: false,
        slug: None,
    }
}

/// A timestamp as the API shows it.
#[must_use]
pub fn rfc3339(at: &DateTime<FixedOffset>) -> String {
    at.with_timezone(&Utc).to_rfc3339()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_statuses_are_stored_and_serialized_as_before() {
        super::super::state::assert_pinned(&[
            (JobStatus::Scheduled, "scheduled"),
            (JobStatus::Queued, "queued"),
            (JobStatus::Running, "running"),
            (JobStatus::Succeeded, "succeeded"),
            (JobStatus::Failed, "failed"),
            (JobStatus::Cancelled, "cancelled"),
        ]);
    }
}
