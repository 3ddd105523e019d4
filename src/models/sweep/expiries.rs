//! Recording `document_expired` for the documents whose expiration date has come: the sweep's
//! second half, done on the database server (docs/benchmarks/reminder-sweep.md).

use chrono::NaiveDate;
use futures_util::{stream, TryStreamExt};
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{
        Alias, BinOper, CommonTableExpression, DeleteStatement, DynIden, Expr, ExprTrait, Func,
        InsertStatement, IntoIden, OnConflict, Query, SelectStatement, UpdateStatement,
    },
    DbBackend, Order, TryGetableMany,
};

use super::{
    scope::{due_expiries, Due},
    Scope,
};
use crate::models::{
    _entities::{activities, documents, pending_expiries, vendors},
    activities::{ActivitySource, ActivityType},
    compliance, reminders,
};

/// Where a batch of expiries starts or ends: `(expiration_date, document_id)`, the order of the
/// due index.
pub type ExpiryKey = (NaiveDate, i64);

/// How many batches of expiries are written at once on `PostgreSQL` (`SQLite` takes one writer
/// at a time). Two keep both of a small database server's cores busy: a batch spends most of
/// its time on the server, reading documents and writing index pages, and its rows are its own
/// (the batches are disjoint ranges of the due index).
pub const EXPIRY_BATCHES_AT_ONCE: usize = 2;

/// Records `document_expired` once for every current document of the organizations of `scope`
/// whose expiration date is on or before `day`, batch by batch, on the database server, and returns how many entries this
/// sweep wrote. Each expiry's entry id was fixed when it started waiting, and `ON CONFLICT
/// ("pid") DO NOTHING` skips an entry already written, so two sweeps at once, or a sweep run
/// again after a crash, never write one twice. The batches are consecutive ranges of the due
/// index, found one after the other and written up to `EXPIRY_BATCHES_AT_ONCE` at a time; a
/// batch is one transaction (`expiry_batch_statements`):
///
/// - `PostgreSQL`: one statement, `WITH gone AS (DELETE ... RETURNING) INSERT ... SELECT ...
///   FROM gone`: the rows this statement deleted become entries, each page of
///   `pending_expiries` is visited once, and a second sweep blocks on the rows the first is
///   deleting, then finds them gone.
/// - `SQLite` (no `DELETE` in a `WITH`): an `UPDATE` giving an entry id to any row without one
///   (`entry_pid`), the `INSERT ... SELECT` from `pending_expiries`, then a `DELETE` of the
///   rows whose entry exists. The first statement is a write, so the transaction holds the
///   database's one write lock from its start.
///
/// # Errors
/// Database errors. Batches already committed stay recorded; the others are left to the next
/// sweep.
pub async fn record_expired_documents(
    db: &DatabaseConnection,
    day: NaiveDate,
    scope: &Scope,
    batch_size: u64,
) -> Result<u64> {
    let at_once = if db.get_database_backend() == DbBackend::Postgres {
        EXPIRY_BATCHES_AT_ONCE
    } else {
        1
    };
    // The batches' ranges, each found after the one before (`None`: no batch left), while
    // up to `at_once` batches are written. The futures own their handle on the pool (a
    // clone): borrowed, they trip the compiler's check that the sweep's future is `Send`.
    let (finder, finder_scope) = (db.clone(), scope.clone());
    let ranges = stream::try_unfold(Some(None), move |next: Option<Option<ExpiryKey>>| {
        let (db, scope) = (finder.clone(), finder_scope.clone());
        async move {
            let Some(after) = next else {
                return Ok(None);
            };
            let end = batch_end(&db, day, &scope, after, batch_size).await?;
            Ok::<_, Error>(Some(((after, end), end.map(Some))))
        }
    });
    ranges
        .map_ok(|(after, end)| record_batch(db.clone(), day, scope.clone(), after, end))
        .try_buffer_unordered(at_once)
        .try_fold(0, |recorded, batch| async move { Ok(recorded + batch) })
        .await
}

/// Where the batch after `after` ends (`None`: it takes every due row left). Read outside the
/// batch's transaction: on `SQLite` a transaction that reads first and then writes fails at
/// once ("database is locked") when another writer got in between, where one that starts with
/// its write waits its turn. The end is only where a batch stops; its statements decide what
/// is taken.
async fn batch_end(
    db: &DatabaseConnection,
    day: NaiveDate,
    scope: &Scope,
    after: Option<ExpiryKey>,
    batch_size: u64,
) -> Result<Option<ExpiryKey>> {
    match db
        .query_one(&expiry_batch_end_statement(day, scope, after, batch_size))
        .await?
    {
        Some(row) => Ok(Some(
            <ExpiryKey>::try_get_many_by_index(&row).map_err(DbErr::from)?,
        )),
        None => Ok(None),
    }
}

