//! Vendors: an organization's suppliers, each reachable by its company key.

use chrono::{NaiveDate, Utc};
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use super::_entities::vendors::{self, ActiveModel, Entity, Model};
use super::{
    _entities::documents,
    compliance::{self, Slot, Status},
};
use crate::errors::{self, api_error, FieldErrors};

/// Every service type a form offers (DECISIONS.md: the union of SPEC.md's two readings).
pub const SERVICE_TYPES: [&str; 11] = [
    "general-contractor",
    "plumbing",
    "electrical",
    "hvac",
    "cleaning",
    "landscaping",
    "security",
    "pest-control",
    "technology",
    "consulting",
    "other",
];

mod listing;

pub use listing::{VendorCounts, VendorQuery};

impl TenantEntity for Entity {
    type TenantId = i64;

    fn tenant_column() -> vendors::Column {
        vendors::Column::OrganizationId
    }
}

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}

/// The service types a form offers, as the `OpenAPI` document names them.
#[derive(ToSchema)]
#[schema(rename_all = "kebab-case")]
pub enum ServiceType {
    GeneralContractor,
    Plumbing,
    Electrical,
    Hvac,
    Cleaning,
    Landscaping,
    Security,
    PestControl,
    Technology,
    Consulting,
    Other,
}

/// The fields of the vendor forms: what `PUT /api/vendors/{id}` sends (API.md).
#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct VendorFields {
    /// 1 to 200 characters once trimmed.
    #[schema(required = true, min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
    #[schema(required = true, format = Email, max_length = 254)]
    pub email: String,
    #[schema(required = true, value_type = ServiceType)]
    pub service_type: String,
    #[schema(max_length = 50)]
    pub phone: Option<String>,
    #[schema(max_length = 300)]
    pub address: Option<String>,
    #[schema(max_length = 100)]
    pub city: Option<String>,
    #[schema(max_length = 100)]
    pub state: Option<String>,
    #[schema(max_length = 20)]
    pub zip_code: Option<String>,
    #[schema(max_length = 5000)]
    pub notes: Option<String>,
    /// Slot keys asked for on the upload portal; default all but `other`.
    #[schema(value_type = Option<Vec<Slot>>)]
    pub required_documents: Option<Vec<String>>,
    /// Ignored: a vendor's company key never changes (the edit form may send it back).
    pub company_key: Option<String>,
}

/// `POST /api/vendors`: the form's fields and, optionally, the company key it generated. (Not
/// `VendorFields` flattened: serde cannot refuse unknown fields through a flatten.)
#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct VendorParams {
    #[schema(required = true, min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
    #[schema(required = true, format = Email, max_length = 254)]
    pub email: String,
    #[schema(required = true, value_type = ServiceType)]
    pub service_type: String,
    #[schema(max_length = 50)]
    pub phone: Option<String>,
    #[schema(max_length = 300)]
    pub address: Option<String>,
    #[schema(max_length = 100)]
    pub city: Option<String>,
    #[schema(max_length = 100)]
    pub state: Option<String>,
    #[schema(max_length = 20)]
    pub zip_code: Option<String>,
    #[schema(max_length = 5000)]
    pub notes: Option<String>,
    /// Slot keys asked for on the upload portal; default all but `other`.
    #[schema(value_type = Option<Vec<Slot>>)]
    pub required_documents: Option<Vec<String>>,
    /// The key the form generated (8 letters or digits); the server makes one when absent.
    #[schema(pattern = r"^\s*([A-Za-z0-9]{8})?\s*$")]
    pub company_key: Option<String>,
}

fn clean(
    value: Option<&String>,
    max: usize,
    field: &str,
    errs: &mut FieldErrors,
) -> Option<String> {
    let v = value.map(|s| s.trim()).filter(|s| !s.is_empty())?;
    if v.chars().count() > max {
        errs.entry(field.to_string())
            .or_default()
            .push(format!("Must be at most {max} characters"));
    }
    Some(v.to_string())
}

/// The form, checked: every field trimmed, every rule applied, or a 422 naming each field.
#[derive(Debug, Clone)]
pub struct ValidVendor {
    pub name: String,
    pub email: String,
    pub service_type: String,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub notes: Option<String>,
    pub company_key: Option<String>,
    /// `None` keeps what the vendor had (or the default on create).
    pub required_documents: Option<Vec<Slot>>,
}

impl VendorParams {
    /// # Errors
    /// A 422 naming each invalid field.
    pub fn validate(self) -> Result<ValidVendor> {
        let Self {
            name,
            email,
            service_type,
            phone,
            address,
            city,
            state,
            zip_code,
            notes,
            required_documents,
            company_key,
        } = self;
        VendorFields {
            name,
            email,
            service_type,
            phone,
            address,
            city,
            state,
            zip_code,
            notes,
            required_documents,
            company_key: None,
        }
        .validate_with_key(company_key.as_ref())
    }
}

