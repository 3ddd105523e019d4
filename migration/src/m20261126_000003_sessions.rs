use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// Ending sign-ins on the server. A token carries its user's `token_generation` as it was when
/// it was issued: raising the number (a password reset, a removal from the team) ends every
/// token issued before, at once on every server process, since each signed-in request reads
/// the user row anyway. Signing out ends one token: its id (`jti`) is kept in
/// `revoked_tokens` until the token would have expired, then pruned.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            m,
            "users",
            "token_generation",
            ColType::IntegerWithDefault(0),
        )
        .await?;
        create_table(
            m,
            "revoked_tokens",
            &[
                ("id", ColType::PkAuto),
                // The token's `jti`; unique, so its index is the look-up of every request.
                ("jti", ColType::UuidUniq),
                // When the token stops being valid anyway: the row can go then.
                ("expires_at", ColType::TimestampWithTimeZone),
            ],
            &[],
        )
        .await?;
        // The pruning's look-up.
        m.create_index(
            Index::create()
                .name("idx-revoked-tokens-expires-at")
                .table(Alias::new("revoked_tokens"))
                .col(Alias::new("expires_at"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "revoked_tokens").await?;
        remove_column(m, "users", "token_generation").await
    }
}
