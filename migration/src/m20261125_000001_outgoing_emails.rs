use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// Every email the app queues (a password reset, a portal notification, a billing notice), kept
/// in the database from the moment it is asked for until the mail server has accepted it. The
/// queue job carries only the row's id: a job the queue loses (Redis restarted without
/// persistence) or a worker drops is found again here by the `outgoing_emails` task, and the
/// row's fixed `message_id` makes a second transmission the same message. The text is cleared
/// once sent (a reset link is a secret).
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "outgoing_emails",
            &[
                ("id", ColType::PkAuto),
                // `<key@domain>`, the message's Message-ID on every attempt.
                ("message_id", ColType::StringUniq),
                ("recipient", ColType::String),
                ("subject", ColType::String),
                ("text_body", ColType::Text),
                ("html_body", ColType::Text),
                // Taken by a worker (a claim older than the task's age is stale).
                ("claimed_at", ColType::TimestampWithTimeZoneNull),
                ("attempts", ColType::Integer),
                ("last_error", ColType::TextNull),
                ("sent_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[],
        )
        .await?;
        // The task's look-ups: unsent rows to queue again, sent rows old enough to delete.
        m.create_index(
            Index::create()
                .name("idx-outgoing-emails-sent-at")
                .table(Alias::new("outgoing_emails"))
                .col(Alias::new("sent_at"))
                .col(Alias::new("created_at"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_table(m, "outgoing_emails").await
    }
}
