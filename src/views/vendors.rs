use serde::Serialize;
use utoipa::ToSchema;

use super::documents::DocumentResponse;
use crate::models::{
    compliance::Status,
    gaps::{Gap, Review},
    vendors::VendorStanding,
};

/// One of the seven dashboard slots of a vendor.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlotResponse {
    pub slot: String,
    pub label: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
}

/// A vendor as the API answers it (`VendorResponse` in the `OpenAPI` document). `id` is the
/// company key.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VendorResponse {
    pub id: String,
    pub name: String,
    pub email: String,
    pub phone: Option<String>,
    pub service_type: String,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub notes: Option<String>,
    pub company_key: String,
    pub required_documents: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    pub document_status: Status,
    pub document_count: usize,
    pub slots: Vec<SlotResponse>,
    /// The requirement set the vendor must meet; `null`: none.
    pub requirement_set_id: Option<String>,
    /// Where its current certificates fall short of the set, in words (waived ones say so).
    pub gaps: Vec<Gap>,
    /// No gap counts: there is none, or each is waived (true without a set).
    pub meets_requirements: bool,
    /// The vendor's current documents (only from `GET /api/vendors/{id}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documents: Option<Vec<DocumentResponse>>,
}

impl VendorResponse {
    #[must_use]
    pub fn new(standing: &VendorStanding, review: &Review) -> Self {
        let v = &standing.vendor;
        Self {
            id: v.key.clone(),
            name: v.name.clone(),
            email: v.email.clone(),
            phone: v.phone.clone(),
            service_type: v.service_type.clone(),
            address: v.address.clone(),
            city: v.city.clone(),
            state: v.state.clone(),
            zip_code: v.zip_code.clone(),
            notes: v.notes.clone(),
            company_key: v.key.clone(),
            required_documents: standing
                .required_documents()
                .iter()
                .map(|s| s.as_str().to_string())
                .collect(),
            created_at: v.created_at.to_rfc3339(),
            updated_at: v.updated_at.to_rfc3339(),
            document_status: standing.status,
            document_count: standing.document_count,
            slots: standing
                .slots
                .iter()
                .map(|(slot, status, doc)| SlotResponse {
                    slot: slot.as_str().to_string(),
                    label: slot.label().to_string(),
                    status: *status,
                    document_id: doc.map(|d| d.to_string()),
                })
                .collect(),
            requirement_set_id: review.requirement_set.map(|p| p.to_string()),
            gaps: review.gaps.clone(),
            meets_requirements: review.meets_requirements(),
            documents: None,
        }
    }
}
