use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use crate::models::compliance::Status;

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
}
