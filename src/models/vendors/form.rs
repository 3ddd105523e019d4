//! The vendor forms, parsed: what a client sends becomes a [`ValidVendor`] or a refusal
//! naming each field.

use loco_rs::Result;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::models::{
    compliance::{CompanyKey, Slot},
    email::EmailAddress,
    refusal::{FieldErrors, Refusal},
};

/// Every service type a form offers (docs/decisions.md: the union of the two lists the product
/// description gives).
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

/// The fields of the vendor forms: what `PUT /api/vendors/{id}` sends.
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
    /// The requirement set the vendor must meet (`GET /api/requirement-sets`): an id, or null
    /// for none; absent keeps what the vendor had (none on create).
    #[serde(deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, nullable)]
    pub requirement_set_id: Option<Option<String>>,
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
    /// The requirement set the vendor must meet (`GET /api/requirement-sets`): an id, or null
    /// for none; absent keeps what the vendor had (none on create).
    #[serde(deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, nullable)]
    pub requirement_set_id: Option<Option<String>>,
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

/// The form, checked: every field trimmed, every rule applied, or a refusal naming each field.
#[derive(Debug, Clone)]
pub struct ValidVendor {
    pub name: String,
    pub email: EmailAddress,
    pub service_type: String,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub notes: Option<String>,
    pub company_key: Option<CompanyKey>,
    /// `None` keeps what the vendor had (or the default on create).
    pub required_documents: Option<Vec<Slot>>,
    /// The requirement set's public id as sent: `None` keeps what the vendor had (none on
    /// create), `Some(None)` means none. Resolved in the organization when saved.
    pub requirement_set_id: Option<Option<String>>,
}

/// A field that may be absent (`None`), null (`Some(None)`) or a value.
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

impl VendorParams {
    /// # Errors
    /// `Invalid`, naming each invalid field.
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
            requirement_set_id,
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
            requirement_set_id,
            company_key: None,
        }
        .validate_with_key(company_key.as_ref())
    }
}

impl VendorFields {
    /// The fields of an edit, where the company key never changes.
    ///
    /// # Errors
    /// `Invalid`, naming each invalid field.
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
        let email = EmailAddress::parse(&self.email);
        if self.email.trim().is_empty() {
            push("email", "Contact email is required");
        } else if email.is_none() {
            push("email", "Invalid email address");
        }
        let service_type = self.service_type.trim().to_string();
        if service_type.is_empty() {
            push("serviceType", "Service type is required");
        } else if !SERVICE_TYPES.contains(&service_type.as_str()) {
            push("serviceType", "Choose a service type from the list");
        }
        let company_key = match company_key.map(|k| k.trim()).filter(|k| !k.is_empty()) {
            None => None,
            Some(raw) => {
                let key = CompanyKey::parse(raw);
                if key.is_none() {
                    push("companyKey", "The company key must be 8 letters or digits");
                }
                key
            }
        };
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
        let Some(email) = email.filter(|_| errs.is_empty()) else {
            return Err(Refusal::Invalid(errs).into());
        };
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
            requirement_set_id: self.requirement_set_id.clone(),
        })
    }
}
