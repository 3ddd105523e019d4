use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

use crate::m20261124_000003_organizations_data_version::{sqlite_triggers, PG_FUNCTION};

/// `organizations.changed_vendor_id`: the vendor that the last raise of `data_version` was for,
/// when that raise changed one vendor's listed entry and nothing else (the vendor's row
/// updated in place, or one of its documents inserted, updated or deleted); NULL after any
/// other raise (a vendor added or deleted, a requirement set or a waiver written, a row moved
/// to another organization) and after a restore.
///
/// Every raise sets it, so it always describes the last one. A server keeping the vendor list
/// of version `v - 1` can then answer version `v` by reading that one vendor again, but only
/// when the raise to `v` was the only one of its transaction: a version in the middle of a
/// transaction is never committed, so no server can have kept an answer under it
/// (`src/infra/answer_cache.rs`, "carried forward").
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables with the `data_version` triggers (`Table` in `src/infra/answer_cache/questions.rs`).
const TABLES: [&str; 4] = ["vendors", "documents", "requirement_sets", "waivers"];

/// The vendor a row's insert, update and delete name (SQL over `NEW` and `OLD`; `NULL`: none).
const fn named_vendor(table: &str) -> [&'static str; 3] {
    match table.as_bytes() {
        b"vendors" => [
            "NULL",
            "CASE WHEN NEW.organization_id = OLD.organization_id THEN NEW.id END",
            "NULL",
        ],
        b"documents" => [
            "NEW.vendor_id",
            "CASE WHEN NEW.organization_id = OLD.organization_id \
             AND NEW.vendor_id = OLD.vendor_id THEN NEW.vendor_id END",
            "OLD.vendor_id",
        ],
        _ => ["NULL", "NULL", "NULL"],
    }
}

/// `SQLite`'s three triggers of `table`, naming the vendor as they raise the version.
fn sqlite_triggers_naming_the_vendor(table: &str) -> [String; 3] {
    let [inserted, updated, deleted] = named_vendor(table);
    let bump = |row: &str, vendor: &str| {
        format!(
            "UPDATE organizations SET data_version = data_version + 1, \
             changed_vendor_id = {vendor} WHERE id = {row}.organization_id;"
        )
    };
    [
        format!(
            "CREATE TRIGGER \"{table}_data_version_insert\" AFTER INSERT ON \"{table}\" \
             BEGIN {} END",
            bump("NEW", inserted)
        ),
        // A row moved to another organization (never done today) changes both, naming none.
        format!(
            "CREATE TRIGGER \"{table}_data_version_update\" AFTER UPDATE ON \"{table}\" \
             BEGIN {} UPDATE organizations SET data_version = data_version + 1, \
             changed_vendor_id = NULL \
             WHERE id = OLD.organization_id AND OLD.organization_id <> NEW.organization_id; END",
            bump("NEW", updated)
        ),
        format!(
            "CREATE TRIGGER \"{table}_data_version_delete\" AFTER DELETE ON \"{table}\" \
             BEGIN {} END",
            bump("OLD", deleted)
        ),
    ]
}

/// `PostgreSQL`'s bump, the same function for every table (replacing the one of
/// `m20261124_000003`), naming the vendor as `named_vendor` does.
const PG_FUNCTION_NAMING_THE_VENDOR: &str = "CREATE OR REPLACE FUNCTION \
organizations_data_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vendor bigint;
BEGIN
  IF TG_TABLE_NAME = 'vendors' AND TG_OP = 'UPDATE' THEN
    IF NEW.organization_id = OLD.organization_id THEN
      vendor := NEW.id;
    END IF;
  ELSIF TG_TABLE_NAME = 'documents' THEN
    IF TG_OP = 'INSERT' THEN
      vendor := NEW.vendor_id;
    ELSIF TG_OP = 'DELETE' THEN
      vendor := OLD.vendor_id;
    ELSIF NEW.organization_id = OLD.organization_id AND NEW.vendor_id = OLD.vendor_id THEN
      vendor := NEW.vendor_id;
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE organizations SET data_version = data_version + 1, changed_vendor_id = vendor
      WHERE id = OLD.organization_id;
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE organizations SET data_version = data_version + 1, changed_vendor_id = vendor
      WHERE id = NEW.organization_id;
  ELSIF TG_OP = 'UPDATE' AND NEW.organization_id <> OLD.organization_id THEN
    UPDATE organizations SET data_version = data_version + 1, changed_vendor_id = NULL
      WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END
$$";

/// Replaces `SQLite`'s triggers of every table by `make`'s, each table's drops and creates in
/// one call: on one connection, since another connection of the pool may still hold the
/// dropped triggers in its schema and refuse the new ones as existing.
async fn sqlite_replace(
    db: &SchemaManagerConnection<'_>,
    make: fn(&str) -> [String; 3],
) -> Result<(), DbErr> {
    for table in TABLES {
        let drops = ["insert", "update", "delete"]
            .map(|op| format!("DROP TRIGGER IF EXISTS \"{table}_data_version_{op}\""));
        let script = drops.into_iter().chain(make(table)).collect::<Vec<_>>();
        db.execute_unprepared(&script.join(";\n")).await?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Alias::new("organizations"))
                .add_column(
                    ColumnDef::new(Alias::new("changed_vendor_id"))
                        .big_integer()
                        .null(),
                )
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        match m.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(PG_FUNCTION_NAMING_THE_VENDOR).await?;
            }
            _ => sqlite_replace(db, sqlite_triggers_naming_the_vendor).await?,
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        match m.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(PG_FUNCTION).await?;
            }
            _ => sqlite_replace(db, sqlite_triggers).await?,
        }
        m.alter_table(
            Table::alter()
                .table(Alias::new("organizations"))
                .drop_column(Alias::new("changed_vendor_id"))
                .to_owned(),
        )
        .await
    }
}
