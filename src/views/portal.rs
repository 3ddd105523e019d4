use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{
    compliance::Status,
    documents,
    gaps::Review,
    organizations,
    vendors::{self, VendorStanding},
};

/// A document type the client asks the vendor for.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestedDocument {
    pub slot: String,
    pub document_type: String,
    pub coi_type: Option<String>,
    pub label: String,
    /// A current document (not expiring within 30 days, not expired) is on file for it.
    pub uploaded: bool,
}

/// `GET /api/validate-company-key`: all the portal ever reveals.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortalVendor {
    pub valid: bool,
    /// The vendor's name.
    pub company_name: String,
    /// The name of the organization that invited the vendor.
    pub client_name: String,
    pub required_documents: Vec<RequestedDocument>,
    /// What the vendor's certificates lack against what the client requires, in words (the
    /// gaps that count; nothing else of the client's is shown).
    pub corrections: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortalDocument {
    pub id: String,
    pub document_type: String,
    pub coi_type: Option<String>,
    pub file_name: String,
    pub expiration_date: Option<NaiveDate>,
    pub status: Status,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortalUploadResponse {
    pub company_name: String,
    pub document: PortalDocument,
    /// A certificate read with AI: the token with which the vendor sees what was read and
    /// corrects it (`GET|PUT /api/portal/reading?token=`), for two hours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading_token: Option<String>,
}

impl PortalVendor {
    #[must_use]
    pub fn new(standing: &VendorStanding, org: &organizations::Model, review: &Review) -> Self {
        let required_documents = standing
            .requested()
            .into_iter()
            .map(|(slot, uploaded)| {
                let (document_type, coi_type) = slot.document_type();
                RequestedDocument {
                    slot: slot.as_str().to_string(),
                    document_type: document_type.as_str().to_string(),
                    coi_type: coi_type.map(|c| c.as_str().to_string()),
                    label: slot.portal_label().to_string(),
                    uploaded,
                }
            })
            .collect();
        Self {
            valid: true,
            company_name: standing.vendor.name.clone(),
            client_name: org.name.clone(),
            required_documents,
            corrections: review.counting(),
        }
    }
}

impl PortalUploadResponse {
    #[must_use]
    pub fn new(vendor: &vendors::Model, doc: &documents::Model, today: NaiveDate) -> Self {
        Self {
            company_name: vendor.name.clone(),
            document: PortalDocument {
                id: doc.pid.to_string(),
                document_type: doc.document_type.clone(),
                coi_type: doc.coi_type.clone(),
                file_name: doc.file_name.clone(),
                expiration_date: doc.expiration_date,
                status: doc.status(today),
            },
            reading_token: None,
        }
    }
}
