use sea_orm_migration::prelude::*;

/// What the daily sweep reads (docs/benchmarks/reminder-sweep.md): a partial index of the
/// reminders not yet sent and a table of the expiries not yet recorded. Both hold only what is
/// still waiting, so the daily work stays proportional to what is due that day, not to the
/// history.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // Due reminders in claiming order: `reminder_date <= day AND sent_at IS NULL`, walked
        // by (reminder_date, id) so each batch starts where the last one ended.
        m.create_index(
            Index::create()
                .name("idx-reminders-due")
                .table(Alias::new("reminders"))
                .col(Alias::new("reminder_date"))
                .col(Alias::new("id"))
                .and_where(Expr::col(Alias::new("sent_at")).is_null())
                .to_owned(),
        )
        .await?;
        // The claim's UPDATE changes no indexed column (it returns its rows rather than reading
        // them back through an index on claim_token), so on PostgreSQL it can be a HOT update,
        // which writes no index entry at all, provided the row's page has room: leave a fifth
        // of each page free.
        if m.get_database_backend() == sea_orm_migration::sea_orm::DatabaseBackend::Postgres {
            m.get_connection()
                .execute_unprepared("ALTER TABLE reminders SET (fillfactor = 80)")
                .await?;
        }
        // Documents whose expiry is still to be recorded, in the order the sweep takes them.
        // A narrow table of their own: the sweep deletes a row of two columns per expiry
        // instead of updating `documents`, whose update would rewrite an entry in each of its
        // indexes (a flag column in a partial index's predicate rules out HOT updates).
        m.create_table(
            Table::create()
                .table(Alias::new("pending_expiries"))
                .col(
                    ColumnDef::new(Alias::new("document_id"))
                        .big_integer()
                        .not_null()
                        .primary_key(),
                )
                .col(
                    ColumnDef::new(Alias::new("expiration_date"))
                        .date()
                        .not_null(),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk-pending_expiries-document_id")
                        .from(Alias::new("pending_expiries"), Alias::new("document_id"))
                        .to(Alias::new("documents"), Alias::new("id"))
                        .on_delete(ForeignKeyAction::Cascade)
                        .on_update(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-pending-expiries-due")
                .table(Alias::new("pending_expiries"))
                .col(Alias::new("expiration_date"))
                .col(Alias::new("document_id"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(
            Table::drop()
                .table(Alias::new("pending_expiries"))
                .to_owned(),
        )
        .await?;
        m.drop_index(
            Index::drop()
                .name("idx-reminders-due")
                .table(Alias::new("reminders"))
                .to_owned(),
        )
        .await
    }
}
