use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// Teams: several people in one organization (docs/product.md, "Teams").
///
/// - `users.org_role`: `owner`, `admin`, `member` or `viewer`. Everyone registered until now
///   is the only person, so the owner, of their organization.
/// - `users.last_active_at`: when the person last used the app (written at most every few
///   minutes), for the Team page.
/// - `users.reminder_emails`: whether reminder emails reach this person (on for everyone).
/// - `invitations`: an email asked to join with a role. Only the link token's SHA-256 digest is
///   kept; a row is pending while it is neither accepted nor revoked and not expired.
/// - `activities.actor_pid`/`actor_name`/`source`: who made a change (the person's pid and
///   their name at the time, kept when they leave) and through what (`user`, `vendor_portal`,
///   `api`, `system`). Earlier entries are given their organization's only person, or the
///   portal and the system where the entry says so.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            m,
            "users",
            "org_role",
            ColType::StringWithDefault("owner".to_string()),
        )
        .await?;
        add_column(
            m,
            "users",
            "last_active_at",
            ColType::TimestampWithTimeZoneNull,
        )
        .await?;
        add_column(
            m,
            "users",
            "reminder_emails",
            ColType::BooleanWithDefault(true),
        )
        .await?;
        create_table(
            m,
            "invitations",
            &[
                ("id", ColType::PkAuto),
                ("pid", ColType::UuidUniq),
                ("email", ColType::String),
                ("org_role", ColType::String),
                ("token_digest", ColType::StringUniq),
                ("invited_by_name", ColType::String),
                ("expires_at", ColType::TimestampWithTimeZone),
                ("accepted_at", ColType::TimestampWithTimeZoneNull),
                ("revoked_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[("organization", "")],
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-invitations-organization-email")
                .table(Alias::new("invitations"))
                .col(Alias::new("organization_id"))
                .col(Alias::new("email"))
                .to_owned(),
        )
        .await?;
        add_column(m, "activities", "actor_pid", ColType::UuidNull).await?;
        add_column(m, "activities", "actor_name", ColType::StringNull).await?;
        add_column(
            m,
            "activities",
            "source",
            ColType::StringWithDefault("user".to_string()),
        )
        .await?;
        let db = m.get_connection();
        db.execute_unprepared(
            "UPDATE activities SET source = 'system' \
             WHERE activity_type IN ('document_expired', 'plan_changed')",
        )
        .await?;
        db.execute_unprepared(
            "UPDATE activities SET source = 'vendor_portal' \
             WHERE activity_type = 'document_uploaded' \
             AND description LIKE '% through the vendor portal'",
        )
        .await?;
        db.execute_unprepared(
            "UPDATE activities SET \
             actor_pid = (SELECT u.pid FROM users u WHERE u.organization_id = activities.organization_id \
                          ORDER BY u.id LIMIT 1), \
             actor_name = (SELECT u.name FROM users u WHERE u.organization_id = activities.organization_id \
                           ORDER BY u.id LIMIT 1) \
             WHERE source = 'user'",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        remove_column(m, "activities", "source").await?;
        remove_column(m, "activities", "actor_name").await?;
        remove_column(m, "activities", "actor_pid").await?;
        drop_table(m, "invitations").await?;
        remove_column(m, "users", "reminder_emails").await?;
        remove_column(m, "users", "last_active_at").await?;
        remove_column(m, "users", "org_role").await
    }
}
