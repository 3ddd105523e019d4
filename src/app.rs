use std::{path::Path, sync::Arc, time::Duration};

use async_trait::async_trait;
use axum::Router as AxumRouter;
use loco_rs::{
    app::{AppContext, Hooks},
    bgworker::{BackgroundWorker, Queue},
    boot::{create_app, BootResult, ServeParams, StartMode},
    config::{Config, QueueConfig},
    controller::{
        middleware::{self, MiddlewareLayer, MiddlewareStackExt},
        AppRoutes,
    },
    db::truncate_table,
    environment::Environment,
    storage::Storage,
    task::Tasks,
    Result,
};
use migration::{Migrator, MigratorTrait};
use sea_orm::ConnectionTrait;

use crate::{
    controllers, errors,
    infra::answer_cache::AnswerCache,
    infra::config_check,
    infra::db_pool,
    infra::graceful,
    infra::observability,
    infra::rate_limit::RateLimiters,
    infra::security_headers,
    infra::static_cache,
    infra::storage::{self, StorageProbe},
    infra::unread_body,
    models::_entities::{
        activities, blog_post_readers, blog_posts, blog_slug_redirects, checkout_sessions,
        documents, generation_jobs, keyword_ingest_chunks, keyword_ingests, keywords,
        organizations, outgoing_emails, pending_expiries, reminder_claims, reminder_deliveries,
        reminders, renewal_requests, report_snapshots, revoked_tokens, stripe_events, users,
        vendors, weekly_plans, weekly_summaries,
    },
    models::blog_posts::views as blog_posts_views,
    settings::Settings,
    tasks,
    workers::{
        self, extract_coverage::ExtractCoverageWorker, generate_post::GeneratePostWorker,
        keyword_chunk::KeywordChunkWorker, outgoing_email::OutgoingEmailWorker,
        reminders::ReminderWorker, webhook_delivery::WebhookDeliveryWorker,
        weekly_summary::WeeklySummaryWorker,
    },
};

pub struct App;

/// `pg_advisory_lock` key of the migrations.
const MIGRATION_LOCK_KEY: i64 = 0x5657_4d49_4752_4154;

/// Production servers and workers started at once against a new `PostgreSQL` database would
/// each run the migrations as they start, and all but one die on the tables the first
/// creates. So in production, with automatic migrations on `PostgreSQL`, they are run here
/// first, by one process at a time under an advisory lock (the others wait, then find nothing
/// to do); Loco's own run after this one finds nothing either. Every command passes here, not
/// only `start`: one that cannot migrate (an older binary than the database, during an
/// upgrade) says so and goes on as it did before, and `start` then fails in Loco's own run.
async fn migrate_one_at_a_time(ctx: &AppContext) -> Result<()> {
    let db = &ctx.config.database;
    if ctx.environment != Environment::Production
        || !(db.auto_migrate && db.uri.starts_with("postgres"))
    {
        return Ok(());
    }
    let mut options = sea_orm::ConnectOptions::new(db.uri.clone());
    options
        .max_connections(1)
        .min_connections(1)
        .sqlx_logging(false);
    let session = sea_orm::Database::connect(options).await?;
    let lock = |sql: &str| {
        sea_orm::Statement::from_string(
            sea_orm::DatabaseBackend::Postgres,
            format!("SELECT {sql}({MIGRATION_LOCK_KEY})"),
        )
    };
    session.execute_raw(lock("pg_advisory_lock")).await?;
    let migrated = Migrator::up(&ctx.db, None).await;
    let _ = session.execute_raw(lock("pg_advisory_unlock")).await;
    let _ = session.close().await;
    if let Err(e) = migrated {
        tracing::warn!(error = %e, "migrations not run under the lock");
    }
    Ok(())
}

/// Temporary files a process that died mid-upload left (the uploads' own, and the local
/// storage's partial writes), removed as any process starts; those of uploads under way in
/// another process are younger than an hour and kept.
fn remove_stale_temp_files(settings: &Settings) {
    let local = (settings.storage.kind == "local").then(|| Path::new(&settings.storage.local_dir));
    match storage::remove_stale_files(&storage::temp_dirs(local), storage::STALE_AFTER) {
        Ok(removed) if !removed.is_empty() => {
            tracing::info!(
                count = removed.len(),
                "removed stale temporary upload files"
            );
        }
        Ok(_) => {}
        Err(error) => tracing::warn!(%error, "could not look for stale temporary upload files"),
    }
}

/// An SMTP `auth:` block whose user and password are both empty (`SMTP_USER` and
/// `SMTP_PASSWORD` unset) means a relay without authentication: Loco would still log in, with
/// empty credentials, so its mailer is made again without them.
fn without_blank_smtp_auth(ctx: &mut AppContext) -> Result<()> {
    let Some(smtp) = ctx.config.mailer.as_mut().and_then(|m| m.smtp.as_mut()) else {
        return Ok(());
    };
    let blank = smtp
        .auth
        .as_ref()
        .is_some_and(|a| a.user.trim().is_empty() && a.password.trim().is_empty());
    if smtp.enable && blank {
        smtp.auth = None;
        ctx.mailer = Some(loco_rs::mailer::EmailSender::smtp(smtp)?);
    }
    Ok(())
}

