//! Answers kept per organization: the vendor list and the dashboard figures (the
//! [`Question`]s) are computed from the organization's rows of a few tables and from the day
//! alone, so once computed they are kept, in this process, under the organization's
//! `data_version` (which every write to those rows raises in the same transaction, by database
//! triggers: migration `m20261124_000003_organizations_data_version`) and the organization's
//! day (its date in its time zone, `CurrentUser::today`), so an answer turns over at the
//! organization's midnight, not at UTC's. Each question declares the tables it reads
//! ([`Question::reads`], only tables of [`Table`], those with the triggers), and a test checks
//! both the triggers and that its computation reads nothing else (`questions`). A request reads
//! the organization anyway (`CurrentUser`), so it knows without another query whether the kept
//! answer is still the one it would compute; with several server processes each keeps its own,
//! and none can hand out an answer older than the organization row it has just read.
//!
//! A write to one vendor's rows alone (`organizations.changed_vendor_id`) does not throw a kept
//! vendor list away: the next request carries it forward, reading that vendor again and putting
//! its object in its place ([`AnswerCache::carried_from_before`]; docs/architecture.md, "Kept
//! answers"), so that a load of reads and edits does not compute the whole list after each edit.
//!
//! Bounded by size (`settings.answer_cache_mb`, 0 turns it off), least recently used first out,
//! and an answer unused for 15 minutes is dropped. Requests asking the same question of the same
//! rows at once share one computation: after a write, the many requests in flight for the list
//! wait for the first one's answer rather than each reading the rows again
//! (docs/benchmarks/api.md, the mixed load).

use std::{
    cmp::Ordering,
    ops::Range,
    sync::{
        atomic::{AtomicU64, Ordering as AtomicOrdering},
        Arc,
    },
    time::Duration,
};

use axum::{
    http::{header, HeaderName, HeaderValue},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use chrono::NaiveDate;
use loco_rs::{app::AppContext, Result};
use sea_orm::DatabaseConnection;
use serde::Serialize;

use crate::{
    infra::observability,
    models::{organizations, vendors::VendorQuery},
    views::vendors::VendorResponse,
};

mod questions;
use questions::Place;
pub use questions::{Question, Table, KEPT_FROM};

/// Which answer: the organization, the version of its rows and the organization's day it was
/// computed for, and the question.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    org: i64,
    version: i64,
    day: NaiveDate,
    what: Question,
}

/// A JSON body and, for a list, its total (`X-Total-Count`).
#[derive(Debug, Clone)]
pub struct Answer {
    body: Bytes,
    total: Option<u64>,
    /// A vendor list's vendors, in the body's order: what carries it forward.
    listed: Option<Arc<[Listed]>>,
}

/// One vendor of a vendor list's answer: where its object lies in the body.
#[derive(Debug, Clone)]
struct Listed {
    vendor: i64,
    at: Range<usize>,
}

impl Answer {
    /// The JSON of `value`, with a list's total.
    ///
    /// # Errors
    /// When `value` does not serialize.
    pub fn json<T: Serialize>(value: &T, total: Option<u64>) -> Result<Self> {
        Ok(Self {
            body: Bytes::from(serde_json::to_vec(value)?),
            total,
            listed: None,
        })
    }

    /// A vendor list: the JSON array of `vendors` (each with its id), the same bytes as
    /// [`Self::json`] of their objects, with where each one lies.
    ///
    /// # Errors
    /// When a vendor does not serialize.
    pub fn list(vendors: impl Iterator<Item = (i64, VendorResponse)>, total: u64) -> Result<Self> {
        let mut body = vec![b'['];
        let mut listed = Vec::new();
        for (vendor, object) in vendors {
            if !listed.is_empty() {
                body.push(b',');
            }
            let start = body.len();
            serde_json::to_writer(&mut body, &object)?;
            listed.push(Listed {
                vendor,
                at: start..body.len(),
            });
        }
        body.push(b']');
        Ok(Self {
            body: Bytes::from(body),
            total: Some(total),
            listed: Some(listed.into()),
        })
    }

    /// The JSON body.
    #[must_use]
    pub const fn body(&self) -> &Bytes {
        &self.body
    }

