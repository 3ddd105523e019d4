//! The vendors and documents exports as sheets (docs/product.md, "Exports"), written as CSV or
//! as an Excel workbook by [`super::sheet`].

use bytes::Bytes;
use chrono::NaiveDate;
use sea_orm::DatabaseConnection;

use super::{
    compliance, documents,
    sheet::{self, Cell, CsvChunks, Sheet},
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

/// The documents export's columns.
pub const DOCUMENT_COLUMNS: [&str; 10] = [
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
];

/// One row of the documents export.
fn document_row(d: &documents::Model, v: &vendors::Model, today: NaiveDate) -> Vec<Cell> {
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
}

/// The documents export: the current documents with their vendors.
#[must_use]
pub fn documents_sheet(rows: &[(documents::Model, vendors::Model)], today: NaiveDate) -> Sheet {
    Sheet::of(
        &DOCUMENT_COLUMNS,
        rows.iter().map(|(d, v)| document_row(d, v, today)),
    )
}

/// The documents export's rows as they are read: one statement streams the organization's
/// current documents with their vendors, newest first (as the document list). The rows of
/// [`documents_sheet`], never all held at once.
async fn document_rows(
    db: &DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
) -> loco_rs::Result<impl futures_util::Stream<Item = loco_rs::Result<Vec<Cell>>> + Send + '_> {
    use futures_util::StreamExt;
    let query = documents::DocumentQuery::default();
    Ok(documents::Model::current_in_order(org_id, &query, today)
        .find_also_related(vendors::Entity)
        .stream(db)
        .await?
        .filter_map(move |row| async move {
            match row {
                Ok((document, Some(vendor))) => Some(Ok(document_row(&document, &vendor, today))),
                Ok((_, None)) => None,
                Err(err) => Some(Err(err.into())),
            }
        }))
}

/// The documents export as a workbook, written while its rows are read ([`document_rows`])
/// and sent as it is zipped ([`sheet::xlsx_stream`]). A failure once bytes have left ends the
/// body with an error, which the client sees as a broken download.
#[must_use]
pub fn documents_xlsx(
    db: DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
) -> futures_util::stream::BoxStream<'static, std::io::Result<Bytes>> {
    sheet::xlsx_stream(&DOCUMENT_COLUMNS, move |mut sink| async move {
        use futures_util::StreamExt;
        let mut rows = std::pin::pin!(document_rows(&db, org_id, today).await?);
        while let Some(row) = rows.next().await {
            if !sink.row(row?).await {
                // The writer stopped: the client went away, or a cell it refused.
                break;
            }
        }
        Ok(sink)
    })
}

/// The documents export as CSV, sent while the documents are read ([`document_rows`]): each
/// [`sheet::CHUNK_BYTES`] of CSV goes out as it is written, so the first bytes leave at once
/// and the whole file is never held (docs/benchmarks/lists.md). The same bytes as
/// [`documents_sheet`]'s CSV. A failure once bytes have left ends the body with an error, which
/// the client sees as a broken download.
pub fn documents_csv(
    db: DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
) -> impl futures_util::Stream<Item = std::io::Result<Bytes>> + Send + 'static {
    let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(2);
    tokio::spawn(async move {
        if let Err(err) = send_documents_csv(&db, org_id, today, &tx).await {
            tracing::error!(error = %err, org_id, "the documents export stopped");
            let _ = tx.send(Err(std::io::Error::other(err.to_string()))).await;
        }
    });
    sheet::received(rx)
}

async fn send_documents_csv(
    db: &DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
    tx: &tokio::sync::mpsc::Sender<std::io::Result<Bytes>>,
) -> loco_rs::Result<()> {
    use futures_util::StreamExt;
    let mut rows = std::pin::pin!(document_rows(db, org_id, today).await?);
    let mut csv = CsvChunks::new(&DOCUMENT_COLUMNS)?;
    while let Some(row) = rows.next().await {
        csv.row(&row?)?;
        if let Some(chunk) = csv.take_at(sheet::CHUNK_BYTES)? {
            if tx.send(Ok(chunk)).await.is_err() {
                // The client went away.
                return Ok(());
            }
        }
    }
    let _ = tx.send(Ok(csv.finish()?)).await;
    Ok(())
}