impl VendorFields {
    /// The fields of an edit, where the company key never changes.
    ///
    /// # Errors
    /// A 422 naming each invalid field.
    pub fn validate(&self) -> Result<ValidVendor> {
        self.validate_with_key(None)
    }

    fn validate_with_key(&self, company_key: Option<&String>) -> Result<ValidVendor> {
        let mut errs = FieldErrors::new();
        let mut push =
            |f: &str, m: &str| errs.entry(f.to_string()).or_default().push(m.to_string());
        let name = self.name.trim().to_string();
        if name.is_empty() {
            push("name", "Vendor name is required");
        } else if name.chars().count() > 200 {
            push("name", "Vendor name must be at most 200 characters");
        }
        let email = self.email.trim().to_lowercase();
        if email.is_empty() {
            push("email", "Contact email is required");
        } else if !super::users::is_email(&email) {
            push("email", "Invalid email address");
        }
        let service_type = self.service_type.trim().to_string();
        if service_type.is_empty() {
            push("serviceType", "Service type is required");
        } else if !SERVICE_TYPES.contains(&service_type.as_str()) {
            push("serviceType", "Choose a service type from the list");
        }
        let company_key = company_key
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty());
        if company_key
            .as_deref()
            .is_some_and(|k| !compliance::is_company_key(k))
        {
            push("companyKey", "The company key must be 8 letters or digits");
        }
        let required_documents = match &self.required_documents {
            None => None,
            Some(keys) => {
                let parsed: Vec<Option<Slot>> = keys.iter().map(|k| Slot::parse(k)).collect();
                if parsed.iter().any(Option::is_none) {
                    push("requiredDocuments", "Unknown document slot");
                }
                let mut slots: Vec<Slot> = parsed.into_iter().flatten().collect();
                slots.dedup();
                Some(slots)
            }
        };
        let phone = clean(self.phone.as_ref(), 50, "phone", &mut errs);
        let address = clean(self.address.as_ref(), 300, "address", &mut errs);
        let city = clean(self.city.as_ref(), 100, "city", &mut errs);
        let state = clean(self.state.as_ref(), 100, "state", &mut errs);
        let zip_code = clean(self.zip_code.as_ref(), 20, "zipCode", &mut errs);
        let notes = clean(self.notes.as_ref(), 5000, "notes", &mut errs);
        if !errs.is_empty() {
            return Err(errors::validation(errs));
        }
        Ok(ValidVendor {
            name,
            email,
            service_type,
            phone,
            address,
            city,
            state,
            zip_code,
            notes,
            company_key,
            required_documents,
        })
    }
}

/// How many vendors the organization's plan allows, and what to say at the limit.
#[derive(Debug, Clone)]
pub struct PlanLimit {
    pub vendors: u64,
    pub message: String,
}

/// A vendor with what its current documents say about it.
#[derive(Debug, Clone)]
pub struct VendorStanding {
    pub vendor: Model,
    pub status: Status,
    pub document_count: usize,
    /// The seven slots: status and the id of the document deciding it.
    pub slots: Vec<(Slot, Status, Option<Uuid>)>,
}

impl VendorStanding {
    #[must_use]
    pub fn new(vendor: Model, current: &[documents::Model], today: NaiveDate) -> Self {
        Self::of(
            vendor,
            current
                .iter()
                .map(|d| (d.slot.as_str(), d.expiration_date, d.pid)),
            today,
        )
    }

    /// The standing from the vendor's current documents as (slot, expiration date, id).
    #[must_use]
    pub fn of<'a>(
        vendor: Model,
        current: impl IntoIterator<Item = (&'a str, Option<NaiveDate>, Uuid)>,
        today: NaiveDate,
    ) -> Self {
        let mut document_count = 0;
        let statuses: Vec<(Slot, Status, Uuid)> = current
            .into_iter()
            .inspect(|_| document_count += 1)
            .filter_map(|(slot, expiration, pid)| {
                Slot::parse(slot).map(|s| (s, compliance::document_status(expiration, today), pid))
            })
            .collect();
        let slots = Slot::ALL
            .into_iter()
            .map(|slot| {
                statuses
                    .iter()
                    .filter(|(s, _, _)| *s == slot)
                    .max_by_key(|(_, st, _)| *st)
                    .map_or((slot, Status::Missing, None), |(s, st, id)| {
                        (*s, *st, Some(*id))
                    })
            })
            .collect();
        Self {
            vendor,
            status: compliance::vendor_status(statuses.iter().map(|(_, s, _)| *s)),
            document_count,
            slots,
        }
    }

    #[must_use]
    pub fn required_documents(&self) -> Vec<Slot> {
        parse_required(&self.vendor.required_documents)
    }
}

#[must_use]
pub fn parse_required(raw: &str) -> Vec<Slot> {
    serde_json::from_str::<Vec<String>>(raw)
        .unwrap_or_default()
        .iter()
        .filter_map(|k| Slot::parse(k))
        .collect()
}