    /// This vendor list with vendor `vendor`'s object replaced by `now`, when `query` (the
    /// list's question) lists it there still (`Place::holds`); `None` when it does not, or
    /// when this list does not hold the vendor.
    fn with_vendor(
        &self,
        query: &VendorQuery,
        vendor: i64,
        now: &VendorResponse,
    ) -> Result<Option<Self>> {
        let Some(listed) = &self.listed else {
            return Ok(None);
        };
        let Some(i) = listed.iter().position(|l| l.vendor == vendor) else {
            return Ok(None);
        };
        let was = listed[i].at.clone();
        let object = serde_json::to_vec(now)?;
        if !Place::of(&self.body[was.clone()])?.holds(&Place::of(&object)?, query) {
            return Ok(None);
        }
        let mut body = Vec::with_capacity(self.body.len() - was.len() + object.len());
        body.extend_from_slice(&self.body[..was.start]);
        body.extend_from_slice(&object);
        body.extend_from_slice(&self.body[was.end..]);
        let end = was.start + object.len();
        let moved = |at: &Range<usize>| (at.start + end - was.end)..(at.end + end - was.end);
        let listed = (listed.iter().enumerate())
            .map(|(j, l)| match j.cmp(&i) {
                Ordering::Less => l.clone(),
                Ordering::Equal => Listed {
                    vendor,
                    at: was.start..end,
                },
                Ordering::Greater => Listed {
                    at: moved(&l.at),
                    ..l.clone()
                },
            })
            .collect();
        Ok(Some(Self {
            body: Bytes::from(body),
            total: self.total,
            listed: Some(listed),
        }))
    }

    /// About the bytes it keeps.
    fn weight(&self) -> usize {
        self.body.len()
            + self
                .listed
                .as_ref()
                .map_or(0, |listed| listed.len() * std::mem::size_of::<Listed>())
    }
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let mut res = (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            self.body,
        )
            .into_response();
        if let Some(total) = self.total {
            res.headers_mut()
                .insert(HeaderName::from_static("x-total-count"), total.into());
        }
        res
    }
}

/// The kept answers of this process (in the app's shared store).
#[derive(Clone)]
pub struct AnswerCache {
    answers: Option<moka::future::Cache<Key, Arc<Answer>>>,
    /// How many answers were carried forward rather than computed.
    carried: Arc<AtomicU64>,
}

impl AnswerCache {
    /// A cache of at most `megabytes` of bodies; 0: nothing is kept.
    #[must_use]
    pub fn new(megabytes: u64) -> Self {
        let answers = (megabytes > 0).then(|| {
            moka::future::Cache::builder()
                .max_capacity(megabytes.saturating_mul(1024 * 1024))
                .weigher(|key: &Key, answer: &Arc<Answer>| {
                    u32::try_from(answer.weight() + key.what.weight() + 64).unwrap_or(u32::MAX)
                })
                .time_to_idle(Duration::from_mins(15))
                .build()
        });
        Self {
            answers,
            carried: Arc::default(),
        }
    }

    /// How many answers this cache carried forward from the version before rather than
    /// computed ([`Self::answer`]).
    #[must_use]
    pub fn carried_forward(&self) -> u64 {
        self.carried.load(AtomicOrdering::Relaxed)
    }

    /// The cache in the app's shared store (none there: nothing is kept).
    #[must_use]
    pub fn from_context(ctx: &AppContext) -> Self {
        ctx.shared_store
            .get::<Self>()
            .unwrap_or_else(|| Self::new(0))
    }

    /// The answer to `what` of `org` for `day` (the organization's own date, in its time zone:
    /// the one the answer counts from): the kept one when the organization's rows have not
    /// changed since it was computed; else, when the last change was one vendor's
    /// (`organizations.changed_vendor_id`) and the answer of the version before is kept, that
    /// one carried forward with the vendor read again ([`Self::carried_from_before`]); else one
    /// computed from `db`. The new answer is kept.
    ///
    /// # Errors
    /// Database errors of the computation.
    pub async fn answer(
        &self,
        db: &DatabaseConnection,
        org: &organizations::Model,
        day: NaiveDate,
        what: Question,
    ) -> Result<Answer> {
        let key = Key {
            org: org.id,
            version: org.data_version,
            day,
            what,
        };
        let changed = org.changed_vendor_id;
        // Boxed: moka's shared computation makes a large future, kept off the callers' stacks.
        Box::pin(self.kept_or(key, |key| async move {
            if let Some(vendor) = changed {
                if let Some(carried) = self.carried_from_before(db, &key, vendor).await? {
                    self.carried.fetch_add(1, AtomicOrdering::Relaxed);
                    observability::answer_made(true);
                    return Ok(carried);
                }
            }
            observability::answer_made(false);
            key.what.compute(db, key.org, key.day).await
        }))
        .await
    }

