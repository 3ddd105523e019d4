//! The rows of many organizations, written by `INSERT ... SELECT` on the database server
//! (`generate_series` on `PostgreSQL`, a recursive CTE on `SQLite`) in one transaction per batch
//! of organizations: nothing goes row by row through the ORM.
//!
//! Organization `o` has what signing up, adding 25 vendors and uploading one document into each
//! of the 7 slots leaves behind once the year has run: its row and its owner's (user id `o`),
//! vendors `25(o-1)+1 ..= 25o`, and for vendor `v` the current documents `7(v-1)+1 ..= 7v`, one
//! per slot (the W-9 and Other without a date, the 5 others expiring from 30 days ago to a year
//! from now, spread by a fixed formula). Each dated document has its reminders (one per
//! configured offset, those already due marked sent), a pending expiry while it has not expired,
//! and the activity log its entries: one per vendor added, one per upload, one per expiry. The
//! uuids (`pid`) follow the ids rather than being random, so that their unique indexes fill at
//! one end (none of them is read by the requests measured).

use chrono::NaiveDate;
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, DbErr, TransactionTrait};
use vendorwatch::models::compliance::{compose_notes, CoiType, Slot};

use crate::dialect::Dialect;

pub const VENDORS_PER_ORG: u64 = 25;
pub const DOCUMENTS_PER_VENDOR: u64 = Slot::ALL.len() as u64;

fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// The stored label of the document in the slot `col` names, as the activity log writes it.
fn label_sql(col: &str) -> String {
    let cases: Vec<String> = Slot::ALL
        .iter()
        .map(|slot| {
            let (kind, coi) = slot.document_type();
            let label = coi.map_or(kind.label(), CoiType::label);
            format!("WHEN {} THEN {}", quoted(slot.as_str()), quoted(label))
        })
        .collect();
    format!("(CASE {col} {} END)", cases.join(" "))
}

/// The seven slots as a CTE `slots(s, document_type, coi_type, slot, notes, dated)`.
fn slots_cte() -> String {
    let rows: Vec<String> = (1..)
        .zip(Slot::ALL)
        .map(|(s, slot)| {
            let (kind, coi) = slot.document_type();
            let text = |v: Option<&str>| v.map_or("NULL".into(), quoted);
            format!(
                "({s}, {}, {}, {}, {}, {})",
                quoted(kind.as_str()),
                text(coi.map(CoiType::as_str)),
                quoted(slot.as_str()),
                text(compose_notes(coi, None).as_deref()),
                u8::from(!matches!(slot, Slot::W9 | Slot::Other))
            )
        })
        .collect();
    format!(
        "slots(s, document_type, coi_type, slot, notes, dated) AS (VALUES {})",
        rows.join(", ")
    )
}

/// One batch: organizations `first..=last`, their vendors and their documents.
struct Batch {
    sql: Dialect,
    orgs: (u64, u64),
    vendors: (u64, u64),
    documents: (u64, u64),
}

impl Batch {
    fn new(sql: Dialect, (first, last): (u64, u64)) -> Self {
        let vendors = ((first - 1) * VENDORS_PER_ORG + 1, last * VENDORS_PER_ORG);
        let documents = (
            (vendors.0 - 1) * DOCUMENTS_PER_VENDOR + 1,
            vendors.1 * DOCUMENTS_PER_VENDOR,
        );
        Self {
            sql,
            orgs: (first, last),
            vendors,
            documents,
        }
    }

    fn today(&self) -> String {
        self.sql.date(self.sql.today)
    }

    /// The organizations and their owners.
    fn owners(&self) -> [String; 2] {
        let (sql, now) = (&self.sql, self.sql.midnight(&self.today()));
        let g = sql.series(self.orgs.0, self.orgs.1);
        let uuid = sql.ordered_uuid(0, "i");
        [
            format!(
                "WITH RECURSIVE {g} INSERT INTO organizations (id, pid, name, plan, created_at, \
                 updated_at) SELECT i, {uuid}, 'Tenant ' || i, 'professional', {now}, {now} FROM g"
            ),
            format!(
                "WITH RECURSIVE {g} INSERT INTO users (id, pid, email, password, api_key, name, \
                 company, role, organization_id, weekly_summary, created_at, updated_at) \
                 SELECT i, {uuid}, 'owner' || i || '@tenant.example', 'never signs in', \
                 'vw-tenant-' || i, 'Owner ' || i, 'Tenant ' || i, 'user', i, TRUE, {now}, {now} \
                 FROM g"
            ),
        ]
    }