fn required_json(slots: &[Slot]) -> String {
    serde_json::to_string(&slots.iter().map(|s| s.as_str()).collect::<Vec<_>>())
        .unwrap_or_else(|_| "[]".to_string())
}

#[must_use]
pub fn today() -> NaiveDate {
    Utc::now().date_naive()
}

impl Model {
    /// The vendor with this company key in this organization; any other is not found.
    ///
    /// # Errors
    /// 404 when there is no such vendor in the organization.
    pub async fn find_in_org<C: ConnectionTrait>(db: &C, org_id: i64, key: &str) -> Result<Self> {
        Entity::find()
            .in_tenant(org_id)
            .filter(vendors::Column::Key.eq(key))
            .one(db)
            .await?
            .ok_or_else(errors::not_found)
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
    pub async fn standing(
        self,
        db: &DatabaseConnection,
    ) -> Result<(VendorStanding, Vec<documents::Model>)> {
        let current = documents::Entity::find()
            .filter(documents::Column::VendorId.eq(self.id))
            .filter(documents::Column::IsCurrent.eq(true))
            .order_by_desc(documents::Column::CreatedAt)
            .all(db)
            .await?;
        Ok((VendorStanding::new(self, &current, today()), current))
    }

    /// Creates a vendor within the plan's limit, with the given or a generated company key.
    ///
    /// # Errors
    /// 402 at the plan limit, 409 when the given key is taken, database errors.
    pub async fn create(
        db: &DatabaseConnection,
        org_id: i64,
        limit: &PlanLimit,
        form: &ValidVendor,
    ) -> Result<Self> {
        let txn = db.begin().await?;
        if Self::count_in_org(&txn, org_id).await? >= limit.vendors {
            return Err(api_error(
                axum::http::StatusCode::PAYMENT_REQUIRED,
                "plan_limit",
                &limit.message,
            ));
        }
        let mut attempts = 0;
        let vendor = loop {
            let key = form
                .company_key
                .clone()
                .unwrap_or_else(compliance::generate_company_key);
            let taken = Entity::find()
                .filter(vendors::Column::Key.eq(&key))
                .count(&txn)
                .await?
                > 0;
            if taken {
                if form.company_key.is_some() {
                    return Err(errors::conflict(
                        "company_key_taken",
                        "This company key is already in use. Generate a new key.",
                    ));
                }
                attempts += 1;
                if attempts > 10 {
                    return Err(Error::string("could not find a free company key"));
                }
                continue;
            }
            let mut active = ActiveModel {
                key: ActiveValue::Set(key),
                ..Self::fields(form)
            }
            .set_tenant(org_id)?;
            if form.required_documents.is_none() {
                active.required_documents =
                    ActiveValue::Set(required_json(&Slot::DEFAULT_REQUIRED));
            }
            break active.insert(&txn).await?;
        };
        super::activities::Model::record(
            &txn,
            org_id,
            super::activities::VENDOR_CREATED,
            format!("Vendor {} was added", vendor.name),
            super::activities::Subject {
                vendor_key: Some(vendor.key.clone()),
                document_pid: None,
            },
        )
        .await?;
        txn.commit().await?;
        Ok(vendor)
    }

    fn fields(form: &ValidVendor) -> ActiveModel {
        ActiveModel {
            name: ActiveValue::Set(form.name.clone()),
            email: ActiveValue::Set(form.email.clone()),
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

    /// Saves the edit form; the company key never changes.
    ///
    /// # Errors
    /// Database errors.
    pub async fn update_from(self, db: &DatabaseConnection, form: &ValidVendor) -> Result<Self> {
        let txn = db.begin().await?;
        let mut active = Self::fields(form);
        active.id = ActiveValue::Unchanged(self.id);
        let vendor = active.update(&txn).await?;
        super::activities::Model::record(
            &txn,
            vendor.organization_id,
            super::activities::VENDOR_UPDATED,
            format!("Vendor {} was updated", vendor.name),
            super::activities::Subject {
                vendor_key: Some(vendor.key.clone()),
                document_pid: None,
            },
        )
        .await?;
        txn.commit().await?;
        Ok(vendor)
    }
}

impl Model {
    /// Deletes the vendor with every document version and reminder, recording it in the
    /// activity log; returns the storage keys of its files, to remove once committed.
    ///
    /// # Errors
    /// Database errors.
    pub async fn delete_with_documents(self, db: &DatabaseConnection) -> Result<Vec<String>> {
        let txn = db.begin().await?;
        let keys: Vec<String> = documents::Entity::find()
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
            .filter(documents::Column::VendorId.eq(self.id))
            .exec(&txn)
            .await?;
        Entity::delete_by_id(self.id).exec(&txn).await?;
        super::activities::Model::record(
            &txn,
            self.organization_id,
            super::activities::VENDOR_DELETED,
            format!("Vendor {} and its documents were deleted", self.name),
            super::activities::Subject {
                vendor_key: Some(self.key.clone()),
                document_pid: None,
            },
        )
        .await?;
        txn.commit().await?;
        Ok(keys)
    }
}
