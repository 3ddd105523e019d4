//! Ingests one chunk of a keyword upload (see `models::keywords`): at most once, however often
//! the job runs; a chunk whose job is lost is found again by the `keyword_ingests` task.

use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::models::keywords;

pub struct KeywordChunkWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KeywordChunkArgs {
    pub chunk_id: i64,
}

#[async_trait]
impl BackgroundWorker<KeywordChunkArgs> for KeywordChunkWorker {
    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// Database errors: the chunk stays to do.
    async fn perform(&self, args: KeywordChunkArgs) -> Result<()> {
        let result: Result<()> = async {
            // A transaction that fails (SQLite busy past its timeout, a connection lost) rolls
            // back whole, the chunk with it: run again, it is taken again.
            super::retry_db("keyword chunk", 3, || {
                keywords::ingest_chunk(&self.ctx.db, args.chunk_id)
            })
            .await
        }
        .await;
        crate::infra::observability::job_done("keyword_chunk", &result);
        result
    }
}
