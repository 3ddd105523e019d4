//! The content engine's keywords (docs/product.md, "Content engine"): uploaded in chunks that
//! background jobs ingest, one keyword whatever its case or surrounding space, suggested unused
//! and best first.

use chrono::{Duration, Utc};
use loco_rs::prelude::*;
use sea_orm::{
    entity::prelude::{DeriveActiveEnum, EnumIter, StringLen},
    sea_query::{Expr, ExprTrait, OnConflict},
    ActiveEnum, ConnectionTrait, DatabaseTransaction, Iterable, Order,
};
use serde::{Deserialize, Serialize};

pub use super::_entities::keywords::{self, ActiveModel, Column, Entity, Model};
use super::{
    _entities::keyword_ingests::Column as I,
    keyword_ingest_chunks as chunks, keyword_ingests as ingests,
    refusal::{FieldErrors, Refusal},
};

/// Rows per ingest job.
pub const CHUNK_ROWS: usize = 100;
pub const DEFAULT_CATEGORY: &str = "Vendor Management";
/// The longest category a keyword or a draft takes.
pub const MAX_CATEGORY_CHARS: usize = 60;

/// How much the operator wants a keyword written about; suggestions come in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum, Serialize, Deserialize)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    #[sea_orm(string_value = "high")]
    High,
    #[sea_orm(string_value = "medium")]
    Medium,
    #[sea_orm(string_value = "low")]
    Low,
}

/// What the admin area suggests when no keyword is unused.
pub const FALLBACK_SUGGESTIONS: [&str; 8] = [
    "vendor compliance checklist",
    "certificate of insurance tracking",
    "w-9 form requirements",
    "vendor onboarding process",
    "sales tax exemption certificate",
    "vendor risk management",
    "coi expiration reminders",
    "subcontractor insurance requirements",
];

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// One row of an upload, as the browser parsed it from the CSV (each cell trimmed). The
/// `OpenAPI` document states every rule below, so that what it allows is what the upload takes.
#[derive(Debug, Default, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct KeywordRow {
    /// At most 200 characters; a row without one (absent, null or blank) is dropped.
    #[schema(max_length = 200)]
    pub keyword: Option<String>,
    /// A whole number from 0: a JSON number, or text of at most 18 digits with thousands
    /// commas (`1,200`); empty or null for none.
    #[schema(value_type = SearchVolumeInput)]
    pub search_volume: Option<serde_json::Value>,
    /// 1 to 100: a JSON number, or the number as text; empty or null for none.
    #[schema(value_type = DifficultyInput)]
    pub difficulty: Option<serde_json::Value>,
    /// `high`, `medium` (the default, also for empty or null) or `low`, in any case.
    #[schema(pattern = "^([Hh][Ii][Gg][Hh]|[Mm][Ee][Dd][Ii][Uu][Mm]|[Ll][Oo][Ww])?$")]
    pub priority: Option<String>,
    /// At most 60 characters; `Vendor Management` when absent, null or blank.
    #[schema(max_length = 60)]
    pub category: Option<String>,
}

/// The most characters a keyword has.
const MAX_KEYWORD_CHARS: usize = 200;
/// A search volume as text: up to 18 digits (below 2^63) with commas anywhere, or empty.
const SEARCH_VOLUME_TEXT: &str = "^(,*([0-9],*){1,18})?$";
/// A difficulty as text: 1 to 100 without leading zeros, or empty.
const DIFFICULTY_TEXT: &str = "^([1-9][0-9]?|100)?$";

/// A number cell of a keyword row, for the `OpenAPI` document: an integer in `min..=max`, text
/// matching `pattern`, or null.
fn number_cell_schema(
    min: i64,
    max: i64,
    pattern: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Type};
    AnyOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(min))
                .maximum(Some(max)),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(pattern)),
        )
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .into()
}

/// The `searchVolume` of a keyword row, for the `OpenAPI` document.
pub struct SearchVolumeInput;

impl utoipa::PartialSchema for SearchVolumeInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        number_cell_schema(0, i64::MAX, SEARCH_VOLUME_TEXT)
    }
}

impl utoipa::ToSchema for SearchVolumeInput {}