/// Writes the batch of expiries after `after` and up to `end` in one transaction; returns how
/// many entries it wrote.
async fn record_batch(
    db: DatabaseConnection,
    day: NaiveDate,
    scope: Scope,
    after: Option<ExpiryKey>,
    end: Option<ExpiryKey>,
) -> Result<u64> {
    let txn = crate::models::begin_write(&db).await?;
    let due = Due {
        day,
        scope: &scope,
        after,
        end,
    };
    let statements = expiry_batch_statements(db.get_database_backend(), &due, reminders::now());
    if let Some(assign_ids) = &statements.assign_ids {
        txn.execute(assign_ids).await?;
    }
    let recorded = txn.execute(&statements.entries).await?.rows_affected();
    if let Some(delete) = &statements.delete {
        txn.execute(delete).await?;
    }
    txn.commit().await?;
    Ok(recorded)
}

/// The statements of one batch of expiries (see `record_expired_documents`).
pub struct ExpiryBatch {
    /// `SQLite`: first gives an entry id to each row written without one (on `PostgreSQL`
    /// `entries` does: see `entry_pid`).
    pub assign_ids: Option<UpdateStatement>,
    /// Writes the entries (on `PostgreSQL` also takes the rows off `pending_expiries`).
    pub entries: InsertStatement,
    /// `SQLite`: then takes off the rows whose entry exists.
    pub delete: Option<DeleteStatement>,
}

/// The statements of the batch of expiries `due`, their entries stamped `now`. Public so the
/// benchmark can show their plans.
#[must_use]
pub fn expiry_batch_statements(
    backend: DbBackend,
    due: &Due<'_>,
    now: DateTimeWithTimeZone,
) -> ExpiryBatch {
    if backend == DbBackend::Postgres {
        let gone = Alias::new("gone");
        let mut delete = Query::delete();
        delete
            .from_table(pending_expiries::Entity)
            .cond_where(due_expiries(due))
            .returning(Query::returning().columns([
                pending_expiries::Column::DocumentId,
                pending_expiries::Column::EntryPid,
            ]));
        let mut entries = expiry_entries(backend, gone.clone().into_iden(), None, now);
        entries.with_cte(
            CommonTableExpression::new()
                .query(delete)
                .table_name(gone)
                .to_owned(),
        );
        ExpiryBatch {
            assign_ids: None,
            entries,
            delete: None,
        }
    } else {
        let mut entry = Query::select();
        entry.expr(Expr::val(1)).from(activities::Entity).and_where(
            Expr::col((activities::Entity, activities::Column::Pid))
                .equals((pending_expiries::Entity, pending_expiries::Column::EntryPid)),
        );
        let mut delete = Query::delete();
        delete
            .from_table(pending_expiries::Entity)
            .cond_where(due_expiries(due))
            .and_where(Expr::exists(entry));
        let mut assign_ids = Query::update();
        assign_ids
            .table(pending_expiries::Entity)
            .value(
                pending_expiries::Column::EntryPid,
                Expr::cust("randomblob(16)"),
            )
            .cond_where(due_expiries(due))
            .and_where(pending_expiries::Column::EntryPid.is_null());
        ExpiryBatch {
            assign_ids: Some(assign_ids),
            entries: expiry_entries(
                backend,
                pending_expiries::Entity.into_iden(),
                Some(due_expiries(due)),
                now,
            ),
            delete: Some(delete),
        }
    }
}

/// Where the batch of expiries of `scope` due by `day` that starts after `after` ends: its
/// `batch_size`-th row; no row when fewer are left. An index-only read of the due index (for
/// every organization; a zone's sweep also reads the organizations' documents).
#[must_use]
pub fn expiry_batch_end_statement(
    day: NaiveDate,
    scope: &Scope,
    after: Option<ExpiryKey>,
    batch_size: u64,
) -> SelectStatement {
    let mut end = Query::select();
    end.columns([
        pending_expiries::Column::ExpirationDate,
        pending_expiries::Column::DocumentId,
    ])
    .from(pending_expiries::Entity)
    .cond_where(due_expiries(&Due {
        day,
        scope,
        after,
        end: None,
    }))
    .order_by(pending_expiries::Column::ExpirationDate, Order::Asc)
    .order_by(pending_expiries::Column::DocumentId, Order::Asc)
    .offset(batch_size.saturating_sub(1))
    .limit(1);
    end
}

