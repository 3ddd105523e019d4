//! Vendors: an organization's suppliers, each reachable by its company key.

use chrono::NaiveDate;
use loco_rs::prelude::*;
use sea_orm::{DatabaseTransaction, DbBackend};

pub use super::_entities::vendors::{self, ActiveModel, Entity, Model};
use super::{
    _entities::documents,
    activities::{self, Actor, Subject},
    compliance::{CompanyKey, Slot},
    gaps::Review,
    organizations,
    refusal::Refusal,
    requirement_sets as requirements,
};

mod form;
mod listing;
mod standing;

pub use form::{ServiceType, ValidVendor, VendorFields, VendorParams, SERVICE_TYPES};
pub use listing::{VendorCounts, VendorQuery, VendorSort};
use standing::required_json;
pub use standing::{parse_required, PlanLimit, VendorStanding};

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> vendors::Column {
        vendors::Column::OrganizationId
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// The vendor with this company key in this organization; any other is not found.
    ///
    /// # Errors
    /// `NotFound` when there is no such vendor in the organization.
    pub async fn find_in_org<C: ConnectionTrait>(db: &C, org_id: i64, key: &str) -> Result<Self> {
        Ok(Entity::find()
            .in_tenant(org_id)
            .filter(vendors::Column::Key.eq(key))
            .one(db)
            .await?
            .ok_or(Refusal::NotFound)?)
    }

    /// The vendor a company key belongs to, whichever organization it is in, with that
    /// organization: the portal's one way in, and the only lookup across organizations.
    ///
    /// # Errors
    /// Database errors.
    pub async fn find_by_company_key(
        db: &DatabaseConnection,
        key: &CompanyKey,
    ) -> Result<Option<(Self, organizations::Model)>> {
        let Some(vendor) = Entity::find()
            .filter(vendors::Column::Key.eq(key.as_str()))
            .one(db)
            .await?
        else {
            return Ok(None);
        };
        let org = organizations::Model::find_by_id(db, vendor.organization_id).await?;
        Ok(Some((vendor, org)))
    }

    /// The vendor of one of the organization's documents.
    ///
    /// # Errors
    /// `NotFound` when the vendor is not the organization's.
    pub async fn find_by_id_in_org<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
        id: i64,
    ) -> Result<Self> {
        Ok(Entity::find_by_id(id)
            .in_tenant(org_id)
            .one(db)
            .await?
            .ok_or(Refusal::NotFound)?)
    }

    /// Each vendor of the organization as an import tells them apart: its email and its name.
    ///
    /// # Errors
    /// Database errors.
    pub async fn identities_in_org<C: ConnectionTrait>(
        db: &C,
        org_id: i64,
    ) -> Result<Vec<(String, String)>> {
        Ok(Entity::find()
            .in_tenant(org_id)
            .select_only()
            .column(vendors::Column::Email)
            .column(vendors::Column::Name)
            .into_tuple()
            .all(db)
            .await?)
    }

    /// # Errors
    /// Database errors.
    pub async fn count_in_org<C: ConnectionTrait>(db: &C, org_id: i64) -> Result<u64> {
        Ok(Entity::find().in_tenant(org_id).count(db).await?)
    }

    /// One vendor's standing and its current documents.
    ///
    /// # Errors
    /// Database errors.
    pub async fn standing<C: ConnectionTrait>(
        self,
        db: &C,
        today: NaiveDate,
    ) -> Result<(VendorStanding, Vec<documents::Model>)> {
        let current = documents::Entity::find()
            .in_tenant(self.organization_id)
            .filter(documents::Column::VendorId.eq(self.id))
            .filter(documents::Column::IsCurrent.eq(true))
            .order_by_desc(documents::Column::CreatedAt)
            .all(db)
            .await?;
        Ok((VendorStanding::new(self, &current, today), current))
    }

    /// Creates a vendor within the plan's limit, with the given or a generated company key.
    ///
    /// # Errors
    /// `PlanLimit` at the plan's limit, `Taken` when the given key is in use, database errors.
    pub async fn create(
        db: &DatabaseConnection,
        org_id: i64,
        limit: &PlanLimit,
        form: &ValidVendor,
        actor: &Actor,
    ) -> Result<Self> {
        let txn = crate::models::begin_write(db).await?;
        Self::lock_for_new_vendors(&txn, org_id).await?;
        if Self::count_in_org(&txn, org_id).await? >= limit.vendors {
            return Err(Refusal::PlanLimit(limit.message.clone()).into());
        }
        let vendor = Self::insert_in(&txn, org_id, form, actor).await?;
        txn.commit().await?;
        Ok(vendor)
    }

    /// Locks the organization's row until the write transaction `txn` ends (`PostgreSQL`:
    /// `SELECT ... FOR UPDATE`; `SQLite`'s immediate transaction already holds the whole
    /// database), so that everything adding vendors (one at a time or an import) counts them
    /// one after the other against the plan's limit.
    ///
    /// # Errors
    /// `NotFound` for an unknown organization; database errors.
    pub async fn lock_for_new_vendors<C: ConnectionTrait>(txn: &C, org_id: i64) -> Result<()> {
        organizations::Entity::find_by_id(org_id)
            .lock_exclusive()
            .one(txn)
            .await?
            .ok_or(Refusal::NotFound)?;
        Ok(())
    }

    /// Inserts a vendor with its activity entry in `txn`, which holds
    /// `lock_for_new_vendors` and has checked the plan's limit.
    ///
    /// # Errors
    /// `Taken` when the given key is in use, database errors.
    pub async fn insert_in<C: ConnectionTrait>(
        txn: &C,
        org_id: i64,
        form: &ValidVendor,
        actor: &Actor,
    ) -> Result<Self> {
        let mut attempts = 0;
        let vendor = loop {
            let key = form
                .company_key
                .clone()
                .unwrap_or_else(CompanyKey::generate);
            let taken = Entity::find()
                .filter(vendors::Column::Key.eq(key.as_str()))
                .count(txn)
                .await?
                > 0;
            if taken {
                if form.company_key.is_some() {
                    return Err(Refusal::Taken {
                        code: "company_key_taken",
                        message: "This company key is already in use. Generate a new key."
                            .to_string(),
                    }
                    .into());
                }
                attempts += 1;
                if attempts > 10 {
                    return Err(Error::string("could not find a free company key"));
                }
                continue;
            }
            let mut active = ActiveModel {
                key: ActiveValue::Set(key.into()),
                ..Self::fields(form)
            }
            .set_tenant(org_id)?;
            if form.required_documents.is_none() {
                active.required_documents =
                    ActiveValue::Set(required_json(&Slot::DEFAULT_REQUIRED));
            }
            if let Some(choice) = &form.requirement_set_id {
                active.requirement_set_id = ActiveValue::Set(
                    requirements::resolve(txn, org_id, choice.as_deref(), "requirementSetId")
                        .await?,
                );
            }
            break active.insert(txn).await?;
        };
        activities::Model::record(
            txn,
            org_id,
            actor,
            activities::ActivityType::VendorCreated,
            format!("Vendor {} was added", vendor.name),
            Subject {
                vendor_key: Some(vendor.key.clone()),
                document_pid: None,
            },
        )
        .await?;
        Ok(vendor)
    }

    fn fields(form: &ValidVendor) -> ActiveModel {
        ActiveModel {
            name: ActiveValue::Set(form.name.clone()),
            email: ActiveValue::Set(form.email.as_str().to_string()),
            service_type: ActiveValue::Set(form.service_type.clone()),
            phone: ActiveValue::Set(form.phone.clone()),
            address: ActiveValue::Set(form.address.clone()),
            city: ActiveValue::Set(form.city.clone()),
            state: ActiveValue::Set(form.state.clone()),
            zip_code: ActiveValue::Set(form.zip_code.clone()),
            notes: ActiveValue::Set(form.notes.clone()),
            required_documents: form
                .required_documents
                .as_ref()
                .map_or(ActiveValue::NotSet, |r| ActiveValue::Set(required_json(r))),
            ..Default::default()
        }
    }

    /// Saves the edit form of the vendor with company key `key` in organization `org_id`, and
    /// reads what the edit answers with: the vendor's standing on `today` and its review. The
    /// company key never changes. A vendor of another organization is not found before its
    /// fields are checked, as on every route.
    ///
    /// On `PostgreSQL` all of it runs on the write transaction's own connection: the lookup
    /// (docs/benchmarks/api.md, "Tenth pass") and, after the update, the reads (one request to
    /// the pool fewer again, "Twelfth pass"). Read there they are exactly the vendor as the
    /// commit leaves it: the update holds the organization's row (its data version), which
    /// every write of a document, requirement set or waiver of the organization takes too, so
    /// none commits between the reads and the commit. On `SQLite` the vendor is looked up before
    /// the transaction begins and read after it: there the transaction holds the database's
    /// write lock, which every other write waits for, and a statement more under it costs more
    /// than the pool request it saves ("Ninth pass").
    ///
    /// # Errors
    /// `NotFound` when there is no such vendor in the organization, or it was deleted
    /// meanwhile; `Invalid`, naming each invalid field; database errors.
    pub async fn update_in_org(
        db: &DatabaseConnection,
        org_id: i64,
        key: &str,
        fields: &VendorFields,
        actor: &Actor,
        today: NaiveDate,
    ) -> Result<(VendorStanding, Review)> {
        if db.get_database_backend() == DbBackend::Sqlite {
            let vendor = Self::find_in_org(db, org_id, key).await?;
            let form = fields.validate()?;
            let vendor = vendor.update_from(db, &form, actor).await?;
            return vendor.answer_of_edit(db, today).await;
        }
        let txn = crate::models::begin_write(db).await?;
        let vendor = Self::find_in_org(&*txn, org_id, key).await?;
        let form = fields.validate()?;
        let vendor = vendor.save_edit(&txn, &form, actor).await?;
        let answer = vendor.answer_of_edit(&txn, today).await?;
        txn.commit().await?;
        Ok(answer)
    }

    /// The vendor's standing on `today` and its review: what an edit answers with.
    async fn answer_of_edit<C: ConnectionTrait>(
        self,
        db: &C,
        today: NaiveDate,
    ) -> Result<(VendorStanding, Review)> {
        let (standing, _) = self.standing(db, today).await?;
        let review = Review::of_vendor(db, &standing.vendor, today).await?;
        Ok((standing, review))
    }

    /// Saves the edit form; the company key never changes.
    ///
    /// # Errors
    /// `NotFound` when the vendor was deleted meanwhile; database errors.
    pub async fn update_from(
        self,
        db: &DatabaseConnection,
        form: &ValidVendor,
        actor: &Actor,
    ) -> Result<Self> {
        let txn = crate::models::begin_write(db).await?;
        let vendor = self.save_edit(&txn, form, actor).await?;
        txn.commit().await?;
        Ok(vendor)
    }

    /// [`Self::update_from`] inside the write transaction `txn`.
    async fn save_edit(
        self,
        txn: &DatabaseTransaction,
        form: &ValidVendor,
        actor: &Actor,
    ) -> Result<Self> {
        let mut active = Self::fields(form);
        active.id = ActiveValue::Unchanged(self.id);
        if let Some(choice) = &form.requirement_set_id {
            active.requirement_set_id = ActiveValue::Set(
                requirements::resolve(
                    txn,
                    self.organization_id,
                    choice.as_deref(),
                    "requirementSetId",
                )
                .await?,
            );
        }
        // The activity entry (and its webhook events) first, the vendor's row last: on
        // `PostgreSQL` the update takes the row's lock, which every other write to the vendor
        // waits for, so it is held for the update and the commit only (docs/benchmarks/api.md,
        // "Sixth pass"). No `lock_in` either: the update finds the row or not, and a vendor
        // deleted meanwhile is `RecordNotUpdated`, the 404 below, which rolls the entry back
        // with it. `SQLite`'s immediate transaction holds the whole database from its start.
        activities::Model::record(
            txn,
            self.organization_id,
            actor,
            activities::ActivityType::VendorUpdated,
            format!("Vendor {} was updated", form.name),
            Subject {
                vendor_key: Some(self.key.clone()),
                document_pid: None,
            },
        )
        .await?;
        active.update(txn).await.map_err(|err| match err {
            DbErr::RecordNotUpdated => Error::from(Refusal::NotFound),
            err => err.into(),
        })
    }
}