/// The `difficulty` of a keyword row, for the `OpenAPI` document.
pub struct DifficultyInput;

impl utoipa::PartialSchema for DifficultyInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        number_cell_schema(1, 100, DIFFICULTY_TEXT)
    }
}

impl utoipa::ToSchema for DifficultyInput {}

/// A row checked, as a chunk stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IngestRow {
    pub keyword: String,
    pub search_volume: Option<i64>,
    pub difficulty: Option<i32>,
    pub priority: Priority,
    pub category: String,
}

/// A number cell: a JSON integer, or text that `text_ok` accepts (empty is none); `Err` for
/// anything else. The text rules are the document's patterns, so both say the same.
fn number(value: Option<&serde_json::Value>, text_ok: fn(&str) -> bool) -> Result<Option<i64>, ()> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => whole(n).map(Some).ok_or(()),
        Some(serde_json::Value::String(s)) if s.is_empty() => Ok(None),
        Some(serde_json::Value::String(s)) if text_ok(s) => {
            s.replace(',', "").parse().map(Some).map_err(|_| ())
        }
        Some(_) => Err(()),
    }
}

/// A JSON number that is whole, as JSON Schema's `integer` counts: `5`, and `5.0` too.
#[must_use]
#[allow(clippy::float_cmp, clippy::cast_possible_truncation)]
pub fn whole(n: &serde_json::Number) -> Option<i64> {
    n.as_i64().or_else(|| {
        n.as_f64()
            // Below 2^63 (exactly representable), and without a fraction.
            .filter(|f| f.trunc() == *f && f.abs() < 9_223_372_036_854_775_808.0)
            .map(|f| f as i64)
    })
}

/// `SEARCH_VOLUME_TEXT`: digits (1 to 18 of them) and commas.
fn search_volume_text(s: &str) -> bool {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    s.bytes().all(|b| b.is_ascii_digit() || b == b',') && (1..=18).contains(&digits)
}

/// `DIFFICULTY_TEXT`: digits without a leading zero (the range is checked as a number).
fn difficulty_text(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0')
}

/// Checks every row: a bad search volume, difficulty, priority, category or keyword length
/// refuses the whole upload, naming the row and field (whether the row has a keyword or not);
/// rows without a keyword are then dropped (and counted).
///
/// # Errors
/// `Invalid` on `keywordData[i].field`.
pub fn check_upload(rows: &[KeywordRow]) -> Result<(Vec<IngestRow>, usize), Refusal> {
    let mut errs = FieldErrors::new();
    let mut ok = Vec::new();
    let mut dropped = 0;
    for (i, row) in rows.iter().enumerate() {
        let mut bad = |field: &str, message: &str| {
            errs.entry(format!("keywordData[{i}].{field}"))
                .or_default()
                .push(message.to_string());
        };
        // Counted as sent, as the document's `maxLength` counts.
        if row.keyword.as_deref().unwrap_or_default().chars().count() > MAX_KEYWORD_CHARS {
            bad("keyword", "A keyword is at most 200 characters");
        }
        let search_volume =
            number(row.search_volume.as_ref(), search_volume_text).unwrap_or_else(|()| {
                bad("searchVolume", "Search volume must be a whole number");
                None
            });
        if search_volume.is_some_and(|v| v < 0) {
            bad("searchVolume", "Search volume must be a whole number");
        }
        let difficulty = number(row.difficulty.as_ref(), difficulty_text).unwrap_or_else(|()| {
            bad("difficulty", "Difficulty must be between 1 and 100");
            None
        });
        if difficulty.is_some_and(|d| !(1..=100).contains(&d)) {
            bad("difficulty", "Difficulty must be between 1 and 100");
        }
        // In any ASCII case, as the document's pattern says; nothing around it.
        let priority = match row.priority.as_deref().filter(|p| !p.is_empty()) {
            None => Priority::Medium,
            Some(p) => Priority::iter()
                .find(|known| known.to_value().eq_ignore_ascii_case(p))
                .unwrap_or_else(|| {
                    bad("priority", "Priority must be high, medium or low");
                    Priority::Medium
                }),
        };
        let given_category = row.category.as_deref().unwrap_or_default();
        if given_category.chars().count() > MAX_CATEGORY_CHARS {
            bad("category", "The category is at most 60 characters");
        }
        let category = Some(given_category.trim())
            .filter(|c| !c.is_empty())
            .unwrap_or(DEFAULT_CATEGORY)
            .to_string();
        // Checked first, then dropped: a row without a keyword still holds only what the
        // document allows.
        let Some(keyword) = row
            .keyword
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
        else {
            dropped += 1;
            continue;
        };
        ok.push(IngestRow {
            keyword: keyword.to_string(),
            search_volume,
            difficulty: difficulty.and_then(|d| i32::try_from(d).ok()),
            priority,
            category,
        });
    }
    if !errs.is_empty() {
        return Err(Refusal::Invalid(errs));
    }
    Ok((ok, dropped))
}

