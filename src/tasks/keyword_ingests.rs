use loco_rs::prelude::*;

use crate::{
    models::keywords,
    workers::keyword_chunk::{KeywordChunkArgs, KeywordChunkWorker},
};

/// `cargo loco task keyword_ingests [min_age_minutes:10]`: queues again every chunk of a
/// keyword upload still to do after that long (its job failed or was lost: Loco's queue does not
/// retry). Run by the scheduler every 10 minutes.
pub struct KeywordIngests;

#[async_trait]
impl Task for KeywordIngests {
    fn task(&self) -> TaskInfo {
        TaskInfo {
            name: "keyword_ingests".to_string(),
            detail:
                "Queue again the keyword chunks still to do: keyword_ingests [min_age_minutes:10]"
                    .to_string(),
        }
    }

    async fn run(&self, ctx: &AppContext, vars: &task::Vars) -> Result<()> {
        let minutes = super::whole_number(vars, "min_age_minutes", 10)?;
        let pending = keywords::unfinished_chunks(&ctx.db, i64::from(minutes)).await?;
        KeywordChunkWorker::perform_all_later(
            ctx,
            pending
                .iter()
                .map(|&chunk_id| KeywordChunkArgs { chunk_id })
                .collect(),
        )
        .await?;
        println!("queued {} keyword chunks again", pending.len());
        Ok(())
    }
}