    /// The answer under `key` made from the one kept under the version before, when the raise
    /// to `key`'s version was for vendor `vendor` alone: that vendor's object read again and
    /// put in its place. Every other vendor's object is the kept one, and right still: the
    /// version before was committed (a server read it), so the raise to this one was the only
    /// one of its transaction, and it changed this vendor's rows alone (the triggers name a
    /// vendor only then: migration `m20261203_000001_organizations_changed_vendor`). `None`
    /// when nothing is kept under the version before, or when the vendor's change moves it in
    /// or out of the list or along it (`Place::holds`): the answer is then computed whole.
    async fn carried_from_before(
        &self,
        db: &DatabaseConnection,
        key: &Key,
        vendor: i64,
    ) -> Result<Option<Answer>> {
        let (Some(answers), Question::VendorList(query)) = (&self.answers, &key.what) else {
            return Ok(None);
        };
        let before = Key {
            version: key.version - 1,
            ..key.clone()
        };
        let Some(kept) = kept_or_coming(answers, before).await else {
            return Ok(None);
        };
        if !kept
            .listed
            .as_ref()
            .is_some_and(|l| l.iter().any(|l| l.vendor == vendor))
        {
            return Ok(None);
        }
        let Some(now) = key.what.listed_vendor(db, key.org, key.day, vendor).await? else {
            return Ok(None);
        };
        kept.with_vendor(query, vendor, &now)
    }

    /// The answer kept under `key`, else `compute`'s, which is then kept; callers asking for
    /// the same key while it is computed wait for that one computation. A failed computation is
    /// not kept: each waiting caller gets its error.
    async fn kept_or<F, Fut>(&self, key: Key, compute: F) -> Result<Answer>
    where
        F: Fn(Key) -> Fut,
        Fut: std::future::Future<Output = Result<Answer>>,
    {
        let Some(answers) = &self.answers else {
            return compute(key).await;
        };
        let init = compute(key.clone());
        let kept = answers
            .try_get_with(key.clone(), async move {
                init.await.map(Arc::new).map_err(Unkept::Failed)
            })
            .await;
        match kept {
            Ok(kept) => Ok(Answer::clone(&kept)),
            // This call met a look for what is coming under the key (`kept_or_coming`), which
            // computes nothing: computed here, not kept.
            Err(unkept) if matches!(*unkept, Unkept::Looked) => compute(key).await,
            Err(unkept) => Err(loco_rs::Error::string(&unkept.to_string())),
        }
    }
}

/// Why a cache call gave no answer.
#[derive(Debug)]
enum Unkept {
    /// The computation failed.
    Failed(loco_rs::Error),
    /// Only looked for a kept or coming answer (`kept_or_coming`).
    Looked,
}

impl std::fmt::Display for Unkept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Failed(err) => err.fmt(f),
            Self::Looked => f.write_str("no answer kept"),
        }
    }
}

