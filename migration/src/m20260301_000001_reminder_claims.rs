use sea_orm_migration::{prelude::*, sea_orm::DatabaseBackend};

/// Claims move out of `reminders` into a small table of their own, and each pending expiry
/// carries the id of the activity entry it will become (docs/benchmarks/reminder-sweep.md).
///
/// - `reminder_claims`: one row per reminder a sweep handed to a worker, deleted when the
///   reminder is sent. A claim is then an `INSERT` of a few hundred rows into a table that
///   stays small, where it used to rewrite one row on a different page of `reminders` for every
///   reminder (one full-page image in the WAL each). It has no foreign key to `reminders` on
///   purpose: checking one locks the reminder's row (`FOR KEY SHARE`), which writes that
///   random page all the same (measured in docs/benchmarks/reminder-sweep.md). Claims whose
///   reminder was deleted are removed by the code that deletes reminders, and by the sweep.
/// - `pending_expiries.entry_pid`: fixed when the expiry starts waiting, so the sweep writes the
///   entry in one statement on the server, and the unique index on `activities.pid` refuses a
///   second entry for the same expiry whatever happens.
/// - `PostgreSQL` only: `activities.organization_id` loses its foreign key. Checking it locked the
///   organization's row for every entry (its cost is in docs/benchmarks/reminder-sweep.md).
///   Entries are written only by the product, for an organization it has just read, and
///   organizations are never deleted; a feature that deletes them must delete their entries.
///   `SQLite` keeps the key: it checks it without locking anything, and dropping it there means
///   rebuilding the table.
#[derive(DeriveMigrationName)]
pub struct Migration;

const ACTIVITIES_ORG_FK: &str = "fk-activities-organization_id-to-organizations";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(Alias::new("reminder_claims"))
                .col(
                    ColumnDef::new(Alias::new("reminder_id"))
                        .big_integer()
                        .not_null()
                        .primary_key(),
                )
                .col(ColumnDef::new(Alias::new("token")).string().not_null())
                // NULL: given back after a failed send, claimable at once.
                .col(ColumnDef::new(Alias::new("claimed_at")).timestamp_with_time_zone())
                .col(
                    ColumnDef::new(Alias::new("attempts"))
                        .integer()
                        .not_null()
                        .default(0),
                )
                .to_owned(),
        )
        .await?;
        // One column per statement: SQLite alters one thing at a time.
        for column in ["claimed_at", "claim_token", "attempts"] {
            m.alter_table(
                Table::alter()
                    .table(Alias::new("reminders"))
                    .drop_column(Alias::new(column))
                    .to_owned(),
            )
            .await?;
        }
        m.alter_table(
            Table::alter()
                .table(Alias::new("pending_expiries"))
                .add_column(ColumnDef::new(Alias::new("entry_pid")).uuid())
                .to_owned(),
        )
        .await?;
        let db = m.get_connection();
        if m.get_database_backend() == DatabaseBackend::Postgres {
            db.execute_unprepared(
                "UPDATE pending_expiries SET entry_pid = gen_random_uuid() WHERE entry_pid IS NULL",
            )
            .await?;
            db.execute_unprepared(&format!(
                "ALTER TABLE activities DROP CONSTRAINT IF EXISTS \"{ACTIVITIES_ORG_FK}\""
            ))
            .await?;
        } else {
            db.execute_unprepared(
                "UPDATE pending_expiries SET entry_pid = randomblob(16) WHERE entry_pid IS NULL",
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DatabaseBackend::Postgres {
            m.get_connection()
                .execute_unprepared(&format!(
                    "ALTER TABLE activities ADD CONSTRAINT \"{ACTIVITIES_ORG_FK}\" \
                     FOREIGN KEY (organization_id) REFERENCES organizations (id) \
                     ON DELETE CASCADE ON UPDATE CASCADE"
                ))
                .await?;
        }
        m.alter_table(
            Table::alter()
                .table(Alias::new("pending_expiries"))
                .drop_column(Alias::new("entry_pid"))
                .to_owned(),
        )
        .await?;
        let columns = [
            ColumnDef::new(Alias::new("claimed_at"))
                .timestamp_with_time_zone()
                .to_owned(),
            ColumnDef::new(Alias::new("claim_token"))
                .string()
                .to_owned(),
            ColumnDef::new(Alias::new("attempts"))
                .integer()
                .not_null()
                .default(0)
                .to_owned(),
        ];
        for column in columns {
            m.alter_table(
                Table::alter()
                    .table(Alias::new("reminders"))
                    .add_column(column)
                    .to_owned(),
            )
            .await?;
        }
        m.drop_table(
            Table::drop()
                .table(Alias::new("reminder_claims"))
                .to_owned(),
        )
        .await
    }
}
