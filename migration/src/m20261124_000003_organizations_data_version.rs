use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

/// `organizations.data_version`: a number that every insert, update and delete of one of the
/// organization's vendors or documents raises, in the same transaction (database triggers, so
/// no write path can forget it: the API, the portal, bulk calls, imports, workers, restores).
/// Answers computed from those rows alone (the vendor list, the dashboard figures) are kept
/// per organization under it, and a request, which reads the organization anyway, knows at
/// once whether a kept answer is still the one it would compute (`src/infra/answer_cache.rs`).
///
/// On `PostgreSQL` the triggers are deferred to the commit: the organization's row is then the
/// last lock a writing transaction takes, so two writes in one organization (an upload and a
/// vendor edit) cannot deadlock on it, and it is held only while the commit lasts.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables a kept answer may read: `Table` in `src/infra/answer_cache/questions.rs` names the same
/// (the app cannot be a dependency here), and `tests/requests/answer_cache_tables.rs` checks the
/// migrated database has these triggers on exactly its tables. A later table gets them in its
/// own migration (same function on `PostgreSQL`, same three triggers on `SQLite`).
const TABLES: [&str; 2] = ["vendors", "documents"];

pub(crate) fn sqlite_triggers(table: &str) -> [String; 3] {
    let bump = |row: &str| {
        format!(
            "UPDATE organizations SET data_version = data_version + 1 \
             WHERE id = {row}.organization_id;"
        )
    };
    let (new, old) = (bump("NEW"), bump("OLD"));
    [
        format!(
            "CREATE TRIGGER \"{table}_data_version_insert\" AFTER INSERT ON \"{table}\" \
             BEGIN {new} END"
        ),
        // A row moved to another organization (never done today) changes both.
        format!(
            "CREATE TRIGGER \"{table}_data_version_update\" AFTER UPDATE ON \"{table}\" \
             BEGIN {new} UPDATE organizations SET data_version = data_version + 1 \
             WHERE id = OLD.organization_id AND OLD.organization_id <> NEW.organization_id; END"
        ),
        format!(
            "CREATE TRIGGER \"{table}_data_version_delete\" AFTER DELETE ON \"{table}\" \
             BEGIN {old} END"
        ),
    ]
}

pub(crate) const PG_FUNCTION: &str =
    "CREATE OR REPLACE FUNCTION organizations_data_version_bump() \
RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE organizations SET data_version = data_version + 1 WHERE id = OLD.organization_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.organization_id <> OLD.organization_id) THEN
    UPDATE organizations SET data_version = data_version + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END
$$";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Alias::new("organizations"))
                .add_column(
                    ColumnDef::new(Alias::new("data_version"))
                        .big_integer()
                        .not_null()
                        .default(0),
                )
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        match m.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(PG_FUNCTION).await?;
                for table in TABLES {
                    db.execute_unprepared(&format!(
                        "CREATE CONSTRAINT TRIGGER \"{table}_data_version\" \
                         AFTER INSERT OR UPDATE OR DELETE ON \"{table}\" \
                         DEFERRABLE INITIALLY DEFERRED \
                         FOR EACH ROW EXECUTE FUNCTION organizations_data_version_bump()"
                    ))
                    .await?;
                }
            }
            _ => {
                for table in TABLES {
                    for sql in sqlite_triggers(table) {
                        db.execute_unprepared(&sql).await?;
                    }
                }
            }
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        match m.get_database_backend() {
            DatabaseBackend::Postgres => {
                for table in TABLES {
                    db.execute_unprepared(&format!(
                        "DROP TRIGGER IF EXISTS \"{table}_data_version\" ON \"{table}\""
                    ))
                    .await?;
                }
                db.execute_unprepared("DROP FUNCTION IF EXISTS organizations_data_version_bump()")
                    .await?;
            }
            _ => {
                for table in TABLES {
                    for op in ["insert", "update", "delete"] {
                        db.execute_unprepared(&format!(
                            "DROP TRIGGER IF EXISTS \"{table}_data_version_{op}\""
                        ))
                        .await?;
                    }
                }
            }
        }
        m.alter_table(
            Table::alter()
                .table(Alias::new("organizations"))
                .drop_column(Alias::new("data_version"))
                .to_owned(),
        )
        .await
    }
}
