use sea_orm_migration::prelude::*;

/// The organization's vendors in the order the vendor list pages them (by name whatever its
/// case: `ORDER BY lower(name), id`). `idx-vendors-organization` holds `name` as written, so it
/// gives no order for `lower(name)`, and `PostgreSQL` sorted all of the organization's vendors
/// (10,000) for each page of 25; read forwards or backwards, this index gives the page at once.
/// It replaces `idx-vendors-organization`, whose first column it shares (the counts and the
/// dashboard read it as they read that one; nothing looks a vendor up by its exact name), so a
/// vendor still writes one index entry. An index on an expression is written out: `SQLite` and
/// `PostgreSQL` take the same statement.
#[derive(DeriveMigrationName)]
pub struct Migration;

const NEW: &str = "idx-vendors-org-name-order";
const OLD: &str = "idx-vendors-organization";

fn drop(name: &str) -> IndexDropStatement {
    Index::drop()
        .name(name)
        .table(Alias::new("vendors"))
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.get_connection()
            .execute_unprepared(&format!(
                r#"CREATE INDEX "{NEW}" ON "vendors" ("organization_id", lower("name"), "id")"#
            ))
            .await?;
        m.drop_index(drop(OLD)).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name(OLD)
                .table(Alias::new("vendors"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("name"))
                .to_owned(),
        )
        .await?;
        m.drop_index(drop(NEW)).await
    }
}
