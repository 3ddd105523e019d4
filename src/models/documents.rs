//! Documents: the files on record for a vendor, with versions per slot, status from the
//! expiration date, reminders and activity.

use chrono::{NaiveDate, Utc};
use loco_rs::prelude::*;
use sea_orm::entity::prelude::{DeriveActiveEnum, EnumIter, StringLen};
use uuid::Uuid;

pub use super::_entities::documents::{self, ActiveModel, Entity, Model};
use super::{
    _entities::vendors,
    compliance::{self, CoiType, DocumentType, Slot, Status},
    organizations,
    refusal::Refusal,
};

// `documents.source` (decision 49).
/// Who uploaded a document: a user of the organization, or the vendor through the portal.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
#[serde(rename_all = "snake_case")]
pub enum DocumentSource {
    #[sea_orm(string_value = "user")]
    User,
    #[sea_orm(string_value = "vendor_portal")]
    VendorPortal,
}

mod form;
mod intake;
mod listing;
mod versions;
mod view_link;

pub use form::{DateInput, DocumentUpdate, MAX_UPLOAD_NOTES};
pub use intake::{remove_all_stored, remove_stored, NewDocument, UploadedFile};
pub use listing::{
    DocumentChart, DocumentQuery, DocumentSort, CHART_WEEKS, UPCOMING_SPANS, UPCOMING_SPAN_DAYS,
};
pub use view_link::{ViewLink, VIEW_LINK_TTL};

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> documents::Column {
        documents::Column::OrganizationId
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// What is known about a document besides its file.
#[derive(Debug, Clone)]
pub struct DocumentInfo {
    pub document_type: DocumentType,
    pub coi_type: Option<CoiType>,
    pub expiration_date: Option<NaiveDate>,
    /// The user's own notes; stored with the COI prefix.
    pub notes: Option<String>,
}

impl DocumentInfo {
    #[must_use]
    pub fn slot(&self) -> Slot {
        Slot::of(self.document_type, self.coi_type).unwrap_or(Slot::Other)
    }

    #[must_use]
    pub fn label(&self) -> &'static str {
        self.coi_type
            .map_or(self.document_type.label(), CoiType::label)
    }
}

/// A file already written to storage, waiting for its row.
#[derive(Debug, Clone)]
pub struct StoredFile {
    pub file_name: String,
    pub storage_key: String,
    pub content_type: String,
    pub size: u64,
}

/// Who uploaded, and the rules that apply.
#[derive(Debug, Clone)]
pub struct UploadContext<'a> {
    pub org: &'a organizations::Model,
    pub documents_per_vendor: Option<u64>,
    pub reminder_offsets: &'a [u32],
    pub source: DocumentSource,
    /// Who uploaded it, for the activity entry.
    pub actor: &'a super::activities::Actor,
}

/// The UTC date now. An organization's "today" is its own date (`organizations::Model::today`,
/// or `CurrentUser::today` in a request): this is only for what belongs to no organization.
#[must_use]
pub fn today() -> NaiveDate {
    Utc::now().date_naive()
}

impl Model {
    #[must_use]
    pub fn status(&self, today: NaiveDate) -> Status {
        compliance::document_status(self.expiration_date, today)
    }

    #[must_use]
    pub fn label(&self) -> &'static str {
        compliance::stored_label(&self.document_type, self.coi_type.as_deref())
    }

    /// # Errors
    /// `NotFound` when the document is not the organization's.
    pub async fn find_in_org<C: ConnectionTrait>(db: &C, org_id: i64, pid: &str) -> Result<Self> {
        let pid = Uuid::parse_str(pid).map_err(|_| Refusal::NotFound)?;
        Ok(Entity::find()
            .in_tenant(org_id)
            .filter(documents::Column::Pid.eq(pid))
            .one(db)
            .await?
            .ok_or(Refusal::NotFound)?)
    }

    /// One of the organization's documents with its vendor.
    ///
    /// # Errors
    /// `NotFound` when the document is not the organization's.
    pub async fn find_with_vendor_in_org<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
        pid: &str,
    ) -> Result<(Self, super::vendors::Model)> {
        let doc = Self::find_in_org(db, org_id, pid).await?;
        let vendor = super::vendors::Model::find_by_id_in_org(db, org_id, doc.vendor_id).await?;
        Ok((doc, vendor))
    }
}

impl Model {
    #[must_use]
    pub fn source(&self) -> DocumentSource {
        super::state::stored("documents.source", &self.source, DocumentSource::User)
    }
}

#[cfg(test)]
mod source_tests {
    use super::*;

    #[test]
    fn document_sources_are_stored_and_serialized_as_before() {
        super::super::state::assert_pinned(&[
            (DocumentSource::User, "user"),
            (DocumentSource::VendorPortal, "vendor_portal"),
        ]);
    }
}