    fn vendors(&self) -> String {
        let sql = &self.sql;
        let added = sql.midnight(&sql.day("-400"));
        let required = serde_json::to_string(&Slot::DEFAULT_REQUIRED.map(Slot::as_str)).unwrap();
        format!(
            "WITH RECURSIVE {g} INSERT INTO vendors (id, key, name, email, service_type, \
             required_documents, organization_id, created_at, updated_at) \
             SELECT i, {key}, 'Vendor ' || ((i * 7919) % 100000), 'vendor' || i || '@example.com', \
             'plumbing', {required}, (i - 1) / {VENDORS_PER_ORG} + 1, {added}, {added} FROM g",
            g = sql.series(self.vendors.0, self.vendors.1),
            key = sql.company_key("i"),
            required = quoted(&required),
        )
    }

    /// One current document per slot and vendor; the dated ones expire from 30 days ago to a
    /// year from now, uploaded a year before that.
    fn documents(&self) -> String {
        let sql = &self.sql;
        let uploaded = sql.midnight(&sql.day("COALESCE(expires_in - 365, -(id % 300))"));
        format!(
            "WITH RECURSIVE {g}, {slots}, d AS (SELECT (i - 1) * {DOCUMENTS_PER_VENDOR} + s AS id, \
             i AS vendor_id, (i - 1) / {VENDORS_PER_ORG} + 1 AS organization_id, document_type, \
             coi_type, slot, notes, CASE WHEN dated = 1 THEN ((i * 7 + s) * 7919) % 395 - 30 END \
             AS expires_in FROM g CROSS JOIN slots) \
             INSERT INTO documents (id, pid, document_type, coi_type, slot, file_name, storage_key, \
             content_type, size, expiration_date, notes, source, version, is_current, \
             superseded_at, organization_id, vendor_id, created_at, updated_at) \
             SELECT id, {uuid}, document_type, coi_type, slot, slot || '-' || id || '.pdf', \
             'documents/' || id, 'application/pdf', 120000, \
             CASE WHEN expires_in IS NOT NULL THEN {expires} END, notes, 'user', 1, TRUE, NULL, \
             organization_id, vendor_id, {uploaded}, {uploaded} FROM d",
            g = sql.series(self.vendors.0, self.vendors.1),
            slots = slots_cte(),
            uuid = sql.ordered_uuid(0, "id"),
            expires = sql.day("expires_in"),
        )
    }

    fn these_documents(&self) -> String {
        format!("d.id BETWEEN {} AND {}", self.documents.0, self.documents.1)
    }

    /// The reminders of the dated documents, one per offset; those already due were sent.
    fn reminders(&self, offsets: &[u32]) -> String {
        let sql = &self.sql;
        let offsets: Vec<String> = offsets.iter().map(|o| format!("({o})")).collect();
        format!(
            "WITH offsets(o) AS (VALUES {offsets}) \
             INSERT INTO reminders (pid, reminder_date, offset_days, sent_at, organization_id, \
             document_id, created_at, updated_at) \
             SELECT {uuid}, r.due, r.o, CASE WHEN r.due < {today} THEN {sent} END, \
             r.organization_id, r.id, r.created_at, r.created_at \
             FROM (SELECT d.id, d.organization_id, d.created_at, o, {due} AS due \
             FROM documents d CROSS JOIN offsets \
             WHERE {these} AND d.expiration_date IS NOT NULL) r",
            offsets = offsets.join(", "),
            uuid = sql.ordered_uuid(0, "r.id * 1000 + r.o"),
            today = self.today(),
            sent = sql.midnight("r.due"),
            due = sql.shift("d.expiration_date", "-o"),
            these = self.these_documents(),
        )
    }

    /// The expiries the daily sweep has still to record.
    fn pending_expiries(&self) -> String {
        format!(
            "INSERT INTO pending_expiries (document_id, expiration_date, entry_pid) \
             SELECT d.id, d.expiration_date, {uuid} FROM documents d \
             WHERE {these} AND d.expiration_date > {today}",
            uuid = self.sql.ordered_uuid(0, "d.id"),
            these = self.these_documents(),
            today = self.today(),
        )
    }

