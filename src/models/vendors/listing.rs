//! The vendor list and the dashboard's vendor counts, filtered, counted and paged in SQL: only
//! the page's vendors and their current documents are read, in one statement (each vendor's
//! current documents folded into one text column: a row per vendor, not per document, is what
//! makes the list cheaper than a thin server reading the two tables; docs/benchmarks/api.md).

use std::collections::HashMap;

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Alias, Expr, ExprTrait, Func, Query, QueryStatementBuilder},
    DbBackend, FromQueryResult, QueryResult, Select, Statement,
};

use super::{vendors, Entity, Model, VendorStanding, SERVICE_TYPES};
use crate::models::{
    _entities::documents,
    compliance::{
        self,
        sql::{rank, vendor_rank},
        Slot, Status,
    },
    search::{self, Page, Sort},
};

/// Filters of the vendor list.
#[derive(Debug, Default, Clone, PartialEq, Eq, Hash)]
pub struct VendorQuery {
    pub status: Option<Status>,
    /// Text in the name, email, service type or company key.
    pub q: Option<String>,
    /// Only the vendors with a gap that counts (`true`), or only those without (`false`).
    pub gaps: Option<bool>,
    pub sort: Sort<VendorSort>,
    pub page: Page,
}

/// What the vendor list can be ordered by.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VendorSort {
    /// The name, whatever its case.
    #[default]
    Name,
    ServiceType,
    /// The vendor's status by severity: current, expiring soon, expired, missing.
    Status,
    /// How many current documents it has.
    DocumentCount,
    UpdatedAt,
}

impl VendorSort {
    /// The `sort` names of the API, each with its key.
    pub const KEYS: [(&'static str, Self); 5] = [
        ("name", Self::Name),
        ("serviceType", Self::ServiceType),
        ("status", Self::Status),
        ("documentCount", Self::DocumentCount),
        ("updatedAt", Self::UpdatedAt),
    ];

    /// The key in SQL, over the enclosing query's `vendors` row.
    fn expr(self, today: NaiveDate) -> Expr {
        let col = |c: vendors::Column| Expr::col((vendors::Entity, c));
        match self {
            Self::Name => Func::lower(col(vendors::Column::Name)).into(),
            Self::ServiceType => col(vendors::Column::ServiceType),
            Self::Status => vendor_rank(today),
            Self::DocumentCount => Expr::SubQuery(
                None,
                Box::new(
                    Query::select()
                        .expr(Func::count(Expr::col((
                            documents::Entity,
                            documents::Column::Id,
                        ))))
                        .from(documents::Entity)
                        .and_where(
                            Expr::col((documents::Entity, documents::Column::VendorId))
                                .equals((vendors::Entity, vendors::Column::Id)),
                        )
                        .and_where(
                            Expr::col((documents::Entity, documents::Column::IsCurrent)).eq(true),
                        )
                        .to_owned()
                        .into_sub_query_statement(),
                ),
            ),
            Self::UpdatedAt => col(vendors::Column::UpdatedAt),
        }
    }
}

/// How many of the organization's vendors have each status.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct VendorCounts {
    pub total: u64,
    pub current: u64,
    pub expiring_soon: u64,
    pub expired: u64,
    pub missing: u64,
}

impl VendorCounts {
    /// Counts `n` more vendors: with a current document (`has_current`) each has the status of
    /// the earliest expiration date among them (`earliest`, none: none expires) on `today`;
    /// without one, missing.
    pub fn add(
        &mut self,
        has_current: bool,
        earliest: Option<NaiveDate>,
        today: NaiveDate,
        n: u64,
    ) {
        self.total += n;
        *if has_current {
            match compliance::document_status(earliest, today) {
                Status::Current | Status::Missing => &mut self.current,
                Status::ExpiringSoon => &mut self.expiring_soon,
                Status::Expired => &mut self.expired,
            }
        } else {
            &mut self.missing
        } += n;
    }
}

