use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{
    coverage::Coverage,
    extractions::{self, ExtractionStatus},
};

/// `POST /api/documents/{id}/extract`: the reading queued (or the one already under way).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtractionAccepted {
    pub job_id: String,
}

/// `GET /api/documents/{id}/extraction`: the document's latest reading by AI.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtractionResponse {
    pub job_id: String,
    pub status: ExtractionStatus,
    /// Why it failed or is unavailable, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What was read, in the `coverage` shape (amounts in whole dollars), when done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<Coverage>,
    /// Each field's confidence, 0 to 1, by path (`lines[0].limits.eachOccurrence`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<BTreeMap<String, f64>>,
    /// What the model answered that did not read, left out, in words.
    pub notes: Vec<String>,
    /// What the suggestion shows that a person should look at, in words: the insured not
    /// being the vendor, a certificate dated more than a year ago, a certificate holder that
    /// is not the organization.
    pub checks: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// What the reading cost, in US dollars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
}

impl ExtractionResponse {
    #[must_use]
    pub fn new(row: &extractions::Model, checks: Vec<String>) -> Self {
        let done = row.status() == ExtractionStatus::Done;
        Self {
            checks,
            job_id: row.pid.to_string(),
            status: row.status(),
            reason: row.reason.clone(),
            suggestion: if done { row.suggestion() } else { None },
            confidence: done.then(|| row.confidence()),
            notes: row.notes(),
            model: row.model.clone(),
            cost_usd: row
                .model
                .as_ref()
                .map(|_| crate::services::ai::dollars(row.cost_micros)),
            created_at: row.created_at.to_rfc3339(),
            finished_at: row.finished_at.map(|t| t.to_rfc3339()),
        }
    }
}