/// The answer kept under `key`, or the one being computed under it, once computed (waited
/// for: under a load of edits, the version before is often still being computed when the
/// next is asked); `None` when there is neither. Computes nothing itself.
async fn kept_or_coming(
    answers: &moka::future::Cache<Key, Arc<Answer>>,
    key: Key,
) -> Option<Arc<Answer>> {
    answers
        .try_get_with(key, async { Err(Unkept::Looked) })
        .await
        .ok()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::*;
    use crate::models::{compliance::Status, vendors::VendorQuery};

    fn org(id: i64, data_version: i64) -> organizations::Model {
        let now = chrono::Utc::now().into();
        organizations::Model {
            created_at: now,
            updated_at: now,
            id,
            pid: uuid::Uuid::new_v4(),
            name: "Org".into(),
            plan: sea_orm::ActiveEnum::to_value(&organizations::Plan::Free),
            stripe_customer_id: None,
            stripe_subscription_id: None,
            subscription_status: None,
            plan_renews_at: None,
            plan_cancel_at: None,
            payment_problem: None,
            data_version,
            time_zone: "UTC".into(),
            changed_vendor_id: None,
        }
    }

    /// Asks `what` and says what the body was and whether it was computed.
    async fn ask(
        cache: &AnswerCache,
        org: &organizations::Model,
        day: u32,
        what: &Question,
    ) -> String {
        static COMPUTED: AtomicU32 = AtomicU32::new(0);
        let key = Key {
            org: org.id,
            version: org.data_version,
            day: NaiveDate::from_ymd_opt(2026, 11, day).unwrap(),
            what: what.clone(),
        };
        let answer = cache
            .kept_or(key, |_| async {
                let n = COMPUTED.fetch_add(1, AtomicOrdering::SeqCst);
                Answer::json(&format!("computed {n}"), Some(1))
            })
            .await
            .unwrap();
        String::from_utf8(answer.body.to_vec()).unwrap()
    }

    fn vendors(status: Option<Status>) -> Question {
        Question::VendorList(VendorQuery {
            status,
            ..VendorQuery::default()
        })
    }

    #[tokio::test]
    async fn an_answer_is_kept_until_the_rows_the_day_or_the_question_change() {
        let cache = AnswerCache::new(1);
        let first = ask(&cache, &org(1, 7), 24, &vendors(None)).await;
        assert_eq!(
            ask(&cache, &org(1, 7), 24, &vendors(None)).await,
            first,
            "kept"
        );
        for (org, day, what) in [
            (org(1, 8), 24, vendors(None)),
            (org(1, 7), 25, vendors(None)),
            (org(1, 7), 24, vendors(Some(Status::Expired))),
            (org(1, 7), 24, Question::DashboardStats),
            (org(2, 7), 24, vendors(None)),
        ] {
            assert_ne!(
                ask(&cache, &org, day, &what).await,
                first,
                "{org:?} {day} {what:?}"
            );
        }
    }

    #[tokio::test]
    async fn requests_asking_at_once_share_one_computation() {
        let cache = AnswerCache::new(1);
        let computed = Arc::new(AtomicU32::new(0));
        let key = Key {
            org: 1,
            version: 1,
            day: NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(),
            what: vendors(None),
        };
        let asks = (0..8).map(|_| {
            let (cache, computed, key) = (cache.clone(), computed.clone(), key.clone());
            tokio::spawn(async move {
                cache
                    .kept_or(key, |_| {
                        let computed = computed.clone();
                        async move {
                            computed.fetch_add(1, AtomicOrdering::SeqCst);
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            Answer::json(&"the list", None)
                        }
                    })
                    .await
                    .unwrap()
                    .body
            })
        });
        for body in futures_util::future::join_all(asks).await {
            assert_eq!(body.unwrap(), Bytes::from_static(b"\"the list\""));
        }
        assert_eq!(computed.load(AtomicOrdering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_look_waits_for_the_answer_coming_and_computes_none_itself() {
        let cache = AnswerCache::new(1);
        let answers = cache.answers.clone().unwrap();
        let key = |version| Key {
            org: 1,
            version,
            day: NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(),
            what: vendors(None),
        };
        let slow = {
            let cache = cache.clone();
            tokio::spawn(async move {
                cache
                    .kept_or(key(1), |_| async {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        Answer::json(&"slow", None)
                    })
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        let coming = kept_or_coming(&answers, key(1)).await;
        assert_eq!(coming.unwrap().body, Bytes::from_static(b"\"slow\""));
        slow.await.unwrap().unwrap();

        assert!(
            kept_or_coming(&answers, key(2)).await.is_none(),
            "nothing there"
        );
        assert!(answers.get(&key(2)).await.is_none(), "and nothing kept");
        // The look kept nothing in the way: the next request computes its answer.
        let asked = cache
            .kept_or(key(2), |_| async { Answer::json(&"asked", None) })
            .await
            .unwrap();
        assert_eq!(asked.body, Bytes::from_static(b"\"asked\""));
    }

    #[tokio::test]
    async fn a_failed_computation_is_not_kept() {
        let cache = AnswerCache::new(1);
        let key = Key {
            org: 1,
            version: 1,
            day: NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(),
            what: Question::DashboardStats,
        };
        let failed = cache
            .kept_or(key.clone(), |_| async {
                Err(loco_rs::Error::string("the database is away"))
            })
            .await;
        assert!(failed
            .unwrap_err()
            .to_string()
            .contains("the database is away"));
        let answer = cache
            .kept_or(key, |_| async { Answer::json(&"back", None) })
            .await
            .unwrap();
        assert_eq!(answer.body, Bytes::from_static(b"\"back\""));
    }

    #[tokio::test]
    async fn a_cache_of_zero_megabytes_keeps_nothing() {
        let cache = AnswerCache::new(0);
        let first = ask(&cache, &org(1, 7), 24, &vendors(None)).await;
        assert_ne!(ask(&cache, &org(1, 7), 24, &vendors(None)).await, first);
    }
}
