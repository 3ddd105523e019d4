//! Reads one certificate with AI (see `models::extractions`): takes the reading if it is still
//! queued, sends the file's text (or its images, when the model reads them) to the configured
//! AI service, and keeps the suggestion or the reason there is none. A reading whose worker
//! dies is failed by the `content_schedule` task's sweep, and can be asked for again.

use std::path::Path;

use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{
    models::{
        _entities::documents,
        extractions::{self, ExtractionStatus},
        file_type::{convert, FileKind},
    },
    services::{ai::Ai, certificates},
    settings::Settings,
};

pub struct ExtractCoverageWorker {
    pub ctx: AppContext,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractCoverageArgs {
    pub extraction_id: i64,
}

#[async_trait]
impl BackgroundWorker<ExtractCoverageArgs> for ExtractCoverageWorker {
    fn build(ctx: &AppContext) -> Self {
        Self { ctx: ctx.clone() }
    }

    /// # Errors
    /// Database errors: the reading stays open and the sweep fails it later.
    async fn perform(&self, args: ExtractCoverageArgs) -> Result<()> {
        let result = self.read(args.extraction_id).await;
        crate::infra::observability::job_done("extract_coverage", &result);
        result
    }
}

impl ExtractCoverageWorker {
    async fn read(&self, id: i64) -> Result<()> {
        let db = &self.ctx.db;
        let Some(reading) = extractions::Model::start(db, id).await? else {
            return Ok(());
        };
        let settings = Settings::from_context(&self.ctx)?;
        let ai = match Ai::from_settings(&settings.ai) {
            Ok(Some(ai)) => ai,
            Ok(None) => {
                let why = crate::services::ai::Failure::NotConfigured.to_string();
                reading
                    .end(db, ExtractionStatus::Failed, &why, None, None)
                    .await?;
                return Ok(());
            }
            Err(e) => return Err(Error::string(&e)),
        };
        let Some(doc) = documents::Entity::find_by_id(reading.document_id)
            .one(db)
            .await?
        else {
            return Ok(());
        };
        let bytes = match self
            .ctx
            .storage
            .download::<Vec<u8>>(Path::new(&doc.storage_key))
            .await
        {
            Ok(bytes) => bytes,
            Err(e) => {
                tracing::warn!(reading = id, error = %e, "certificate file unreadable");
                let why = "The certificate's file could not be read from storage. Try again.";
                reading
                    .end(db, ExtractionStatus::Failed, why, None, None)
                    .await?;
                return Ok(());
            }
        };
        // A phone's HEIC or a scanner's TIFF goes to a model that reads images as the JPEG or
        // PNG the document's view shows.
        let (bytes, content_type) = match FileKind::from_content_type(&doc.content_type) {
            Some(kind @ (FileKind::Heic | FileKind::Tiff)) if ai.reads_images() => {
                let converted =
                    tokio::task::spawn_blocking(move || convert::for_browser(kind, &bytes)).await;
                if let Ok(Ok(Some(picture))) = converted {
                    (picture.bytes, picture.content_type.to_string())
                } else {
                    let why = "This picture could not be decoded for the AI service; enter \
                               its coverage by hand.";
                    reading
                        .end(db, ExtractionStatus::Unavailable, why, None, None)
                        .await?;
                    return Ok(());
                }
            }
            _ => (bytes, doc.content_type.clone()),
        };
        let source = match certificates::source_of(&bytes, &content_type, ai.reads_images()) {
            Ok(source) => source,
            Err(why) => {
                reading
                    .end(db, ExtractionStatus::Unavailable, &why, None, None)
                    .await?;
                return Ok(());
            }
        };
        match certificates::read(&ai, &source).await {
            Ok(read) => {
                let cost = ai.cost_micros(read.usage);
                let kept = reading.succeed(db, &read, cost).await?;
                tracing::info!(
                    reading = id,
                    kept,
                    notes = read.notes.len(),
                    "certificate read"
                );
            }
            Err((why, usage)) => {
                tracing::warn!(reading = id, reason = %why, "certificate reading failed");
                let usage = usage.map(|u| (u, ai.cost_micros(u)));
                reading
                    .end(db, ExtractionStatus::Failed, &why, Some(ai.model()), usage)
                    .await?;
            }
        }
        Ok(())
    }
}