impl Model {
    /// Reads the vendor's row again in a write transaction, locked until it ends: on
    /// `PostgreSQL` `SELECT ... FOR UPDATE`, so that writes to one vendor (an upload, an edit,
    /// a delete) take turns; `SQLite`'s immediate transactions already take turns for the whole
    /// database. `NotFound` when it was deleted meanwhile.
    ///
    /// # Errors
    /// `NotFound`; database errors.
    pub async fn lock_in<C: ConnectionTrait>(txn: &C, id: i64) -> Result<Self> {
        Entity::find_by_id(id)
            .lock_exclusive()
            .one(txn)
            .await?
            .ok_or_else(|| Refusal::NotFound.into())
    }

    /// Deletes the vendor with every document version and reminder, recording it in the
    /// activity log; returns the storage keys of its files, to remove once committed.
    ///
    /// # Errors
    /// Database errors.
    pub async fn delete_with_documents<C>(self, db: &C, actor: &Actor) -> Result<Vec<String>>
    where
        C: crate::models::writes::Writable,
    {
        let txn = crate::models::begin_write(db).await?;
        // Locked first: an upload that committed while this waited has its file listed below.
        Self::lock_in(&txn, self.id).await?;
        let keys: Vec<String> = documents::Entity::find()
            .in_tenant(self.organization_id)
            .filter(documents::Column::VendorId.eq(self.id))
            .all(&txn)
            .await?
            .into_iter()
            .map(|d| d.storage_key)
            .collect();
        super::_entities::reminders::Entity::delete_many()
            .filter(
                super::_entities::reminders::Column::DocumentId.in_subquery(
                    sea_orm::sea_query::Query::select()
                        .column(documents::Column::Id)
                        .from(documents::Entity)
                        .and_where(documents::Column::VendorId.eq(self.id))
                        .to_owned(),
                ),
            )
            .exec(&txn)
            .await?;
        documents::Entity::delete_many()
            .filter(documents::Column::OrganizationId.eq(self.organization_id))
            .filter(documents::Column::VendorId.eq(self.id))
            .exec(&txn)
            .await?;
        Entity::delete_by_id(self.id).exec(&txn).await?;
        activities::Model::record(
            &txn,
            self.organization_id,
            actor,
            activities::ActivityType::VendorDeleted,
            format!("Vendor {} and its documents were deleted", self.name),
            Subject {
                vendor_key: Some(self.key.clone()),
                document_pid: None,
            },
        )
        .await?;
        txn.commit().await?;
        Ok(keys)
    }
}
