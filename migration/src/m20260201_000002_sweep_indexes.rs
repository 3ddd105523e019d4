use sea_orm_migration::prelude::*;

/// Indexes of the daily sweep (docs/benchmarks/reminder-sweep.md). Partial, so they hold only
/// the rows still waiting: sent reminders and recorded expiries leave them, and the daily work
/// stays proportional to what is due that day, not to the history.
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
        // Current documents whose expiry is not recorded yet. The sweep's query repeats this
        // predicate word for word (bare `is_current`, no bound parameter), which is what lets
        // SQLite and PostgreSQL's generic plans use a partial index.
        m.create_index(
            Index::create()
                .name("idx-documents-expiry-pending")
                .table(Alias::new("documents"))
                .col(Alias::new("expiration_date"))
                .col(Alias::new("id"))
                .and_where(Expr::col(Alias::new("is_current")))
                .and_where(Expr::col(Alias::new("expired_recorded_at")).is_null())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for (name, table) in [
            ("idx-documents-expiry-pending", "documents"),
            ("idx-reminders-due", "reminders"),
        ] {
            m.drop_index(Index::drop().name(name).table(Alias::new(table)).to_owned())
                .await?;
        }
        Ok(())
    }
}
