//! Recording, editing and deleting documents with their versions: a new upload becomes the
//! current document of its slot and the one before it history; each change keeps reminders,
//! pending expiries and the activity log in step, in one transaction.

use chrono::Utc;
use loco_rs::prelude::*;
use sea_orm::ActiveEnum;

use uuid::Uuid;

use super::{
    documents, ActiveModel, DocumentInfo, DocumentSource, Entity, Model, StoredFile, UploadContext,
};
use crate::models::{
    _entities::vendors,
    activities::{self, Actor, Subject},
    compliance::{self, Slot},
    organizations,
    refusal::Refusal,
    reminders,
};

/// Makes superseded documents history: no longer current, and without pending reminders.
async fn retire<C: ConnectionTrait>(db: &C, superseded: Vec<Model>) -> Result<()> {
    for old in superseded {
        reminders::Model::clear_pending(db, old.id).await?;
        let mut old = old.into_active_model();
        old.is_current = ActiveValue::Set(false);
        old.superseded_at = ActiveValue::Set(Some(Utc::now().into()));
        old.update(db).await?;
    }
    Ok(())
}

impl Model {
    /// Records an uploaded file for `vendor`: it becomes the current document of its slot
    /// (the previous one becomes history, except for `other`), with reminders and an activity
    /// entry, all in one transaction.
    ///
    /// # Errors
    /// `PlanLimit` at the plan's documents-per-vendor limit; database errors.
    pub async fn create(
        db: &DatabaseConnection,
        upload: &UploadContext<'_>,
        vendor: &vendors::Model,
        info: &DocumentInfo,
        file: &StoredFile,
    ) -> Result<Self> {
        let slot = info.slot();
        let txn = crate::models::begin_write(db).await?;
        // Uploads to one vendor take turns (its slot's versions, the plan's document limit); a
        // vendor deleted meanwhile is a 404.
        vendors::Model::lock_in(&txn, vendor.id).await?;
        let previous = if slot.supersedes() {
            Entity::find()
                .filter(documents::Column::VendorId.eq(vendor.id))
                .filter(documents::Column::Slot.eq(slot.as_str()))
                .filter(documents::Column::IsCurrent.eq(true))
                .all(&txn)
                .await?
        } else {
            vec![]
        };
        if let Some(limit) = upload.documents_per_vendor {
            let current = Entity::find()
                .filter(documents::Column::VendorId.eq(vendor.id))
                .filter(documents::Column::IsCurrent.eq(true))
                .count(&txn)
                .await?;
            if current - previous.len() as u64 >= limit {
                return Err(Refusal::PlanLimit(format!(
                    "Free accounts are limited to {limit} documents per vendor."
                ))
                .into());
            }
        }
        let version = if slot.supersedes() {
            Entity::find()
                .filter(documents::Column::VendorId.eq(vendor.id))
                .filter(documents::Column::Slot.eq(slot.as_str()))
                .count(&txn)
                .await?
                + 1
        } else {
            1
        };
        retire(&txn, previous).await?;
        let document = ActiveModel {
            pid: ActiveValue::Set(Uuid::new_v4()),
            document_type: ActiveValue::Set(info.document_type.as_str().to_string()),
            coi_type: ActiveValue::Set(info.coi_type.map(|c| c.as_str().to_string())),
            slot: ActiveValue::Set(slot.as_str().to_string()),
            file_name: ActiveValue::Set(file.file_name.clone()),
            storage_key: ActiveValue::Set(file.storage_key.clone()),
            content_type: ActiveValue::Set(file.content_type.clone()),
            size: ActiveValue::Set(i64::try_from(file.size).unwrap_or(i64::MAX)),
            expiration_date: ActiveValue::Set(info.expiration_date),
            notes: ActiveValue::Set(compliance::compose_notes(
                info.coi_type,
                info.notes.as_deref(),
            )),
            source: ActiveValue::Set(upload.source.to_value()),
            version: ActiveValue::Set(i32::try_from(version).unwrap_or(i32::MAX)),
            is_current: ActiveValue::Set(true),
            vendor_id: ActiveValue::Set(vendor.id),
            ..Default::default()
        }
        .set_tenant(upload.org.id)?
        .insert(&txn)
        .await?;
        reminders::Model::replace_for_document(
            &txn,
            &document,
            upload.reminder_offsets,
            upload.org.today(),
        )
        .await?;
        let via = if upload.source == DocumentSource::VendorPortal {
            " through the vendor portal"
        } else {
            ""
        };
        activities::Model::record(
            &txn,
            upload.org.id,
            upload.actor,
            activities::ActivityType::DocumentUploaded,
            format!(
                "{} \"{}\" for {} was uploaded{via}",
                info.label(),
                file.file_name,
                vendor.name
            ),
            Subject {
                vendor_key: Some(vendor.key.clone()),
                document_pid: Some(document.pid),
            },
        )
        .await?;
        txn.commit().await?;
        Ok(document)
    }