fn key_of(keyword: &str) -> String {
    keyword.trim().to_lowercase()
}

/// Records an upload and its chunks; returns it and the ids of the chunks to queue.
///
/// # Errors
/// Database errors (nothing recorded).
pub async fn start_ingest(
    db: &DatabaseConnection,
    rows: &[IngestRow],
    dropped: usize,
) -> Result<(ingests::Model, Vec<i64>)> {
    let txn = crate::models::begin_write(db).await?;
    let now = Utc::now();
    let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    let ingest = ingests::ActiveModel {
        accepted: ActiveValue::Set(count(rows.len())),
        dropped: ActiveValue::Set(count(dropped)),
        chunks: ActiveValue::Set(count(rows.len().div_ceil(CHUNK_ROWS))),
        chunks_done: ActiveValue::Set(0),
        inserted: ActiveValue::Set(0),
        merged: ActiveValue::Set(0),
        created_at: ActiveValue::Set(now.into()),
        updated_at: ActiveValue::Set(now.into()),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    // One statement for every chunk (an upload holds at most a few hundred).
    let ids = chunks::Entity::insert_many(rows.chunks(CHUNK_ROWS).enumerate().map(
        |(position, chunk)| chunks::ActiveModel {
            keyword_ingest_id: ActiveValue::Set(ingest.id),
            position: ActiveValue::Set(count(position)),
            rows: ActiveValue::Set(serde_json::to_string(chunk).unwrap_or_else(|_| "[]".into())),
            done: ActiveValue::Set(false),
            created_at: ActiveValue::Set(now.into()),
            updated_at: ActiveValue::Set(now.into()),
            ..Default::default()
        },
    ))
    .exec_with_returning_keys(&txn)
    .await?;
    txn.commit().await?;
    Ok((ingest, ids))
}

/// Ingests one chunk, once: the chunk is marked done by the statement that takes it, in the
/// same transaction as its keywords and the upload's counts. Three statements whatever the
/// chunk holds: take (returning the rows), one upsert of the chunk's keywords, the counts.
///
/// # Errors
/// Database errors (the chunk stays to do).
pub async fn ingest_chunk(db: &DatabaseConnection, chunk_id: i64) -> Result<()> {
    use chunks::keyword_ingest_chunks::Column as K;
    let txn = crate::models::begin_write(db).await?;
    if txn.get_database_backend() == sea_orm::DatabaseBackend::Postgres {
        // The commit does not wait for PostgreSQL's log to reach the disk (a wait per chunk,
        // 3-4 ms here). A crash may undo the last commits, the chunk's `done` with its
        // keywords: the chunk is then still to do and the `keyword_ingests` task queues it
        // again. Nothing else runs in this transaction.
        txn.execute_unprepared("SET LOCAL synchronous_commit = off")
            .await?;
    }
    let Some(chunk) = chunks::Entity::update_many()
        .col_expr(K::Done, Expr::value(true))
        .filter(K::Id.eq(chunk_id))
        .filter(K::Done.eq(false))
        .exec_with_returning(&txn)
        .await?
        .into_iter()
        .next()
    else {
        return Ok(());
    };
    let rows: Vec<IngestRow> = serde_json::from_str(&chunk.rows).unwrap_or_default();
    let (merged_rows, repeats) = merge_repeats(rows);
    let inserted = upsert(&txn, &merged_rows).await?;
    let merged = repeats + (merged_rows.len() - inserted);
    let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    ingests::Entity::update_many()
        .col_expr(I::ChunksDone, Expr::col(I::ChunksDone).add(1))
        .col_expr(I::Inserted, Expr::col(I::Inserted).add(count(inserted)))
        .col_expr(I::Merged, Expr::col(I::Merged).add(count(merged)))
        .filter(I::Id.eq(chunk.keyword_ingest_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(())
}

/// A chunk's rows, one per keyword (the first row's spelling), each later row of a keyword
/// merged into it; and how many rows were so merged.
fn merge_repeats(rows: Vec<IngestRow>) -> (Vec<(String, IngestRow)>, usize) {
    let mut merged: Vec<(String, IngestRow)> = Vec::with_capacity(rows.len());
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut repeats = 0;
    for row in rows {
        let key = key_of(&row.keyword);
        if let Some(&i) = at.get(&key) {
            let first = &mut merged[i].1;
            first.search_volume = row.search_volume.or(first.search_volume);
            first.difficulty = row.difficulty.or(first.difficulty);
            first.priority = row.priority;
            first.category = row.category;
            repeats += 1;
        } else {
            at.insert(key.clone(), merged.len());
            merged.push((key, row));
        }
    }
    (merged, repeats)
}

/// One statement for a chunk's keywords (distinct keys): new ones inserted, known ones merged
/// the way a later row merges (its volume and difficulty when it has them, its priority and
/// category; the keyword as first written stays). Two chunks adding the same keyword at once
/// both succeed, the second merging. Returns how many were inserted: a row the statement
/// inserted has `created_at = updated_at`, one it merged kept its older `created_at`.
async fn upsert(txn: &DatabaseTransaction, rows: &[(String, IngestRow)]) -> Result<usize> {
    use sea_orm::sea_query::{Alias, Query};
    if rows.is_empty() {
        return Ok(0);
    }
    let now: sea_orm::prelude::DateTimeWithTimeZone = Utc::now().into();
    let mut insert = Query::insert();
    insert.into_table(Entity).columns([
        Column::Keyword,
        Column::KeywordKey,
        Column::SearchVolume,
        Column::Difficulty,
        Column::Priority,
        Column::Category,
        Column::CreatedAt,
        Column::UpdatedAt,
    ]);
    for (key, row) in rows {
        insert.values_panic([
            row.keyword.clone().into(),
            key.clone().into(),
            row.search_volume.into(),
            row.difficulty.into(),
            row.priority.into(),
            row.category.clone().into(),
            now.into(),
            now.into(),
        ]);
    }
    let stored = |c: Column| Expr::col((Entity, c));
    let incoming = |c: Column| Expr::col((Alias::new("excluded"), c));
    insert
        .on_conflict(
            OnConflict::column(Column::KeywordKey)
                .values([
                    (
                        Column::SearchVolume,
                        incoming(Column::SearchVolume).if_null(stored(Column::SearchVolume)),
                    ),
                    (
                        Column::Difficulty,
                        incoming(Column::Difficulty).if_null(stored(Column::Difficulty)),
                    ),
                    (Column::Priority, incoming(Column::Priority)),
                    (Column::Category, incoming(Column::Category)),
                    (Column::UpdatedAt, incoming(Column::UpdatedAt)),
                ])
                .to_owned(),
        )
        .returning(Query::returning().expr(Expr::col(Column::CreatedAt).equals(Column::UpdatedAt)));
    let answers = txn.query_all(&insert).await?;
    let mut inserted = 0;
    for answer in answers {
        if answer.try_get_by_index::<bool>(0)? {
            inserted += 1;
        }
    }
    Ok(inserted)
}

/// Chunks still to do of uploads older than `minutes`: their job failed or was lost.
///
/// # Errors
/// Database errors.
pub async fn unfinished_chunks(db: &DatabaseConnection, minutes: i64) -> Result<Vec<i64>> {
    use chunks::keyword_ingest_chunks::Column as K;
    Ok(chunks::Entity::find()
        .filter(K::Done.eq(false))
        .filter(K::CreatedAt.lt(Utc::now() - Duration::minutes(minutes)))
        .all(db)
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect())
}

/// # Errors
/// Database errors.
pub async fn count(db: &DatabaseConnection) -> Result<u64> {
    Ok(Entity::find().count(db).await?)
}

/// Keywords neither used by a post nor reserved by a generation, best first: priority, then
/// search volume, then low difficulty (ordered in SQL, read `limit` rows).
async fn unused<C: ConnectionTrait>(db: &C, limit: u64) -> Result<Vec<Model>> {
    let rank = Expr::case(Column::Priority.eq(Priority::High), 0)
        .case(Column::Priority.eq(Priority::Medium), 1)
        .finally(2);
    let rank: Expr = rank.into();
    Ok(Entity::find()
        .filter(Column::BlogPostId.is_null())
        .filter(Column::GenerationJobId.is_null())
        .order_by(rank, Order::Asc)
        .order_by(Expr::col(Column::SearchVolume).if_null(0), Order::Desc)
        .order_by(Expr::col(Column::Difficulty).if_null(100), Order::Asc)
        .order_by(Column::KeywordKey, Order::Asc)
        .limit(limit)
        .all(db)
        .await?)
}

/// Up to `count` keywords no post uses, best first: priority, then search volume, then low
/// difficulty; the built-in set when there are none.
///
/// # Errors
/// Database errors.
pub async fn suggest(db: &DatabaseConnection, count: u64) -> Result<Vec<String>> {
    let unused = unused(db, count).await?;
    if unused.is_empty() {
        return Ok(FALLBACK_SUGGESTIONS
            .iter()
            .take(usize::try_from(count).unwrap_or(usize::MAX))
            .map(ToString::to_string)
            .collect());
    }
    Ok(unused.into_iter().map(|k| k.keyword).collect())
}

/// The `count` best unused keywords for a weekly plan; when too few are left, the built-in
/// set's keywords no post has used are added as keywords and picked.
///
/// # Errors
/// Database errors.
pub async fn pick_for_plan<C: ConnectionTrait>(db: &C, count: u64) -> Result<Vec<Model>> {
    let mut picked = unused(db, count).await?;
    let wanted = usize::try_from(count).unwrap_or(usize::MAX);
    if picked.len() < wanted {
        let known: Vec<String> = Entity::find()
            .select_only()
            .column(Column::KeywordKey)
            .filter(Column::KeywordKey.is_in(FALLBACK_SUGGESTIONS.map(key_of)))
            .into_tuple()
            .all(db)
            .await?;
        let fresh = FALLBACK_SUGGESTIONS
            .iter()
            .filter(|k| !known.contains(&key_of(k)))
            .take(wanted - picked.len());
        for keyword in fresh {
            picked.push(insert_new(db, keyword, DEFAULT_CATEGORY).await?);
        }
    }
    Ok(picked)
}

async fn insert_new<C: ConnectionTrait>(db: &C, keyword: &str, category: &str) -> Result<Model> {
    let now = Utc::now();
    Ok(ActiveModel {
        keyword: ActiveValue::Set(keyword.trim().to_string()),
        keyword_key: ActiveValue::Set(key_of(keyword)),
        search_volume: ActiveValue::Set(None),
        difficulty: ActiveValue::Set(None),
        priority: ActiveValue::Set(Priority::Medium.to_value()),
        category: ActiveValue::Set(category.to_string()),
        blog_post_id: ActiveValue::Set(None),
        generation_job_id: ActiveValue::Set(None),
        created_at: ActiveValue::Set(now.into()),
        updated_at: ActiveValue::Set(now.into()),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// Reserves a generation's keywords for it (those no post uses yet); keywords not known yet
/// are added first.
///
/// # Errors
/// Database errors.
pub async fn reserve<C: ConnectionTrait>(
    db: &C,
    keywords: &[String],
    category: &str,
    job_id: i64,
) -> Result<()> {
    let keys: Vec<String> = keywords.iter().map(|k| key_of(k)).collect();
    let known: Vec<String> = Entity::find()
        .select_only()
        .column(Column::KeywordKey)
        .filter(Column::KeywordKey.is_in(keys.clone()))
        .into_tuple()
        .all(db)
        .await?;
    for keyword in keywords {
        if !known.contains(&key_of(keyword)) {
            insert_new(db, keyword, category).await?;
        }
    }
    Entity::update_many()
        .col_expr(Column::GenerationJobId, Expr::value(job_id))
        .filter(Column::KeywordKey.is_in(keys))
        .filter(Column::BlogPostId.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// The keywords a generation reserved now belong to its post.
///
/// # Errors
/// Database errors.
pub async fn link_to_post<C: ConnectionTrait>(db: &C, job_id: i64, post_id: i64) -> Result<()> {
    Entity::update_many()
        .col_expr(Column::BlogPostId, Expr::value(post_id))
        .col_expr(Column::GenerationJobId, Expr::value(Option::<i64>::None))
        .filter(Column::GenerationJobId.eq(job_id))
        .exec(db)
        .await?;
    Ok(())
}

/// A failed or cancelled generation's keywords are free again.
///
/// # Errors
/// Database errors.
pub async fn release<C: ConnectionTrait>(db: &C, job_id: i64) -> Result<()> {
    Entity::update_many()
        .col_expr(Column::GenerationJobId, Expr::value(Option::<i64>::None))
        .filter(Column::GenerationJobId.eq(job_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Keywords no post uses nor a generation has reserved.
///
/// # Errors
/// Database errors.
pub async fn count_unused(db: &DatabaseConnection) -> Result<u64> {
    Ok(Entity::find()
        .filter(Column::BlogPostId.is_null())
        .filter(Column::GenerationJobId.is_null())
        .count(db)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priorities_are_stored_and_serialized_as_before() {
        super::super::state::assert_pinned(&[
            (Priority::High, "high"),
            (Priority::Medium, "medium"),
            (Priority::Low, "low"),
        ]);
    }

    fn row(keyword: &str, difficulty: serde_json::Value, priority: &str) -> KeywordRow {
        KeywordRow {
            keyword: Some(keyword.into()),
            search_volume: Some(serde_json::json!("1,200")),
            difficulty: Some(difficulty),
            priority: Some(priority.into()),
            category: None,
        }
    }

    #[test]
    fn a_keyword_repeated_in_a_chunk_merges_into_its_first_row() {
        let row =
            |keyword: &str, volume: Option<i64>, difficulty: Option<i32>, priority: Priority| {
                IngestRow {
                    keyword: keyword.into(),
                    search_volume: volume,
                    difficulty,
                    priority,
                    category: DEFAULT_CATEGORY.into(),
                }
            };
        let (rows, repeats) = merge_repeats(vec![
            row("COI Tracking", Some(10), Some(30), Priority::High),
            row("w9", None, None, Priority::Low),
            row("coi tracking", None, Some(45), Priority::Low),
            row("Coi Tracking", Some(90), None, Priority::Medium),
        ]);
        assert_eq!(repeats, 2);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].0, "coi tracking");
        assert_eq!(
            rows[0].1,
            row("COI Tracking", Some(90), Some(45), Priority::Medium)
        );
        assert_eq!(rows[1].1, row("w9", None, None, Priority::Low));
    }

    #[test]
    fn an_upload_drops_rows_without_a_keyword_and_names_each_bad_field() {
        let rows = vec![
            row("coi tracking", serde_json::json!(40), "High"),
            KeywordRow::default(),
            row("w9", serde_json::json!("55"), ""),
        ];
        let (ok, dropped) = check_upload(&rows).unwrap();
        assert_eq!(dropped, 1);
        assert_eq!(ok[0].priority, Priority::High);
        assert_eq!(ok[0].search_volume, Some(1200));
        assert_eq!(ok[1].difficulty, Some(55));
        assert_eq!(ok[1].priority, Priority::Medium);
        assert_eq!(ok[1].category, DEFAULT_CATEGORY);
        let bad = vec![
            row("a", serde_json::json!(0), "high"),
            row("b", serde_json::json!(50), "urgent"),
        ];
        let Err(Refusal::Invalid(errs)) = check_upload(&bad) else {
            panic!("refused")
        };
        assert!(errs.contains_key("keywordData[0].difficulty"));
        assert!(errs.contains_key("keywordData[1].priority"));
    }
}