/// What a vendor's standing needs of one of its current documents.
#[derive(Debug, Clone, FromQueryResult)]
struct SlotDocument {
    vendor_id: i64,
    pid: Uuid,
    slot: String,
    expiration_date: Option<NaiveDate>,
}

/// The column of a listed vendor holding its current documents.
const CURRENT_DOCUMENTS: &str = "current_documents";

/// A vendor's current documents as one text: `id slot pid expiration` (`-` for no date) joined
/// by commas, in no order (the reader puts them in id order); NULL when it has none. Ids are
/// numbers, slots keys of lowercase letters and `_`, pids hexadecimal (`SQLite` keeps them as
/// 16-byte blobs) or hyphenated: none holds a space or a comma. The expiration date is
/// `PostgreSQL`'s number of days since 1970-01-01 and `SQLite`'s stored `YYYY-MM-DD`.
///
/// Measured on `PostgreSQL` 15 ("Twelfth pass" of docs/benchmarks/api.md): an aggregate with
/// its own `ORDER BY` sorts each vendor's documents in a sort of its own, and `to_char` reads
/// its format string for every date; the two were a third of the statement's time.
fn current_documents_sql(backend: DbBackend) -> &'static str {
    match backend {
        DbBackend::Postgres => {
            "(SELECT string_agg(d.id::text || ' ' || d.slot || ' ' || d.pid::text || ' ' || \
             coalesce((d.expiration_date - DATE '1970-01-01')::text, '-'), ',') \
             FROM documents AS d WHERE d.vendor_id = \"vendors\".\"id\" AND d.is_current = TRUE)"
        }
        _ => {
            "(SELECT group_concat(d.id || ' ' || d.slot || ' ' || \
             CASE typeof(d.pid) WHEN 'blob' THEN hex(d.pid) ELSE d.pid END || ' ' || \
             coalesce(d.expiration_date, '-'), ',') \
             FROM documents AS d WHERE d.vendor_id = \"vendors\".\"id\" AND d.is_current = TRUE)"
        }
    }
}

/// A current document as a vendor's standing needs it: its slot, expiration date and id.
type FoldedDocument = (String, Option<NaiveDate>, Uuid);

/// A listed vendor and its current documents, in id order.
struct ListedVendor {
    vendor: Model,
    current: Vec<FoldedDocument>,
}

impl ListedVendor {
    /// The standings of `listed`, in their order, with the expiration date of each one's
    /// current documents by document id (the non-compliant report words its reasons with them).
    fn standings_with_expirations(
        listed: impl IntoIterator<Item = Self>,
        today: NaiveDate,
    ) -> (Vec<VendorStanding>, HashMap<Uuid, Option<NaiveDate>>) {
        let mut expirations = HashMap::new();
        let standings = listed
            .into_iter()
            .map(|listed| {
                expirations.extend(listed.current.iter().map(|(_, date, pid)| (*pid, *date)));
                listed.standing(today)
            })
            .collect();
        (standings, expirations)
    }

    fn standing(self, today: NaiveDate) -> VendorStanding {
        VendorStanding::of(
            self.vendor,
            self.current
                .iter()
                .map(|(slot, expiration, pid)| (slot.as_str(), *expiration, *pid)),
            today,
        )
    }
}

/// One current document of [`current_documents_sql`]'s text: its id and what a standing needs.
fn folded_document(document: &str) -> Option<(i64, FoldedDocument)> {
    let mut parts = document.split(' ');
    let (Some(id), Some(slot), Some(pid), Some(date), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return None;
    };
    let expiration = match date {
        "-" => None,
        date => Some(match date.parse::<i32>() {
            // `PostgreSQL`'s days since 1970-01-01.
            Ok(days) => NaiveDate::from_epoch_days(days)?,
            // `SQLite`'s `YYYY-MM-DD`, which `NaiveDate`'s `FromStr` reads without a format
            // string to interpret (`parse_from_str` walks its format for every date).
            Err(_) => date.parse::<NaiveDate>().ok()?,
        }),
    };
    Some((
        id.parse().ok()?,
        (slot.to_string(), expiration, Uuid::parse_str(pid).ok()?),
    ))
}