    /// The other versions of this document's slot, newest first (none for `other`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn history(&self, db: &DatabaseConnection) -> Result<Vec<Self>> {
        if self.slot == Slot::Other.as_str() {
            return Ok(vec![]);
        }
        Ok(Entity::find()
            .filter(documents::Column::VendorId.eq(self.vendor_id))
            .filter(documents::Column::Slot.eq(self.slot.as_str()))
            .filter(documents::Column::Id.ne(self.id))
            .order_by_desc(documents::Column::Version)
            .all(db)
            .await?)
    }

    /// The document read again in a write transaction, once its vendor's row is locked (writes
    /// to one vendor's documents take turns): as it is now, or `NotFound` when it was deleted
    /// meanwhile.
    async fn locked_again<C: ConnectionTrait>(&self, txn: &C) -> Result<Self> {
        vendors::Model::lock_in(txn, self.vendor_id).await?;
        Entity::find_by_id(self.id)
            .one(txn)
            .await?
            .ok_or_else(|| Refusal::NotFound.into())
    }

    /// Stores what the certificate shows and who said so. A current document with no
    /// expiration date takes the earliest date of the coverage's lines, with its reminders.
    ///
    /// # Errors
    /// `NotFound` when it was deleted meanwhile; database errors.
    pub async fn set_coverage(
        self,
        db: &DatabaseConnection,
        coverage: &crate::models::coverage::Coverage,
        source: crate::models::coverage::CoverageSource,
        reminder_offsets: &[u32],
    ) -> Result<Self> {
        let txn = crate::models::begin_write(db).await?;
        let doc = self.locked_again(&txn).await?;
        let dated = doc.expiration_date.is_none() && doc.is_current;
        let org_id = doc.organization_id;
        let mut active = doc.into_active_model();
        active.coverage = ActiveValue::Set(Some(
            serde_json::to_string(coverage).map_err(|e| Error::string(&e.to_string()))?,
        ));
        active.coverage_source = ActiveValue::Set(Some(source.as_str().to_string()));
        let earliest = coverage.earliest_expiration().filter(|_| dated);
        if earliest.is_some() {
            active.expiration_date = ActiveValue::Set(earliest);
        }
        let document = active.update(&txn).await?;
        if earliest.is_some() {
            let today = organizations::today_of(&txn, org_id).await?;
            reminders::Model::replace_for_document(&txn, &document, reminder_offsets, today)
                .await?;
        }
        txn.commit().await?;
        Ok(document)
    }

    /// Changes what is known about the document; a new slot or date replaces its reminders.
    ///
    /// # Errors
    /// Database errors.
    pub async fn update_info(
        self,
        db: &DatabaseConnection,
        vendor: &vendors::Model,
        info: &DocumentInfo,
        reminder_offsets: &[u32],
        actor: &Actor,
    ) -> Result<Self> {
        let slot = info.slot();
        let txn = crate::models::begin_write(db).await?;
        let doc = self.locked_again(&txn).await?;
        if doc.is_current && slot.as_str() != doc.slot && slot.supersedes() {
            // Moving into a taken slot makes this the current document there.
            let others = Entity::find()
                .filter(documents::Column::VendorId.eq(doc.vendor_id))
                .filter(documents::Column::Slot.eq(slot.as_str()))
                .filter(documents::Column::IsCurrent.eq(true))
                .all(&txn)
                .await?;
            retire(&txn, others).await?;
        }
        let org_id = doc.organization_id;
        let old_expiration = doc.expiration_date;
        let mut active = doc.into_active_model();
        active.document_type = ActiveValue::Set(info.document_type.as_str().to_string());
        active.coi_type = ActiveValue::Set(info.coi_type.map(|c| c.as_str().to_string()));
        active.slot = ActiveValue::Set(slot.as_str().to_string());
        active.expiration_date = ActiveValue::Set(info.expiration_date);
        active.notes = ActiveValue::Set(compliance::compose_notes(
            info.coi_type,
            info.notes.as_deref(),
        ));
        let document = active.update(&txn).await?;
        // Only a new date renews the reminders and the expiry: an edit of the notes must not
        // send the 30-day reminder again, nor record the expiry twice.
        if document.is_current && document.expiration_date != old_expiration {
            let today = organizations::today_of(&txn, org_id).await?;
            reminders::Model::replace_for_document(&txn, &document, reminder_offsets, today)
                .await?;
        }
        activities::Model::record(
            &txn,
            org_id,
            actor,
            activities::ActivityType::DocumentUpdated,
            format!(
                "{} \"{}\" for {} was updated",
                info.label(),
                document.file_name,
                vendor.name
            ),
            Subject {
                vendor_key: Some(vendor.key.clone()),
                document_pid: Some(document.pid),
            },
        )
        .await?;
        txn.commit().await?;
        Ok(document)
    }

    /// Deletes the row (its reminders go with it); when it was current, the newest earlier
    /// version of its slot becomes current again. Returns the storage key to remove.
    ///
    /// # Errors
    /// Database errors.
    pub async fn delete_with_history<C>(
        self,
        db: &C,
        vendor: &vendors::Model,
        reminder_offsets: &[u32],
        actor: &Actor,
    ) -> Result<String>
    where
        C: crate::models::writes::Writable,
    {
        let txn = crate::models::begin_write(db).await?;
        let doc = self.locked_again(&txn).await?;
        let was_current = doc.is_current;
        let (id, pid, org_id) = (doc.id, doc.pid, doc.organization_id);
        let (slot, key, label, name) = (
            doc.slot.clone(),
            doc.storage_key.clone(),
            doc.label(),
            doc.file_name.clone(),
        );
        Entity::delete_by_id(id).exec(&txn).await?;
        if was_current && slot != Slot::Other.as_str() {
            let previous = Entity::find()
                .filter(documents::Column::VendorId.eq(vendor.id))
                .filter(documents::Column::Slot.eq(slot.as_str()))
                .order_by_desc(documents::Column::Version)
                .one(&txn)
                .await?;
            if let Some(previous) = previous {
                let mut active = previous.into_active_model();
                active.is_current = ActiveValue::Set(true);
                active.superseded_at = ActiveValue::Set(None);
                let restored = active.update(&txn).await?;
                let today = organizations::today_of(&txn, org_id).await?;
                reminders::Model::replace_for_document(&txn, &restored, reminder_offsets, today)
                    .await?;
            }
        }
        activities::Model::record(
            &txn,
            org_id,
            actor,
            activities::ActivityType::DocumentDeleted,
            format!("{label} \"{name}\" for {} was deleted", vendor.name),
            Subject {
                vendor_key: Some(vendor.key.clone()),
                document_pid: Some(pid),
            },
        )
        .await?;
        txn.commit().await?;
        Ok(key)
    }
}