    /// The activity log: a vendor added, a document uploaded, a document expired.
    fn activities(&self) -> [String; 3] {
        let sql = &self.sql;
        let entry = "INSERT INTO activities (pid, activity_type, description, vendor_key, \
                     document_pid, organization_id, created_at, updated_at)";
        let document_entry = |tag: u8, kind: &str, said: &str, at: &str, only: &str| {
            format!(
                "{entry} SELECT {uuid}, '{kind}', {label} || ' \"' || d.file_name || '\" for ' \
                 || v.name || '{said}', v.key, {pid}, d.organization_id, {at}, {at} \
                 FROM documents d JOIN vendors v ON v.id = d.vendor_id WHERE {these}{only}",
                uuid = sql.ordered_uuid(tag, "d.id"),
                label = label_sql("d.slot"),
                pid = sql.uuid_text("d.pid"),
                these = self.these_documents(),
            )
        };
        [
            format!(
                "{entry} SELECT {uuid}, 'vendor_created', 'Vendor ' || v.name || ' was added', \
                 v.key, NULL, v.organization_id, v.created_at, v.created_at FROM vendors v \
                 WHERE v.id BETWEEN {} AND {}",
                self.vendors.0,
                self.vendors.1,
                uuid = sql.ordered_uuid(1, "v.id"),
            ),
            document_entry(2, "document_uploaded", " was uploaded", "d.created_at", ""),
            document_entry(
                3,
                "document_expired",
                " expired",
                &sql.midnight("d.expiration_date"),
                &format!(" AND d.expiration_date <= {}", self.today()),
            ),
        ]
    }
}

/// Writes organizations `first..=last` (vendors, documents, reminders, pending expiries,
/// activity), with their organization and owner rows when `with_owner` (the bench's own
/// organization signed up through the API), in one transaction.
///
/// # Errors
/// Database errors.
pub async fn write(
    db: &DatabaseConnection,
    (first, last): (u64, u64),
    with_owner: bool,
    offsets: &[u32],
    today: NaiveDate,
) -> Result<(), DbErr> {
    let pg = db.get_database_backend() == DbBackend::Postgres;
    let batch = Batch::new(Dialect { pg, today }, (first, last));
    let mut statements = vec![];
    if with_owner {
        statements.extend(batch.owners());
    }
    statements.extend([batch.vendors(), batch.documents()]);
    if !offsets.is_empty() {
        statements.push(batch.reminders(offsets));
    }
    statements.push(batch.pending_expiries());
    statements.extend(batch.activities());
    let txn = db.begin().await?;
    for statement in statements {
        txn.execute_unprepared(&statement).await?;
    }
    txn.commit().await
}

/// A connection of its own for the bulk writes, without the checks of foreign keys (the rows
/// are consistent by construction, and checking them doubles the time): on `PostgreSQL` with
/// `session_replication_role = replica` when the user may set it (a superuser), on `SQLite`
/// with `foreign_keys = OFF`, and a page cache of 1 GB.
///
/// # Errors
/// When the database cannot be reached.
pub async fn seeding_connection(url: &str) -> Result<DatabaseConnection, DbErr> {
    let mut options = sea_orm::ConnectOptions::new(url);
    options
        .max_connections(1)
        .min_connections(1)
        .sqlx_logging(false);
    let db = sea_orm::Database::connect(options).await?;
    if db.get_database_backend() == DbBackend::Postgres {
        if let Err(e) = db
            .execute_unprepared("SET session_replication_role = replica")
            .await
        {
            println!("(foreign keys checked while seeding: {e})");
        }
    } else {
        db.execute_unprepared("PRAGMA foreign_keys = OFF").await?;
        db.execute_unprepared("PRAGMA cache_size = -1048576")
            .await?;
    }
    Ok(db)
}

/// After rows written with explicit ids, `PostgreSQL`'s id sequences continue past them
/// (`SQLite` keeps track by itself).
///
/// # Errors
/// Database errors.
pub async fn advance_sequences(db: &DatabaseConnection) -> Result<(), DbErr> {
    if db.get_database_backend() != DbBackend::Postgres {
        return Ok(());
    }
    for table in ["organizations", "users", "vendors", "documents"] {
        db.execute_unprepared(&format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"
        ))
        .await?;
    }
    Ok(())
}
