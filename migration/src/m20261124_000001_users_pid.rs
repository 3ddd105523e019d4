use sea_orm_migration::prelude::*;

/// Every signed-in request finds its user by the token's `pid` (`CurrentUser`, through
/// `users::Model::find_with_organization`),
/// and `users.pid` had no index: each request read the whole `users` table, every
/// organization's users, so it grew with the number of tenants (docs/benchmarks/tenants.md).
/// Not a unique index: pids are random v4 uuids, and a unique one would change the generated
/// entity (`#[sea_orm(unique)]`) for no gain in the look-up.
#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "idx-users-pid";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name(INDEX)
                .table(Alias::new("users"))
                .col(Alias::new("pid"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name(INDEX)
                .table(Alias::new("users"))
                .to_owned(),
        )
        .await
    }
}