#[async_trait]
impl Hooks for App {
    fn app_name() -> &'static str {
        env!("CARGO_CRATE_NAME")
    }

    fn app_version() -> String {
        format!(
            "{} ({})",
            env!("CARGO_PKG_VERSION"),
            option_env!("BUILD_SHA").unwrap_or("dev")
        )
    }

    /// The JSON log of production through `observability::init_logger`; Loco's otherwise.
    fn init_logger(ctx: &AppContext) -> Result<bool> {
        observability::init_logger::<Self>(&ctx.config.logger)
    }

    /// The environment's configuration, with the database pool sized to this machine where
    /// the configuration leaves it to it (`DB_MAX_CONNECTIONS` unset in production:
    /// `db_pool::size_to_machine`). Every `cargo loco` command and the tests load it here.
    async fn load_config(environment: &Environment) -> Result<Config> {
        let mut config = environment.load()?;
        db_pool::size_to_machine(&mut config.database);
        Ok(config)
    }

    async fn boot(
        mode: StartMode,
        environment: &Environment,
        config: Config,
    ) -> Result<BootResult> {
        create_app::<Self, Migrator>(mode, environment, config).await
    }

    async fn after_context(mut ctx: AppContext) -> Result<AppContext> {
        let settings = Settings::from_config(&ctx.config)?;
        config_check::check(&ctx.environment, &ctx.config, &settings)?;
        without_blank_smtp_auth(&mut ctx)?;
        if ctx.db.get_database_backend() == sea_orm::DatabaseBackend::Sqlite {
            if let Some(db) = db_pool::sqlite(&ctx.config.database).await? {
                ctx.db = db;
            }
        }
        migrate_one_at_a_time(&ctx).await?;
        if let Some(QueueConfig::Sqlite(queue)) = &ctx.config.queue {
            ctx.queue_provider = Some(Arc::new(workers::embedded_queue(queue).await?));
        }
        ctx.storage = Arc::new(Storage::single(settings.storage_driver()?));
        ctx.shared_store.insert(StorageProbe::default());
        remove_stale_temp_files(&settings);
        ctx.shared_store.insert(RateLimiters::new(&settings)?);
        ctx.shared_store.insert(blog_posts_views::Reads::default());
        ctx.shared_store
            .insert(AnswerCache::new(settings.answer_cache_mb));
        observability::start_metrics(&settings.metrics, &ctx)?;
        ctx.shared_store.insert(settings);
        Settings::compact_in(&mut ctx.config);
        Ok(ctx)
    }

    /// Loco's stack, with its request logger replaced by ours (request id, route and caller on
    /// every line; no query strings).
    fn middlewares(ctx: &AppContext) -> Vec<Box<dyn MiddlewareLayer>> {
        let mut stack = middleware::default_middleware_stack(ctx);
        stack.replace("logger", Box::new(observability::RequestLog));
        stack.replace(
            "limit_payload",
            Box::new(controllers::body_limit::AppBodyLimit),
        );
        stack
    }

    fn routes(_ctx: &AppContext) -> AppRoutes {
        AppRoutes::empty()
            .add_route(controllers::monitoring::routes())
            .add_route(controllers::openapi::routes())
            .add_route(controllers::auth::routes())
            .add_route(controllers::account::routes())
            .add_route(controllers::billing::routes())
            .add_route(controllers::blog::routes())
            .add_route(controllers::keywords::routes())
            .add_route(controllers::content::routes())
            .add_route(controllers::bulk::routes())
            .add_route(controllers::vendors::routes())
            .add_route(controllers::extractions::routes())
            .add_route(controllers::documents::routes())
            .add_route(controllers::document_files::routes())
            .add_route(controllers::activity::routes())
            .add_route(controllers::reminders::routes())
            .add_route(controllers::reports::routes())
            .add_route(controllers::team::routes())
            .add_route(controllers::integrations::routes())
            .add_route(controllers::requirements::routes())
            .add_route(controllers::portal::routes())
            .add_route(controllers::unsubscribe::routes())
            .add_route(controllers::fallback_routes())
    }

    async fn after_routes(router: AxumRouter, ctx: &AppContext) -> Result<AxumRouter> {
        let hsts = Settings::from_context(ctx)?.security.hsts;
        let router = router
            .layer(axum::middleware::from_fn(errors::api_envelope))
            .layer(axum::middleware::from_fn(static_cache::cache_headers));
        let router = security_headers::apply(router, hsts);
        Ok(router.layer(axum::middleware::from_fn(unread_body::close_if_unread)))
    }

    /// Loco's `serve` with a limit on the graceful stop (`graceful`).
    async fn serve(app: AxumRouter, ctx: &AppContext, params: &ServeParams) -> Result<()> {
        let grace = Duration::from_secs(Settings::from_context(ctx)?.shutdown_grace_seconds);
        blog_posts_views::Reads::of(ctx)?.start_flushing(ctx.db.clone());
        let ctx = ctx.clone();
        graceful::serve(
            app,
            params,
            grace,
            async move { Self::on_shutdown(&ctx).await },
        )
        .await
    }

    /// Views noted since the last write are written before the process goes.
    async fn on_shutdown(ctx: &AppContext) {
        let Ok(reads) = blog_posts_views::Reads::of(ctx) else {
            return;
        };
        if let Err(err) = reads.flush(&ctx.db).await {
            tracing::warn!(error = %err, "could not write the blog's view counts at shutdown");
        }
    }

    async fn connect_workers(ctx: &AppContext, queue: &Queue) -> Result<()> {
        queue.register(ReminderWorker::build(ctx)).await?;
        queue.register(OutgoingEmailWorker::build(ctx)).await?;
        queue.register(KeywordChunkWorker::build(ctx)).await?;
        queue.register(GeneratePostWorker::build(ctx)).await?;
        queue.register(ExtractCoverageWorker::build(ctx)).await?;
        queue.register(WeeklySummaryWorker::build(ctx)).await?;
        queue.register(WebhookDeliveryWorker::build(ctx)).await?;
        Ok(())
    }

    fn register_tasks(tasks: &mut Tasks) {
        tasks.register(tasks::make_admin::MakeAdmin);
        tasks.register(tasks::set_plan::SetPlan);
        tasks.register(tasks::reminders_sweep::RemindersSweep);
        tasks.register(tasks::reminders_retake::RemindersRetake);
        tasks.register(tasks::storage_orphans::StorageOrphans);
        tasks.register(tasks::report_snapshots::ReportSnapshots);
        tasks.register(tasks::weekly_summary::WeeklySummary);
        tasks.register(tasks::keyword_ingests::KeywordIngests);
        tasks.register(tasks::content_schedule::ContentSchedule);
        tasks.register(tasks::backup::Backup);
        tasks.register(tasks::restore::Restore);
        tasks.register(tasks::queue_tidy::QueueTidy);
        tasks.register(tasks::outgoing_emails::OutgoingEmails);
        tasks.register(tasks::mail_previews::MailPreviews);
        tasks.register(tasks::webhooks::Webhooks);
        // tasks-inject (do not remove)
    }

    async fn truncate(ctx: &AppContext) -> Result<()> {
        truncate_table(&ctx.db, revoked_tokens::Entity).await?;
        truncate_table(&ctx.db, outgoing_emails::Entity).await?;
        truncate_table(&ctx.db, checkout_sessions::Entity).await?;
        truncate_table(&ctx.db, stripe_events::Entity).await?;
        truncate_table(&ctx.db, generation_jobs::Entity).await?;
        truncate_table(&ctx.db, weekly_plans::Entity).await?;
        truncate_table(&ctx.db, keyword_ingest_chunks::Entity).await?;
        truncate_table(&ctx.db, keyword_ingests::Entity).await?;
        truncate_table(&ctx.db, keywords::Entity).await?;
        truncate_table(&ctx.db, blog_post_readers::Entity).await?;
        truncate_table(&ctx.db, blog_slug_redirects::Entity).await?;
        truncate_table(&ctx.db, blog_posts::Entity).await?;
        truncate_table(&ctx.db, report_snapshots::Entity).await?;
        truncate_table(&ctx.db, renewal_requests::Entity).await?;
        truncate_table(&ctx.db, weekly_summaries::Entity).await?;
        truncate_table(&ctx.db, activities::Entity).await?;
        truncate_table(&ctx.db, pending_expiries::Entity).await?;
        truncate_table(&ctx.db, reminder_claims::Entity).await?;
        truncate_table(&ctx.db, reminder_deliveries::Entity).await?;
        truncate_table(&ctx.db, reminders::Entity).await?;
        truncate_table(&ctx.db, documents::Entity).await?;
        truncate_table(&ctx.db, vendors::Entity).await?;
        truncate_table(&ctx.db, users::Entity).await?;
        truncate_table(&ctx.db, organizations::Entity).await?;
        Ok(())
    }

    /// `cargo loco db seed`: the demo organization of `src/fixtures/demo.yaml`
    /// (`models::demo`); a second run finds its owner and changes nothing. Loco's command does
    /// not migrate, so the seed brings the schema up to date first: on a fresh clone
    /// `cargo loco db seed` is the one command that makes a database with the demo in it.
    async fn seed(ctx: &AppContext, base: &Path) -> Result<()> {
        Migrator::up(&ctx.db, None).await?;
        match crate::models::demo::seed(ctx, base).await? {
            crate::models::demo::Seeded::Loaded { vendors, documents } => tracing::info!(
                vendors,
                documents,
                "demo organization loaded: sign in as the owner of src/fixtures/demo.yaml"
            ),
            crate::models::demo::Seeded::AlreadyThere => {
                tracing::info!("demo organization already loaded: nothing changed");
            }
        }
        Ok(())
    }
}
