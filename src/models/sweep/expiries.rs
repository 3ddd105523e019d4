//! Recording `document_expired` for the documents whose expiration date has come: the sweep's
//! second half, done on the database server (docs/benchmarks/reminder-sweep.md).

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{
        Alias, BinOper, CommonTableExpression, DeleteStatement, DynIden, Expr, ExprTrait, Func,
        InsertStatement, IntoIden, OnConflict, Query, SelectStatement,
    },
    DbBackend, Order, TryGetableMany,
};

use crate::models::{
    _entities::{activities, documents, pending_expiries, vendors},
    activities::DOCUMENT_EXPIRED,
    compliance, reminders,
};

/// Records `document_expired` once for every current document whose expiration date is on or
/// before `day`, batch by batch, on the database server, and returns how many entries this
/// sweep wrote. Each expiry's entry id was fixed when it started waiting, and `ON CONFLICT
/// ("pid") DO NOTHING` skips an entry already written, so two sweeps at once, or a sweep run
/// again after a crash, never write one twice. A batch is one transaction
/// (`expiry_batch_statements`):
///
/// - `PostgreSQL`: one statement, `WITH gone AS (DELETE ... RETURNING) INSERT ... SELECT ...
///   FROM gone`: the rows this statement deleted become entries, each page of
///   `pending_expiries` is visited once, and a second sweep blocks on the rows the first is
///   deleting, then finds them gone.
/// - `SQLite` (no `DELETE` in a `WITH`): the `INSERT ... SELECT` from `pending_expiries`, then
///   a `DELETE` of the rows whose entry exists. The insert is a write, so the transaction holds
///   the database's one write lock from its first statement on.
///
/// # Errors
/// Database errors.
pub async fn record_expired_documents(
    db: &DatabaseConnection,
    day: NaiveDate,
    batch_size: u64,
) -> Result<u64> {
    let backend = db.get_database_backend();
    let mut recorded = 0;
    loop {
        // Read before the transaction: on `SQLite` a transaction that reads first and then
        // writes fails at once ("database is locked") when another writer got in between,
        // where one that starts with its write waits its turn. The end is only where this
        // batch stops; the statements decide what is taken.
        let end = match db
            .query_one(&expiry_batch_end_statement(day, batch_size))
            .await?
        {
            Some(row) => {
                Some(<(NaiveDate, i64)>::try_get_many_by_index(&row).map_err(DbErr::from)?)
            }
            None => None,
        };
        let txn = db.begin().await?;
        let statements = expiry_batch_statements(backend, day, end, reminders::now());
        recorded += txn.execute(&statements.entries).await?.rows_affected();
        if let Some(delete) = &statements.delete {
            txn.execute(delete).await?;
        }
        txn.commit().await?;
        if end.is_none() {
            return Ok(recorded);
        }
    }
}

/// The statements of one batch of expiries (see `record_expired_documents`).
pub struct ExpiryBatch {
    /// Writes the entries (on `PostgreSQL` also takes the rows off `pending_expiries`).
    pub entries: InsertStatement,
    /// `SQLite`: then takes off the rows whose entry exists.
    pub delete: Option<DeleteStatement>,
}

/// The statements of the batch of expiries due by `day` and up to `end` (all due when `None`),
/// their entries stamped `now`. Public so the benchmark can show their plans.
#[must_use]
pub fn expiry_batch_statements(
    backend: DbBackend,
    day: NaiveDate,
    end: Option<(NaiveDate, i64)>,
    now: DateTimeWithTimeZone,
) -> ExpiryBatch {
    if backend == DbBackend::Postgres {
        let gone = Alias::new("gone");
        let mut delete = Query::delete();
        delete
            .from_table(pending_expiries::Entity)
            .cond_where(due_expiries(day, end))
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
            .cond_where(due_expiries(day, end))
            .and_where(Expr::exists(entry));
        ExpiryBatch {
            entries: expiry_entries(
                backend,
                pending_expiries::Entity.into_iden(),
                Some(due_expiries(day, end)),
                now,
            ),
            delete: Some(delete),
        }
    }
}

/// The due pending expiries, up to `end` in (date, document) order when given. Columns are
/// qualified: `documents` has an `expiration_date` too.
fn due_expiries(day: NaiveDate, end: Option<(NaiveDate, i64)>) -> Condition {
    let date = || {
        Expr::col((
            pending_expiries::Entity,
            pending_expiries::Column::ExpirationDate,
        ))
    };
    let mut due = Condition::all().add(date().lte(day));
    if let Some((end_date, end_id)) = end {
        due = due.add(
            Expr::tuple([
                date(),
                Expr::col((
                    pending_expiries::Entity,
                    pending_expiries::Column::DocumentId,
                )),
            ])
            .lte(Expr::tuple([Expr::val(end_date), Expr::val(end_id)])),
        );
    }
    due
}

/// Where the next batch of expiries ends, as `(expiration_date, document_id)`: the
/// `batch_size`-th pending expiry due by `day`; no row when fewer are left. An index-only read of the due index.
#[must_use]
pub fn expiry_batch_end_statement(day: NaiveDate, batch_size: u64) -> SelectStatement {
    let mut end = Query::select();
    end.columns([
        pending_expiries::Column::ExpirationDate,
        pending_expiries::Column::DocumentId,
    ])
    .from(pending_expiries::Entity)
    .cond_where(due_expiries(day, None))
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
        doc(documents::Column::DocumentType),
        doc(documents::Column::CoiType),
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
    rows.expr(Expr::col((
        source.clone(),
        pending_expiries::Column::EntryPid,
    )))
    .expr(Expr::val(DOCUMENT_EXPIRED))
    .expr(description)
    .expr(vendor(vendors::Column::Key))
    .expr(uuid_text(backend, doc(documents::Column::Pid)))
    .expr(doc(documents::Column::OrganizationId))
    .expr(Expr::val(now))
    .expr(Expr::val(now))
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
        ])
        .select_from(rows)
        .expect("eight columns for eight values")
        .on_conflict(
            OnConflict::column(activities::Column::Pid)
                .do_nothing()
                .to_owned(),
        );
    insert
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
