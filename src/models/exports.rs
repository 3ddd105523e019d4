//! The vendors and documents exports and the non-compliant, expirations and responsiveness
//! reports as sheets (docs/product.md, "Exports"), written as CSV or as an Excel workbook by
//! [`super::sheet`] while they are read, and the reports' JSON sent the same way.

use bytes::Bytes;
use chrono::NaiveDate;
use futures_util::stream::BoxStream;
use sea_orm::DatabaseConnection;

use super::{
    compliance, documents,
    reports::{
        ExpirationsReport, NonCompliantReport, NonCompliantVendor, Responsiveness,
        ResponsivenessReport, EXPIRATION_COLUMNS,
    },
    sheet::{self, Cell, ExportFormat, Sheet},
    vendors::{self, VendorStanding},
};

/// The vendors export's columns: the columns an import reads back.
pub const VENDOR_COLUMNS: [&str; 12] = [
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
];

/// One row of the vendors export.
fn vendor_row(s: &VendorStanding) -> Vec<Cell> {
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
}

/// The vendors export built whole from the listed vendors ([`vendors_export`] sends the same
/// while it reads them).
#[must_use]
pub fn vendors_sheet(standings: &[VendorStanding]) -> Sheet {
    Sheet::of(&VENDOR_COLUMNS, standings.iter().map(vendor_row))
}

/// The vendors export as CSV or a workbook, sent while one statement streams the
/// organization's vendors in the vendor list's order ([`vendors::Model::list_streamed`]).
#[must_use]
pub fn vendors_export(
    db: DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
    format: ExportFormat,
) -> BoxStream<'static, std::io::Result<Bytes>> {
    sheet::stream(format, &VENDOR_COLUMNS, move |mut sink| async move {
        use futures_util::StreamExt;
        let query = vendors::VendorQuery::default();
        let rows = vendors::Model::list_streamed(&db, org_id, &query, today).await?;
        sink.rows(rows.map(|row| row.map(|s| vendor_row(&s))))
            .await?;
        Ok(sink)
    })
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

/// The documents export as CSV or a workbook, sent while its rows are read
/// ([`document_rows`]; [`sheet::stream`]): the same bytes (CSV) and cells (workbook) as
/// [`documents_sheet`]'s.
#[must_use]
pub fn documents_export(
    db: DatabaseConnection,
    org_id: i64,
    today: NaiveDate,
    format: ExportFormat,
) -> BoxStream<'static, std::io::Result<Bytes>> {
    sheet::stream(format, &DOCUMENT_COLUMNS, move |mut sink| async move {
        sink.rows(document_rows(&db, org_id, today).await?).await?;
        Ok(sink)
    })
}

/// The non-compliant report's columns.
pub const NON_COMPLIANT_COLUMNS: [&str; 7] = [
    "Vendor",
    "Company Key",
    "Service Type",
    "Status",
    "Reasons",
    "Gaps",
    "Waived Gaps",
];

/// One row of the non-compliant report as a sheet.
#[must_use]
pub fn non_compliant_row(v: &NonCompliantVendor) -> Vec<Cell> {
    vec![
        v.name.clone().into(),
        v.id.clone().into(),
        v.service_type.clone().into(),
        v.status.as_str().into(),
        v.reasons.join("; ").into(),
        v.gaps.join(" ").into(),
        v.waived.join(" ").into(),
    ]
}

/// The non-compliant report as CSV or a workbook, sent while it is worked out
/// ([`NonCompliantReport::rows`]).
#[must_use]
pub fn non_compliant_export(
    report: NonCompliantReport,
    format: ExportFormat,
) -> BoxStream<'static, std::io::Result<Bytes>> {
    sheet::stream(format, &NON_COMPLIANT_COLUMNS, move |mut sink| async move {
        use futures_util::TryStreamExt;
        sink.rows(report.rows().map_ok(|v| non_compliant_row(&v)))
            .await?;
        Ok(sink)
    })
}

/// The expirations report as CSV or a workbook, sent a week at a time as the weeks are read
/// ([`ExpirationsReport::weeks`]).
#[must_use]
pub fn expirations_export(
    report: ExpirationsReport,
    format: ExportFormat,
) -> BoxStream<'static, std::io::Result<Bytes>> {
    sheet::stream(format, &EXPIRATION_COLUMNS, move |mut sink| async move {
        use futures_util::{StreamExt, TryStreamExt};
        let rows = report
            .weeks()
            .map_ok(|week| futures_util::stream::iter(week.rows().into_iter().map(Ok)))
            .try_flatten();
        sink.rows(rows.boxed()).await?;
        Ok(sink)
    })
}

/// The responsiveness report's columns.
pub const RESPONSIVENESS_COLUMNS: [&str; 6] = [
    "Vendor",
    "Company Key",
    "Requested",
    "Requested At",
    "Uploaded At",
    "Days To Upload",
];

