//! Writes one AI draft (see `models::generation_jobs`): takes the job if it is still queued,
//! asks the configured AI service, and saves the draft or the reason there is none. A job
//! whose worker dies is found again by the `content_schedule` task.

use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{models::generation_jobs, services::ai::Ai, settings::Settings};

pub struct GeneratePostWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GeneratePostArgs {
    pub job_id: i64,
}

#[async_trait]
impl BackgroundWorker<GeneratePostArgs> for GeneratePostWorker {
    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// Database errors: the job stays to do and is queued again later.
    async fn perform(&self, args: GeneratePostArgs) -> Result<()> {
        let result: Result<()> = async {
            let db = &self.ctx.db;
            let Some(job) = generation_jobs::Model::start(db, args.job_id).await? else {
                return Ok(());
            };
            let settings = Settings::from_context(&self.ctx)?;
            let ai = match Ai::from_settings(&settings.ai) {
                Ok(Some(ai)) => ai,
                Ok(None) => {
                    let failure = crate::services::ai::Failure::NotConfigured;
                    return job.fail(db, &failure, &settings.ai.model, None).await;
                }
                Err(e) => return Err(Error::string(&e)),
            };
            match ai.draft(&job.brief()).await {
                Ok(generated) => {
                    let cost = ai.cost_micros(generated.usage);
                    let saved =
                        super::retry_db("AI draft", 3, || job.succeed(db, &generated, cost))
                            .await?;
                    if let Some(post) = saved {
                        tracing::info!(job = job.id, post = post.id, "AI draft saved");
                    } else {
                        tracing::info!(job = job.id, "AI draft dropped: the job moved on");
                    }
                    Ok(())
                }
                Err((failure, usage)) => {
                    tracing::warn!(job = job.id, reason = %failure, "AI draft failed");
                    let usage = usage.map(|u| (u, ai.cost_micros(u)));
                    super::retry_db("AI failure", 3, || {
                        job.fail(db, &failure, ai.model(), usage)
                    })
                    .await
                }
            }
        }
        .await;
        crate::infra::observability::job_done("generate_post", &result);
        result
    }
}
