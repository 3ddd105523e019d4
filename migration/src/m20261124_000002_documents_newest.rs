use sea_orm_migration::prelude::*;

/// The organization's current documents in the order the document list pages them (newest
/// first: `ORDER BY created_at DESC, id DESC`). With `(organization_id, is_current)` alone, each
/// page sorted all of the organization's current documents (10,000 for 2,000 vendors) to return
/// 25 (docs/benchmarks/lists.md, docs/benchmarks/tenants.md); walked backwards, this index gives
/// the page at once. It replaces `idx-documents-org-current`, whose columns it begins with, so
/// the counts and the dashboard read it as they read that one, and a document still writes one
/// index entry for them.
#[derive(DeriveMigrationName)]
pub struct Migration;

const NEW: &str = "idx-documents-org-current-newest";
const OLD: &str = "idx-documents-org-current";

fn index(name: &str, columns: &[&str]) -> IndexCreateStatement {
    let mut index = Index::create();
    index.name(name).table(Alias::new("documents"));
    for column in columns {
        index.col(Alias::new(*column));
    }
    index
}

fn drop(name: &str) -> IndexDropStatement {
    Index::drop()
        .name(name)
        .table(Alias::new("documents"))
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(index(
            NEW,
            &["organization_id", "is_current", "created_at", "id"],
        ))
        .await?;
        m.drop_index(drop(OLD)).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(index(OLD, &["organization_id", "is_current"]))
            .await?;
        m.drop_index(drop(NEW)).await
    }
}