/// One row of the responsiveness report as a sheet.
#[must_use]
pub fn responsiveness_row(r: &Responsiveness) -> Vec<Cell> {
    vec![
        r.vendor_name.clone().into(),
        r.vendor_id.clone().into(),
        r.document_label.clone().into(),
        Cell::Time(Some(r.requested_at)),
        Cell::Time(r.uploaded_at),
        r.days_to_upload
            .map_or(Cell::Text(String::new()), Cell::Int),
    ]
}

/// The responsiveness report as CSV or a workbook, sent while it is worked out
/// ([`ResponsivenessReport::rows`]).
#[must_use]
pub fn responsiveness_export(
    report: ResponsivenessReport,
    format: ExportFormat,
) -> BoxStream<'static, std::io::Result<Bytes>> {
    sheet::stream(
        format,
        &RESPONSIVENESS_COLUMNS,
        move |mut sink| async move {
            use futures_util::TryStreamExt;
            sink.rows(report.rows().map_ok(|r| responsiveness_row(&r)))
                .await?;
            Ok(sink)
        },
    )
}

/// `rows` as a JSON array, sent each [`sheet::CHUNK_BYTES`] while they come: the same bytes as
/// the array serialized whole (`serde_json`'s compact form). An error once bytes have left ends
/// the body with it, which the client sees as a broken answer.
pub fn json_array<T, S>(rows: S) -> BoxStream<'static, std::io::Result<Bytes>>
where
    T: serde::Serialize + Send + 'static,
    S: futures_util::Stream<Item = loco_rs::Result<T>> + Send + 'static,
{
    json_array_in("", rows, "")
}

/// [`json_array`] between `before` and `after`: `{"weeks":` and `}` send an object whose one
/// field is the array, as `serde_json` writes it.
pub fn json_array_in<T, S>(
    before: &'static str,
    rows: S,
    after: &'static str,
) -> BoxStream<'static, std::io::Result<Bytes>>
where
    T: serde::Serialize + Send + 'static,
    S: futures_util::Stream<Item = loco_rs::Result<T>> + Send + 'static,
{
    use futures_util::StreamExt;
    let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(2);
    tokio::spawn(async move {
        let mut rows = std::pin::pin!(rows);
        let mut chunk = Vec::with_capacity(sheet::CHUNK_BYTES);
        chunk.extend_from_slice(before.as_bytes());
        chunk.push(b'[');
        let mut first = true;
        while let Some(row) = rows.next().await {
            let written = row.and_then(|row| {
                if !first {
                    chunk.push(b',');
                }
                first = false;
                serde_json::to_writer(&mut chunk, &row).map_err(Into::into)
            });
            if let Err(err) = written {
                tracing::error!(error = %err, "the answer stopped while it was sent");
                let _ = tx.send(Err(std::io::Error::other(err.to_string()))).await;
                return;
            }
            if chunk.len() >= sheet::CHUNK_BYTES {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(sheet::CHUNK_BYTES));
                if tx.send(Ok(Bytes::from(full))).await.is_err() {
                    // The client went away.
                    return;
                }
            }
        }
        chunk.push(b']');
        chunk.extend_from_slice(after.as_bytes());
        let _ = tx.send(Ok(Bytes::from(chunk))).await;
    });
    sheet::received(rx).boxed()
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;

    use super::*;

    async fn sent(body: BoxStream<'static, std::io::Result<Bytes>>) -> Vec<Result<Bytes, String>> {
        body.map(|chunk| chunk.map_err(|e| e.to_string()))
            .collect()
            .await
    }

    /// A JSON array sent while its rows come: the bytes `serde_json` writes of the whole array
    /// (empty, one row, rows enough for several chunks), and a failing row ends it with its
    /// error after what was sent.
    #[tokio::test]
    async fn a_json_array_sent_in_chunks_is_the_whole_array_or_ends_in_its_error() {
        for n in [0, 1, 20_000] {
            let rows: Vec<serde_json::Value> = (0..n)
                .map(|i| serde_json::json!({"name": format!("Vendor \"{i}\" é"), "n": i}))
                .collect();
            let whole = serde_json::to_vec(&rows).unwrap();
            let chunks = sent(json_array(futures_util::stream::iter(
                rows.into_iter().map(Ok),
            )))
            .await;
            assert!(n < 20_000 || chunks.len() > 3, "{} chunks", chunks.len());
            let bytes: Vec<u8> = chunks
                .into_iter()
                .flat_map(|c| c.unwrap().to_vec())
                .collect();
            assert!(
                bytes == whole,
                "{n} rows: the chunks differ from the whole array"
            );
        }
        let rows = (0..20_000)
            .map(|i| Ok(serde_json::json!({"n": i})))
            .chain([Err(loco_rs::Error::string("the database went away"))]);
        let chunks = sent(json_array(futures_util::stream::iter(rows))).await;
        let (last, before) = chunks.split_last().unwrap();
        assert!(
            last.as_ref()
                .is_err_and(|e| e.contains("the database went away")),
            "{last:?}"
        );
        assert!(!before.is_empty() && before.iter().all(Result::is_ok));
    }
}
