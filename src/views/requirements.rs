use serde::Serialize;
use utoipa::ToSchema;

use crate::models::requirement_sets::{self as requirements, RequirementLine};

/// A requirement set (`requirementSet` of the contract).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequirementSetResponse {
    pub id: String,
    pub name: String,
    pub lines: Vec<RequirementLine>,
    /// How many of the organization's vendors must meet it.
    pub vendor_count: u64,
}

impl RequirementSetResponse {
    #[must_use]
    pub fn new(set: &requirements::Model, vendor_count: u64) -> Self {
        Self {
            id: set.pid.to_string(),
            name: set.name.clone(),
            lines: set.lines(),
            vendor_count,
        }
    }
}

/// `POST /api/vendors/requirement-set`: how many vendors now have the set.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssignedResponse {
    pub updated: u64,
}

/// `POST /api/vendors/{id}/waivers`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaiverResponse {
    pub id: String,
    /// `null` for the insured named on a certificate.
    #[schema(value_type = Option<crate::models::coverage::Line>)]
    pub line: Option<String>,
    #[schema(value_type = crate::models::gaps::GapKind)]
    pub kind: String,
    pub reason: String,
    #[schema(value_type = String, format = Date)]
    pub until: chrono::NaiveDate,
    pub by: String,
}