/// [`current_documents_sql`]'s text as documents in id order; `Err` with the first it cannot
/// read.
fn folded_documents(text: &str) -> std::result::Result<Vec<FoldedDocument>, &str> {
    let mut current = text
        .split_terminator(',')
        .map(|document| folded_document(document).ok_or(document))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    current.sort_unstable_by_key(|(id, _)| *id);
    Ok(current.into_iter().map(|(_, document)| document).collect())
}

impl FromQueryResult for ListedVendor {
    fn from_query_result(row: &QueryResult, pre: &str) -> std::result::Result<Self, DbErr> {
        let vendor = Model::from_query_result(row, pre)?;
        let folded: Option<String> = row.try_get(pre, CURRENT_DOCUMENTS)?;
        let current = folded_documents(folded.as_deref().unwrap_or_default()).map_err(|bad| {
            DbErr::Type(format!(
                "vendor {}: a current document reads {bad:?} in {CURRENT_DOCUMENTS}",
                vendor.id
            ))
        })?;
        Ok(Self { vendor, current })
    }
}

impl Model {
    /// The organization's vendors matching `query`, in its order (ties by id), with their
    /// standing (the page only), and how many match in all.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(
        db: &DatabaseConnection,
        org_id: i64,
        query: &VendorQuery,
        today: NaiveDate,
    ) -> Result<(Vec<VendorStanding>, u64)> {
        let (listed, total) = Self::listed(db, org_id, query, today).await?;
        let standings = listed
            .into_iter()
            .map(|listed| listed.standing(today))
            .collect();
        Ok((standings, total))
    }

    /// [`Self::list`], with the expiration date of each listed vendor's current documents, by
    /// document id (the non-compliant report words its reasons with them).
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_with_expirations(
        db: &DatabaseConnection,
        org_id: i64,
        query: &VendorQuery,
        today: NaiveDate,
    ) -> Result<(Vec<VendorStanding>, HashMap<Uuid, Option<NaiveDate>>)> {
        let (listed, _) = Self::listed(db, org_id, query, today).await?;
        Ok(ListedVendor::standings_with_expirations(listed, today))
    }

    /// Vendor `vendor_id` of the organization as [`Self::list`] lists it (the same statement,
    /// narrowed to its row), or `None` when the organization has no such vendor: what a kept
    /// list needs to carry one vendor's change forward (`infra::answer_cache`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn listed_one(
        db: &DatabaseConnection,
        org_id: i64,
        vendor_id: i64,
        today: NaiveDate,
    ) -> Result<Option<VendorStanding>> {
        let listed = Self::with_current_documents(
            Entity::find()
                .in_tenant(org_id)
                .filter(vendors::Column::Id.eq(vendor_id)),
            db.get_database_backend(),
        )
        .into_model::<ListedVendor>()
        .one(db)
        .await?;
        Ok(listed.map(|listed| listed.standing(today)))
    }

    /// The organization's vendors matching `query`'s filters (its order and page not applied).
    ///
    /// # Errors
    /// Database errors (the gap filter reads the vendors with gaps first).
    pub async fn filtered<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
        query: &VendorQuery,
        today: NaiveDate,
    ) -> Result<Select<Entity>> {
        let mut select = Entity::find().in_tenant(org_id);
        if let Some(q) = search::text(query.q.as_deref()) {
            // A service type also by its label: "general contractor" for `general-contractor`.
            let lower = q.to_lowercase();
            let labelled: Vec<&str> = SERVICE_TYPES
                .into_iter()
                .filter(|t| t.replace('-', " ").contains(&lower))
                .collect();
            select = select.filter(
                [
                    vendors::Column::Name,
                    vendors::Column::Email,
                    vendors::Column::ServiceType,
                    vendors::Column::Key,
                ]
                .into_iter()
                .fold(Condition::any(), |any, col| {
                    any.add(search::contains_ci((vendors::Entity, col), q))
                })
                .add(vendors::Column::ServiceType.is_in(labelled)),
            );
        }
        if let Some(status) = query.status {
            select = select.filter(vendor_rank(today).eq(rank(status)));
        }
        if let Some(with_gaps) = query.gaps {
            let ids: Vec<i64> = crate::models::gaps::Review::vendors_with_gaps(db, org_id, today)
                .await?
                .iter()
                .map(|(v, _)| v.id)
                .collect();
            select = if with_gaps {
                select.filter(vendors::Column::Id.is_in(ids))
            } else {
                select.filter(vendors::Column::Id.is_not_in(ids))
            };
        }
        Ok(select)
    }

    /// `select` in the order of `sort` (ties by id), as the vendor list orders its rows.
    #[must_use]
    pub fn in_order(
        select: Select<Entity>,
        sort: &Sort<VendorSort>,
        today: NaiveDate,
    ) -> Select<Entity> {
        select
            .order_by(sort.key.expr(today), sort.order())
            .order_by(
                Expr::col((vendors::Entity, vendors::Column::Id)),
                sort.order(),
            )
    }

    /// `select` with each vendor's current documents ([`current_documents_sql`]).
    fn with_current_documents(select: Select<Entity>, backend: DbBackend) -> Select<Entity> {
        select.expr_as(
            Expr::cust(current_documents_sql(backend)),
            CURRENT_DOCUMENTS,
        )
    }

    /// `select` as the list reads it: with each vendor's current documents, in `query`'s order.
    fn listed_in_order(
        db: &DatabaseConnection,
        select: Select<Entity>,
        query: &VendorQuery,
        today: NaiveDate,
    ) -> Select<Entity> {
        Self::in_order(
            Self::with_current_documents(select, db.get_database_backend()),
            &query.sort,
            today,
        )
    }

    /// The page of `query`'s vendors with their current documents, and how many match in all.
    async fn listed(
        db: &DatabaseConnection,
        org_id: i64,
        query: &VendorQuery,
        today: NaiveDate,
    ) -> Result<(Vec<ListedVendor>, u64)> {
        let select = Self::filtered(db, org_id, query, today).await?;
        let count = select.clone().count(db);
        let page = query
            .page
            .apply(Self::listed_in_order(db, select, query, today))
            .into_model::<ListedVendor>()
            .all(db)
            .await?;
        let total = query.page.total(page.len(), count).await?;
        Ok((page, total))
    }

    /// Every vendor of `query` (its filters and order, every page) with its standing, read as
    /// one statement streams them: what [`Self::list`] answers without its page, never all
    /// held at once (the vendors export).
    ///
    /// # Errors
    /// Database errors, before the first vendor or (as an item) after it.
    pub async fn list_streamed<'a>(
        db: &'a DatabaseConnection,
        org_id: i64,
        query: &VendorQuery,
        today: NaiveDate,
    ) -> Result<impl futures_util::Stream<Item = Result<VendorStanding>> + Send + 'a> {
        use futures_util::StreamExt;
        let select = Self::filtered(db, org_id, query, today).await?;
        Ok(Self::listed_in_order(db, select, query, today)
            .into_model::<ListedVendor>()
            .stream(db)
            .await?
            .map(move |row| row.map(|listed| listed.standing(today)).map_err(Into::into)))
    }

    /// Vendors `ids` of the organization as [`Self::list`] lists them, in the order of `ids`
    /// (an id the organization has not is left out), with the expiration date of each one's
    /// current documents by document id, as [`Self::list_with_expirations`] gives them.
    ///
    /// # Errors
    /// Database errors.
    pub async fn listed_these<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
        ids: &[i64],
        today: NaiveDate,
    ) -> Result<(Vec<VendorStanding>, HashMap<Uuid, Option<NaiveDate>>)> {
        let mut listed: HashMap<i64, ListedVendor> = Self::with_current_documents(
            Entity::find()
                .in_tenant(org_id)
                .filter(vendors::Column::Id.is_in(ids.iter().copied())),
            db.get_database_backend(),
        )
        .into_model::<ListedVendor>()
        .all(db)
        .await?
        .into_iter()
        .map(|listed| (listed.vendor.id, listed))
        .collect();
        Ok(ListedVendor::standings_with_expirations(
            ids.iter().filter_map(|id| listed.remove(id)),
            today,
        ))
    }

    /// The standing of each of `vendors`, from one query for their current documents.
    ///
    /// # Errors
    /// Database errors.
    pub async fn standings_of(
        db: &DatabaseConnection,
        vendors: Vec<Self>,
        today: NaiveDate,
    ) -> Result<Vec<VendorStanding>> {
        if vendors.is_empty() {
            return Ok(vec![]);
        }
        let current = documents::Entity::find()
            .select_only()
            .columns([
                documents::Column::VendorId,
                documents::Column::Pid,
                documents::Column::Slot,
                documents::Column::ExpirationDate,
            ])
            .filter(documents::Column::VendorId.is_in(vendors.iter().map(|v| v.id)))
            .filter(documents::Column::IsCurrent.eq(true))
            .into_model::<SlotDocument>()
            .all(db)
            .await?;
        let mut by_vendor: HashMap<i64, Vec<SlotDocument>> = HashMap::new();
        for doc in current {
            by_vendor.entry(doc.vendor_id).or_default().push(doc);
        }
        Ok(vendors
            .into_iter()
            .map(|v| {
                let docs = by_vendor.remove(&v.id).unwrap_or_default();
                VendorStanding::of(
                    v,
                    docs.iter()
                        .map(|d| (d.slot.as_str(), d.expiration_date, d.pid)),
                    today,
                )
            })
            .collect())
    }

    /// How many requested documents the organization's vendors lack: each vendor's required
    /// slots holding no current document (the dashboard's "Missing", which reads the same
    /// figure kept per vendor: `super::super::vendor_figures`; this count is the tests'
    /// reference), counted in SQL: the required slots unfolded from each vendor's list (JSON
    /// text), less those a current document fills (from the index on vendor, slot and
    /// currency). Entries that are not a slot's key are skipped, as [`super::parse_required`]
    /// skips them.
    ///
    /// # Errors
    /// Database errors.
    pub async fn missing_required(db: &DatabaseConnection, org_id: i64) -> Result<u64> {
        let backend = db.get_database_backend();
        let slots = Slot::ALL
            .iter()
            .map(|slot| format!("'{}'", slot.as_str()))
            .collect::<Vec<_>>()
            .join(", ");
        let (required, param) = match backend {
            DbBackend::Postgres => (
                "json_array_elements_text(v.required_documents::json) AS r(value)",
                "$1",
            ),
            _ => (
                "json_each(CASE WHEN json_valid(v.required_documents) \
                 THEN v.required_documents ELSE '[]' END) AS r",
                "?",
            ),
        };
        let sql = format!(
            "SELECT COUNT(*) AS n FROM vendors AS v CROSS JOIN {required} \
             WHERE v.organization_id = {param} AND r.value IN ({slots}) \
             AND NOT EXISTS (SELECT 1 FROM documents AS d WHERE d.vendor_id = v.id \
             AND d.slot = r.value AND d.is_current = TRUE)"
        );
        let row = db
            .query_one_raw(Statement::from_sql_and_values(
                backend,
                sql,
                [org_id.into()],
            ))
            .await?;
        let n: i64 = match row {
            Some(row) => row.try_get("", "n")?,
            None => 0,
        };
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// How many of the organization's vendors have each status. A vendor's worst current
    /// document is the one expiring first (one without a date never expires), so its status is
    /// that of the earliest expiration date among its current documents: one query counts the
    /// vendors by that date (grouping the current documents by vendor, from the index alone),
    /// another counts every vendor; those without a current document are missing. The dashboard,
    /// the compliance report and the weekly summary read the same counts kept per vendor
    /// (`super::super::vendor_figures`); this count from the documents is the tests' reference.
    ///
    /// # Errors
    /// Database errors.
    pub async fn counts_by_status(
        db: &DatabaseConnection,
        org_id: i64,
        today: NaiveDate,
    ) -> Result<VendorCounts> {
        let (firsts, first, n) = (
            Alias::new("firsts"),
            Alias::new("earliest"),
            Alias::new("n"),
        );
        let by_vendor = Query::select()
            .column(documents::Column::VendorId)
            .expr_as(
                Func::min(Expr::col(documents::Column::ExpirationDate)),
                first.clone(),
            )
            .from(documents::Entity)
            .and_where(Expr::col(documents::Column::OrganizationId).eq(org_id))
            .and_where(Expr::col(documents::Column::IsCurrent).eq(true))
            .group_by_col(documents::Column::VendorId)
            .to_owned();
        let grouped = Query::select()
            .column((firsts.clone(), first.clone()))
            .expr_as(Expr::cust("COUNT(*)"), n)
            .from_subquery(by_vendor, firsts.clone())
            .group_by_col((firsts, first))
            .to_owned();
        let total = Entity::find()
            .filter(vendors::Column::OrganizationId.eq(org_id))
            .count(db)
            .await?;
        let mut counts = VendorCounts::default();
        for row in db.query_all(&grouped).await? {
            let date: Option<NaiveDate> = row.try_get("", "earliest")?;
            let n = u64::try_from(row.try_get::<i64>("", "n")?).unwrap_or(0);
            counts.add(true, date, today, n);
        }
        let without_documents = total.saturating_sub(counts.total);
        counts.add(false, None, today, without_documents);
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folded_document_reads_both_databases_dates() {
        let pid = Uuid::parse_str("0193a5b2-7c1e-7a00-8000-0000000000ff").unwrap();
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d);
        let read =
            |text: &str| folded_document(text).map(|(id, (slot, date, p))| (id, slot, date, p));
        assert_eq!(
            read("42 w9 0193a5b2-7c1e-7a00-8000-0000000000ff 20787"),
            Some((42, "w9".to_string(), day(2026, 11, 30), pid)),
            "PostgreSQL's days since 1970-01-01"
        );
        assert_eq!(
            read("7 other 0193A5B27C1E7A0080000000000000FF -1"),
            Some((7, "other".to_string(), day(1969, 12, 31), pid)),
            "before 1970, and SQLite's hexadecimal pid"
        );
        assert_eq!(
            read("7 other 0193a5b2-7c1e-7a00-8000-0000000000ff 2026-11-30"),
            Some((7, "other".to_string(), day(2026, 11, 30), pid)),
            "SQLite's YYYY-MM-DD"
        );
        assert_eq!(
            read("7 other 0193a5b2-7c1e-7a00-8000-0000000000ff -"),
            Some((7, "other".to_string(), None, pid)),
            "no date"
        );
        for bad in [
            "",
            "w9 0193a5b2-7c1e-7a00-8000-0000000000ff 20787",
            "x w9 0193a5b2-7c1e-7a00-8000-0000000000ff 20787",
            "1 w9 not-a-pid 20787",
            "1 w9 0193a5b2-7c1e-7a00-8000-0000000000ff 2026-13-01",
            "1 w9 0193a5b2-7c1e-7a00-8000-0000000000ff 20787 more",
            "1 w9 0193a5b2-7c1e-7a00-8000-0000000000ff 99999999999999",
        ] {
            assert_eq!(read(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn folded_documents_are_put_in_id_order() {
        let pid = |n: u8| Uuid::from_bytes([n; 16]);
        let text = format!(
            "12 other {} -,3 other {} 20787,7 w9 {} -",
            pid(12).simple(),
            pid(3),
            pid(7)
        );
        let read = folded_documents(&text).unwrap();
        assert_eq!(
            read.iter().map(|(_, _, p)| *p).collect::<Vec<_>>(),
            [pid(3), pid(7), pid(12)]
        );
        assert_eq!(folded_documents("").unwrap(), []);
        assert_eq!(
            folded_documents(&format!("3 other {} -,oops", pid(3))),
            Err("oops")
        );
    }
}
