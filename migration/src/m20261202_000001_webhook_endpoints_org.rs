use sea_orm_migration::prelude::*;

/// Every write that records an activity asks whether its organization has a webhook endpoint
/// (`activities::Model::record`), and the endpoints' screens and deliveries read an
/// organization's endpoints; `webhook_endpoints.organization_id` had no index, so each of those
/// read every organization's endpoints.
#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "idx-webhook-endpoints-org";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name(INDEX)
                .table(Alias::new("webhook_endpoints"))
                .col(Alias::new("organization_id"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name(INDEX)
                .table(Alias::new("webhook_endpoints"))
                .to_owned(),
        )
        .await
    }
}
