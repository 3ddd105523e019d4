use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{
    _entities::{documents, vendors},
    compliance::Status,
    coverage::{Coverage, CoverageSource},
};

/// A document as the API answers it (`DocumentResponse` in the `OpenAPI` document).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentResponse {
    pub id: String,
    /// The vendor's company key.
    pub vendor_id: String,
    /// The vendor's name.
    pub vendor: String,
    pub file_name: String,
    pub document_type: String,
    pub coi_type: Option<String>,
    pub uploaded_at: String,
    pub expiration_date: Option<NaiveDate>,
    pub status: Status,
    pub notes: Option<String>,
    pub content_type: String,
    pub size: i64,
    pub version: i32,
    /// False for an earlier version kept as history.
    pub is_current: bool,
    pub source: crate::models::documents::DocumentSource,
    /// What the certificate shows (COI documents, once entered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<CoverageResponse>,
}

/// A certificate's coverage and who said so.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CoverageResponse {
    #[serde(flatten)]
    pub coverage: Coverage,
    pub source: CoverageSource,
}

impl CoverageResponse {
    /// The coverage stored on `doc`, if any.
    #[must_use]
    pub fn of(doc: &documents::Model) -> Option<Self> {
        Some(Self {
            coverage: Coverage::stored(doc.coverage.as_deref())?,
            source: doc
                .coverage_source
                .as_deref()
                .and_then(CoverageSource::parse)
                .unwrap_or(CoverageSource::Manual),
        })
    }
}

impl DocumentResponse {
    #[must_use]
    pub fn new(doc: &documents::Model, vendor: &vendors::Model, today: NaiveDate) -> Self {
        Self {
            id: doc.pid.to_string(),
            vendor_id: vendor.key.clone(),
            vendor: vendor.name.clone(),
            file_name: doc.file_name.clone(),
            document_type: doc.document_type.clone(),
            coi_type: doc.coi_type.clone(),
            uploaded_at: doc.created_at.to_rfc3339(),
            expiration_date: doc.expiration_date,
            status: crate::models::compliance::document_status(doc.expiration_date, today),
            notes: doc.notes.clone(),
            content_type: doc.content_type.clone(),
            size: doc.size,
            version: doc.version,
            is_current: doc.is_current,
            source: doc.source(),
            coverage: CoverageResponse::of(doc),
        }
    }
}

/// `GET /api/documents/{id}`: the document and the other versions of its slot.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentWithHistory {
    #[serde(flatten)]
    pub document: DocumentResponse,
    pub history: Vec<DocumentResponse>,
}

/// A short-lived signed link to a document's view, for a frame that cannot send the bearer
/// token (`GET /api/documents/{id}/view-link`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ViewLinkResponse {
    /// A path on this server ending with the file's name; it works without a token until
    /// `expiresAt`.
    pub url: String,
    pub expires_at: String,
}
