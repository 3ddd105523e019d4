//! The compliance rules, free of HTTP and storage, one topic per file: document and vendor
//! status, what a document is (types, COI types, the seven slots, labels), COI notes,
//! company keys and reminder dates. docs/product.md states each rule in words.

mod company_key;
mod kinds;
mod notes;
mod reminder_dates;
pub mod sql;
mod status;

pub use company_key::CompanyKey;
pub use kinds::{slot_statuses, stored_label, stored_label_sql, CoiType, DocumentType, Slot};
pub use notes::{coi_type_in_notes, compose_notes, user_notes};
pub use reminder_dates::reminder_dates;
pub use status::{display_date, document_status, vendor_status, Status, EXPIRING_SOON_DAYS};
