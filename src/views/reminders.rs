use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use crate::models::{
    _entities::{documents, reminders, vendors},
    compliance::{self, Status},
};

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReminderDocument {
    pub id: String,
    pub vendor: String,
    pub vendor_id: String,
    pub document_type: String,
    pub file_name: String,
    pub expiration_date: Option<NaiveDate>,
    pub status: Status,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReminderResponse {
    pub id: String,
    pub reminder_date: NaiveDate,
    pub sent: bool,
    pub sent_at: Option<String>,
    pub document: ReminderDocument,
}

impl ReminderResponse {
    #[must_use]
    pub fn new(
        r: &reminders::Model,
        d: &documents::Model,
        v: &vendors::Model,
        today: NaiveDate,
    ) -> Self {
        Self {
            id: r.pid.to_string(),
            reminder_date: r.reminder_date,
            sent: r.sent_at.is_some(),
            sent_at: r.sent_at.map(|t| t.to_rfc3339()),
            document: ReminderDocument {
                id: d.pid.to_string(),
                vendor: v.name.clone(),
                vendor_id: v.key.clone(),
                document_type: d.document_type.clone(),
                file_name: d.file_name.clone(),
                expiration_date: d.expiration_date,
                status: compliance::document_status(d.expiration_date, today),
            },
        }
    }
}