/// One `document_expired` entry for each row of `source` (`pending_expiries`, or the rows a
/// `WITH` deleted from it) that `due` selects, written from the document and its vendor in one
/// `INSERT ... SELECT`: "COI - General "coi.pdf" for Acme Plumbing expired", with the vendor's
/// company key and the document's id. An entry already written (same `pid`) is left alone.
fn expiry_entries(
    backend: DbBackend,
    source: DynIden,
    due: Option<Condition>,
    now: DateTimeWithTimeZone,
) -> InsertStatement {
    let doc = |c: documents::Column| Expr::col((documents::Entity, c));
    let vendor = |c: vendors::Column| Expr::col((vendors::Entity, c));
    let label = compliance::stored_label_sql(
        &doc(documents::Column::DocumentType),
        &doc(documents::Column::CoiType),
    );
    // `||` is SQL's string concatenation in both databases.
    let concat = |parts: Vec<Expr>| {
        parts
            .into_iter()
            .reduce(|all, part| all.binary(BinOper::Custom("||"), part))
            .expect("parts")
    };
    let description = concat(vec![
        label,
        Expr::val(" \""),
        doc(documents::Column::FileName),
        Expr::val("\" for "),
        Func::coalesce([vendor(vendors::Column::Name), Expr::val("a vendor")]).into(),
        Expr::val(" expired"),
    ]);
    let mut rows = Query::select();
    rows.expr(entry_pid(backend, source.clone()))
        .expr(Expr::val(ActivityType::DocumentExpired))
        .expr(description)
        .expr(vendor(vendors::Column::Key))
        .expr(uuid_text(backend, doc(documents::Column::Pid)))
        .expr(doc(documents::Column::OrganizationId))
        .expr(Expr::val(now))
        .expr(Expr::val(now))
        .expr(Expr::val(ActivitySource::System))
        .from(source.clone())
        .inner_join(
            documents::Entity,
            doc(documents::Column::Id).equals((source, pending_expiries::Column::DocumentId)),
        )
        .left_join(
            vendors::Entity,
            vendor(vendors::Column::Id).equals((documents::Entity, documents::Column::VendorId)),
        )
        // A `WHERE` is also what SQLite needs to read `ON CONFLICT` after a join as the insert's.
        .cond_where(due.unwrap_or_else(|| Condition::all().add(Expr::val(true))));
    let mut insert = Query::insert();
    insert
        .into_table(activities::Entity)
        .columns([
            activities::Column::Pid,
            activities::Column::ActivityType,
            activities::Column::Description,
            activities::Column::VendorKey,
            activities::Column::DocumentPid,
            activities::Column::OrganizationId,
            activities::Column::CreatedAt,
            activities::Column::UpdatedAt,
            activities::Column::Source,
        ])
        .select_from(rows)
        .expect("nine columns for nine values")
        .on_conflict(
            OnConflict::column(activities::Column::Pid)
                .do_nothing()
                .to_owned(),
        );
    insert
}

/// The entry's id, fixed in `pending_expiries.entry_pid`. A row written by a server of the
/// version before that column (still running while the new one migrated, in a rolling deploy)
/// has none: on `PostgreSQL` it gets one here, in the statement that takes the row off; on
/// `SQLite` `ExpiryBatch::assign_ids` gives it one first, so the `DELETE` finds its entry.
fn entry_pid(backend: DbBackend, source: DynIden) -> Expr {
    let fixed = Expr::col((source, pending_expiries::Column::EntryPid));
    if backend == DbBackend::Postgres {
        Func::coalesce([fixed, Expr::cust("gen_random_uuid()")]).into()
    } else {
        fixed
    }
}

/// A uuid column as the text `activities.document_pid` keeps (`Uuid::to_string`): `PostgreSQL`
/// casts it; `SQLite` holds the 16 bytes, which are spelled out in hex.
fn uuid_text(backend: DbBackend, uuid: Expr) -> Expr {
    match backend {
        // `?`: where `cust_with_exprs` puts the expression, in SQLite's placeholder.
        DbBackend::Sqlite => Expr::cust_with_exprs(
            "(SELECT lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) \
             || '-' || substr(h, 17, 4) || '-' || substr(h, 21)) FROM (SELECT hex(?) AS h))",
            [uuid],
        ),
        _ => uuid.cast_as("text"),
    }
}
