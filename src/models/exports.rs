//! The vendors and documents exports as sheets (docs/product.md, "Exports"), written as CSV or
//! as an Excel workbook by [`super::sheet`].

use super::{
    compliance, documents,
    sheet::{Cell, Sheet},
    vendors::{self, VendorStanding},
};

/// The vendors export: the columns an import reads back.
#[must_use]
pub fn vendors_sheet(standings: &[VendorStanding]) -> Sheet {
    let mut sheet = Sheet::new(&[
        "Name",
        "Email",
        "Service Type",
        "Phone",
        "Address",
        "City",
        "State",
        "Zip Code",
        "Notes",
        "Status",
        "Documents",
        "Company Key",
    ]);
    sheet.rows = standings
        .iter()
        .map(|s| {
            let v = &s.vendor;
            vec![
                v.name.clone().into(),
                v.email.clone().into(),
                v.service_type.clone().into(),
                v.phone.clone().into(),
                v.address.clone().into(),
                v.city.clone().into(),
                v.state.clone().into(),
                v.zip_code.clone().into(),
                v.notes.clone().into(),
                s.status.as_str().into(),
                Cell::Int(i64::try_from(s.document_count).unwrap_or(i64::MAX)),
                v.key.clone().into(),
            ]
        })
        .collect();
    sheet
}

/// The documents export: the current documents with their vendors.
#[must_use]
pub fn documents_sheet(
    rows: &[(documents::Model, vendors::Model)],
    today: chrono::NaiveDate,
) -> Sheet {
    let mut sheet = Sheet::new(&[
        "Vendor",
        "Company Key",
        "Document",
        "File Name",
        "Expiration Date",
        "Status",
        "Version",
        "Uploaded At",
        "Source",
        "Notes",
    ]);
    sheet.rows = rows
        .iter()
        .map(|(d, v)| {
            vec![
                v.name.clone().into(),
                v.key.clone().into(),
                d.label().into(),
                d.file_name.clone().into(),
                Cell::Date(d.expiration_date),
                d.status(today).as_str().into(),
                Cell::Int(i64::from(d.version)),
                Cell::Time(Some(d.created_at)),
                d.source.clone().into(),
                compliance::user_notes(d.notes.as_deref()).into(),
            ]
        })
        .collect();
    sheet
}
