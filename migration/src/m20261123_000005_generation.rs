use loco_rs::schema::*;
use sea_orm_migration::prelude::*;

/// The content engine's AI drafts: one job per draft (asked for by an admin, or scheduled by a
/// weekly plan), which records its state, the model, the tokens and the cost, and the post it
/// wrote. A keyword a job is writing about is reserved for it (`keywords.generation_job_id`),
/// so two plans never pick the same keyword.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create_table(
            m,
            "weekly_plans",
            &[
                ("id", ColType::PkAuto),
                ("posts_per_week", ColType::Integer),
                // US dollars a month.
                ("monthly_cost", ColType::Integer),
                // active, cancelled or finished.
                ("status", ColType::String),
                ("cancelled_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[],
        )
        .await?;
        create_table(
            m,
            "generation_jobs",
            &[
                ("id", ColType::PkAuto),
                // scheduled, queued, running, succeeded, failed or cancelled.
                ("status", ColType::String),
                // JSON array of the target keywords.
                ("keywords", ColType::Text),
                ("category", ColType::String),
                ("tone", ColType::String),
                ("word_count", ColType::Integer),
                ("weekly_plan_id", ColType::BigIntegerNull),
                ("scheduled_for", ColType::TimestampWithTimeZoneNull),
                ("attempts", ColType::Integer),
                ("model", ColType::StringNull),
                ("prompt_tokens", ColType::BigIntegerNull),
                ("completion_tokens", ColType::BigIntegerNull),
                // Millionths of a US dollar.
                ("cost_micros", ColType::BigIntegerNull),
                ("error", ColType::TextNull),
                ("blog_post_id", ColType::BigIntegerNull),
                ("started_at", ColType::TimestampWithTimeZoneNull),
                ("finished_at", ColType::TimestampWithTimeZoneNull),
            ],
            &[],
        )
        .await?;
        // The scheduler's look-up of due jobs.
        m.create_index(
            Index::create()
                .name("idx-generation-jobs-due")
                .table(Alias::new("generation_jobs"))
                .col(Alias::new("status"))
                .col(Alias::new("scheduled_for"))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("idx-generation-jobs-plan")
                .table(Alias::new("generation_jobs"))
                .col(Alias::new("weekly_plan_id"))
                .to_owned(),
        )
        .await?;
        add_column(m, "keywords", "generation_job_id", ColType::BigIntegerNull).await?;
        m.create_index(
            Index::create()
                .name("idx-keywords-unused")
                .table(Alias::new("keywords"))
                .col(Alias::new("blog_post_id"))
                .col(Alias::new("generation_job_id"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("idx-keywords-unused")
                .table(Alias::new("keywords"))
                .to_owned(),
        )
        .await?;
        remove_column(m, "keywords", "generation_job_id").await?;
        for table in ["generation_jobs", "weekly_plans"] {
            drop_table(m, table).await?;
        }
        Ok(())
    }
}
