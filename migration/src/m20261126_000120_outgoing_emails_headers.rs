use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// The headers a kept email was asked with (`mailers::Headers`), sent with it when a worker
/// sends it later: `reply_to`, the mailbox a reply reaches (the business's owner or the member
/// who sent an email to a vendor; `NULL` is the support address), and `list_unsubscribe`, the
/// one-click unsubscribe link of the weekly summary (RFC 8058; `NULL` for other emails).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // One column a statement: SQLite's ALTER TABLE adds one at a time.
        add_column(m, "outgoing_emails", "reply_to", ColType::StringNull).await?;
        add_column(
            m,
            "outgoing_emails",
            "list_unsubscribe",
            ColType::StringNull,
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        remove_column(m, "outgoing_emails", "list_unsubscribe").await?;
        remove_column(m, "outgoing_emails", "reply_to").await
    }
}
