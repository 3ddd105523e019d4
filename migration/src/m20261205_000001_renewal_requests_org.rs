use sea_orm_migration::prelude::*;

/// The responsiveness report reads an organization's renewal requests in the order they were
/// made (docs/product.md, "Reports"); `renewal_requests` had no index on `organization_id`
/// (only the once-a-day one, by vendor), so that read went through every organization's
/// requests.
#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "idx-renewal-requests-org";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name(INDEX)
                .table(Alias::new("renewal_requests"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("id"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name(INDEX)
                .table(Alias::new("renewal_requests"))
                .to_owned(),
        )
        .await
    }
}
