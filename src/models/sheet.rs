//! Exports as a table of typed cells, written as CSV or as an Excel workbook (docs/product.md,
//! "Exports"). CSV starts with a byte-order mark, so Excel reads it as UTF-8 ("Café", not
//! `CafÃ©`), and a cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) is
//! written after a `'`, except a phone number or an amount, which no spreadsheet runs. The
//! workbook's text cells are text (post codes and phone numbers keep their digits, nothing is
//! ever a formula), its numbers numbers and its dates dates.

pub mod xlsx;

use chrono::{DateTime, FixedOffset, NaiveDate};
use futures_util::stream::BoxStream;
use loco_rs::prelude::*;

use self::xlsx::StreamBook;

/// One cell of an export.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Int(i64),
    /// A number shown with one decimal (a rate in percent); empty when unknown.
    Decimal(Option<f64>),
    Date(Option<NaiveDate>),
    Time(Option<DateTime<FixedOffset>>),
}

impl From<String> for Cell {
    fn from(value: String) -> Self {
        Self::Text(value)
    }
}

impl From<&str> for Cell {
    fn from(value: &str) -> Self {
        Self::Text(value.to_string())
    }
}

impl From<Option<String>> for Cell {
    fn from(value: Option<String>) -> Self {
        Self::Text(value.unwrap_or_default())
    }
}

impl Cell {
    fn csv(&self) -> String {
        match self {
            Self::Text(text) => safe_cell(text),
            Self::Int(n) => n.to_string(),
            Self::Decimal(n) => n.map(|n| format!("{n:.1}")).unwrap_or_default(),
            Self::Date(d) => d.map(|d| d.to_string()).unwrap_or_default(),
            Self::Time(t) => t.map(|t| t.to_rfc3339()).unwrap_or_default(),
        }
    }
}

/// A table to export: its columns and rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<Cell>>,
}

/// The formats an export is offered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Xlsx,
}

impl ExportFormat {
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
        }
    }

    #[must_use]
    pub const fn content_type(self) -> &'static str {
        match self {
            Self::Csv => "text/csv; charset=utf-8",
            Self::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        }
    }
}

/// A phone number or an amount: digits with spaces, brackets, dots, dashes and slashes, after
/// an optional sign. A spreadsheet shows it or adds it up; it never calls anything.
fn is_plain_number(value: &str) -> bool {
    let rest = value.strip_prefix(['+', '-']).unwrap_or(value);
    rest.chars().any(|c| c.is_ascii_digit())
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '(' | ')' | '.' | '-' | '/'))
}

/// A cell as a spreadsheet will show it, never as a formula.
#[must_use]
pub fn safe_cell(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_plain_number(value) {
        format!("'{value}")
    } else {
        value.to_string()
    }
}

impl Sheet {
    #[must_use]
    pub fn new(header: &[&'static str]) -> Self {
        Self {
            header: header.to_vec(),
            rows: Vec::new(),
        }
    }

    /// A sheet of these rows.
    #[must_use]
    pub fn of(header: &[&'static str], rows: impl IntoIterator<Item = Vec<Cell>>) -> Self {
        Self {
            header: header.to_vec(),
            rows: rows.into_iter().collect(),
        }
    }

    /// CSV in UTF-8 after a byte-order mark, every cell made safe.
    ///
    /// # Errors
    /// When the CSV writer fails (it writes to memory).
    pub fn csv(&self) -> Result<Vec<u8>> {
        let mut csv = CsvChunks::new(&self.header)?;
        for row in &self.rows {
            csv.row(row)?;
        }
        Ok(csv.finish()?.to_vec())
    }

    /// One worksheet: a bold, frozen header row, then each cell as its type ([`StreamBook`]).
    ///
    /// # Errors
    /// A cell the workbook cannot hold (a text longer than [`xlsx::MAX_TEXT_CHARS`]).
    pub fn xlsx(&self) -> std::io::Result<Vec<u8>> {
        let first = &self.rows[..self.rows.len().min(ROW_BATCH)];
        let mut book = StreamBook::new(Vec::new(), &self.header, first)?;
        for row in &self.rows {
            book.row(row)?;
        }
        book.finish()
    }

    /// The workbook of [`Sheet::xlsx`] as chunks, each sent as soon as it is zipped
    /// ([`xlsx_stream`]).
    #[must_use]
    pub fn xlsx_chunks(self) -> BoxStream<'static, std::io::Result<bytes::Bytes>> {
        let rows = self.rows;
        xlsx_stream(&self.header, move |mut sink| async move {
            for row in rows {
                if !sink.row(row).await {
                    break;
                }
            }
            Ok(sink)
        })
    }
}

/// Rows handed to a workbook's writer at a time; the first of them also fit its columns.
const ROW_BATCH: usize = 256;

/// What a workbook's writer is handed.
enum Batch {
    Rows(Vec<Vec<Cell>>),
    /// Every row is sent.
    Done,
    /// The rows stopped with this error: the workbook is abandoned.
    Failed(String),
}

/// Where the rows of an export being sent go ([`stream`]): for a workbook, gathered into
/// batches of [`ROW_BATCH`], each handed to the writer's thread; for CSV, written at once and
/// sent each [`CHUNK_BYTES`].
pub struct RowSink {
    to: Written,
}

enum Written {
    Workbook {
        tx: tokio::sync::mpsc::Sender<Batch>,
        batch: Vec<Vec<Cell>>,
    },
    Csv {
        /// Boxed: a CSV writer's buffers are many times a workbook's sender.
        csv: Box<CsvChunks>,
        tx: tokio::sync::mpsc::Sender<std::io::Result<bytes::Bytes>>,
        /// An error is sent: nothing more is.
        failed: bool,
    },
}

impl RowSink {
    /// Adds a row; `false` once the export has stopped (the client went away, or a cell the
    /// writer refused), when there is no point in reading more.
    pub async fn row(&mut self, row: Vec<Cell>) -> bool {
        match &mut self.to {
            Written::Workbook { tx, batch } => {
                batch.push(row);
                if batch.len() < ROW_BATCH {
                    return true;
                }
                let full = std::mem::replace(batch, Vec::with_capacity(ROW_BATCH));
                tx.send(Batch::Rows(full)).await.is_ok()
            }
            Written::Csv { csv, tx, failed } => {
                if *failed {
                    return false;
                }
                let chunk = csv.row(&row).and_then(|()| csv.take_at(CHUNK_BYTES));
                match chunk {
                    Ok(None) => !tx.is_closed(),
                    Ok(Some(chunk)) => tx.send(Ok(chunk)).await.is_ok(),
                    Err(err) => {
                        *failed = true;
                        let _ = tx.send(Err(std::io::Error::other(err.to_string()))).await;
                        false
                    }
                }
            }
        }
    }

    /// Adds every row of `rows` until they end or the export stops ([`Self::row`]).
    ///
    /// # Errors
    /// The first error among `rows`.
    pub async fn rows(
        &mut self,
        rows: impl futures_util::Stream<Item = Result<Vec<Cell>>>,
    ) -> Result<()> {
        use futures_util::StreamExt;
        let mut rows = std::pin::pin!(rows);
        while let Some(row) = rows.next().await {
            if !self.row(row?).await {
                break;
            }
        }
        Ok(())
    }

    async fn finish(self) {
        match self.to {
            Written::Workbook { tx, batch } => {
                if !batch.is_empty() && tx.send(Batch::Rows(batch)).await.is_err() {
                    return;
                }
                let _ = tx.send(Batch::Done).await;
            }
            Written::Csv { csv, tx, failed } => {
                if !failed {
                    let rest = csv
                        .finish()
                        .map_err(|err| std::io::Error::other(err.to_string()));
                    let _ = tx.send(rest).await;
                }
            }
        }
    }
}

/// An export of `header` and the rows `fill` hands to its [`RowSink`], as CSV or a workbook,
/// sent while it is written: `fill` runs as a task of its own (reading a database's rows as
/// they arrive), and the file goes out in chunks of at most [`CHUNK_BYTES`]
/// (docs/benchmarks/lists.md). The CSV is the same bytes as [`Sheet::csv`] of the same rows, the
/// workbook the same cells as [`Sheet::xlsx`]. A failure once bytes have left (a row that fails
/// to read, a cell the workbook cannot hold) ends the body with an error, which the client sees
/// as a broken download.
pub fn stream<F, Fut>(
    format: ExportFormat,
    header: &[&'static str],
    fill: F,
) -> BoxStream<'static, std::io::Result<bytes::Bytes>>
where
    F: FnOnce(RowSink) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<RowSink>> + Send + 'static,
{
    match format {
        ExportFormat::Csv => csv_stream(header, fill),
        ExportFormat::Xlsx => xlsx_stream(header, fill),
    }
}

/// [`stream`]'s CSV: each [`CHUNK_BYTES`] goes out as it is written, so the first bytes leave
/// at once and the whole file is never held.
fn csv_stream<F, Fut>(
    header: &[&'static str],
    fill: F,
) -> BoxStream<'static, std::io::Result<bytes::Bytes>>
where
    F: FnOnce(RowSink) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<RowSink>> + Send + 'static,
{
    use futures_util::StreamExt;
    let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<bytes::Bytes>>(2);
    let csv = CsvChunks::new(header);
    tokio::spawn(async move {
        let sink = match csv {
            Ok(csv) => RowSink {
                to: Written::Csv {
                    csv: Box::new(csv),
                    tx: tx.clone(),
                    failed: false,
                },
            },
            Err(err) => {
                let _ = tx.send(Err(std::io::Error::other(err.to_string()))).await;
                return;
            }
        };
        match fill(sink).await {
            Ok(sink) => sink.finish().await,
            Err(err) => {
                tracing::error!(error = %err, "the export stopped while it was sent");
                let _ = tx.send(Err(std::io::Error::other(err.to_string()))).await;
            }
        }
    });
    received(rx).boxed()
}

/// [`stream`]'s workbook: written on a blocking thread as the rows come ([`StreamBook`]), each
/// chunk sent as soon as it is zipped.
fn xlsx_stream<F, Fut>(
    header: &[&'static str],
    fill: F,
) -> BoxStream<'static, std::io::Result<bytes::Bytes>>
where
    F: FnOnce(RowSink) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<RowSink>> + Send + 'static,
{
    use futures_util::StreamExt;
    let (rows_tx, rows_rx) = tokio::sync::mpsc::channel::<Batch>(4);
    let (body_tx, body_rx) = tokio::sync::mpsc::channel::<std::io::Result<bytes::Bytes>>(2);
    let failed = rows_tx.clone();
    tokio::spawn(async move {
        let sink = RowSink {
            to: Written::Workbook {
                tx: rows_tx,
                batch: Vec::with_capacity(ROW_BATCH),
            },
        };
        match fill(sink).await {
            Ok(sink) => sink.finish().await,
            Err(err) => {
                let _ = failed.send(Batch::Failed(err.to_string())).await;
            }
        }
    });
    let header = header.to_vec();
    tokio::task::spawn_blocking(move || {
        let mut out = ChunkWriter {
            chunk: Vec::with_capacity(CHUNK_BYTES),
            tx: body_tx,
        };
        // A panic would otherwise end the body cleanly, a truncated file taken for a whole one.
        let written = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            write_book(&header, rows_rx, &mut out)
        }))
        .unwrap_or_else(|_| Err(std::io::Error::other("the workbook's writer panicked")));
        if let Err(err) = written {
            if !out.tx.is_closed() {
                tracing::error!(error = %err, "the workbook stopped while it was sent");
                let _ = out.tx.blocking_send(Err(err));
            }
        }
    });
    received(body_rx).boxed()
}

/// The workbook of the rows received on `rows`, written into `out` as they come, and flushed.
fn write_book(
    header: &[&str],
    mut rows: tokio::sync::mpsc::Receiver<Batch>,
    out: &mut ChunkWriter,
) -> std::io::Result<()> {
    let stopped = |why: String| std::io::Error::other(format!("the rows stopped: {why}"));
    let mut next = || match rows.blocking_recv() {
        Some(Batch::Rows(batch)) => Ok(Some(batch)),
        Some(Batch::Done) => Ok(None),
        Some(Batch::Failed(err)) => Err(stopped(err)),
        None => Err(stopped("their task ended early".to_string())),
    };
    // `None`: every row is sent, and nothing more is to be received.
    let first = next()?;
    let mut book = StreamBook::new(&mut *out, header, first.as_deref().unwrap_or_default())?;
    let mut batch = first;
    while let Some(rows) = batch {
        for row in &rows {
            book.row(row)?;
        }
        batch = next()?;
    }
    std::io::Write::flush(book.finish()?)
}

/// How much of an export (CSV or a workbook) is gathered before it is sent.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// What is sent on `rx`, as a stream that ends when every sender is gone: a body sent while it
/// is written.
pub fn received<T: Send + 'static>(
    rx: tokio::sync::mpsc::Receiver<T>,
) -> impl futures_util::Stream<Item = T> + Send + 'static {
    futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    })
}

/// A workbook's bytes sent on as chunks of [`CHUNK_BYTES`]: its writer runs on a blocking
/// thread, so it waits there while the two chunks in the channel are still unsent. A client
/// that went away is a broken pipe, which stops the writer.
struct ChunkWriter {
    chunk: Vec<u8>,
    tx: tokio::sync::mpsc::Sender<std::io::Result<bytes::Bytes>>,
}

impl ChunkWriter {
    fn send(&mut self) -> std::io::Result<()> {
        let chunk = std::mem::replace(&mut self.chunk, Vec::with_capacity(CHUNK_BYTES));
        self.tx
            .blocking_send(Ok(bytes::Bytes::from(chunk)))
            .map_err(|_| std::io::ErrorKind::BrokenPipe.into())
    }
}

impl std::io::Write for ChunkWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = CHUNK_BYTES - self.chunk.len();
        let taken = buf.len().min(room);
        self.chunk.extend_from_slice(&buf[..taken]);
        if self.chunk.len() == CHUNK_BYTES {
            self.send()?;
        }
        Ok(taken)
    }

    /// Sends what is gathered so far.
    fn flush(&mut self) -> std::io::Result<()> {
        if self.chunk.is_empty() {
            Ok(())
        } else {
            self.send()
        }
    }
}

/// A sheet's CSV written a row at a time and taken in chunks, for an export sent while it is
/// read: the same bytes as [`Sheet::csv`] (the byte-order mark, the header, each row made safe).
pub struct CsvChunks {
    writer: ::csv::Writer<Vec<u8>>,
}

impl CsvChunks {
    /// The byte-order mark and the header row.
    ///
    /// # Errors
    /// When the CSV writer fails (it writes to memory).
    pub fn new(header: &[&str]) -> Result<Self> {
        let mut writer = ::csv::Writer::from_writer(b"\xef\xbb\xbf".to_vec());
        writer
            .write_record(header)
            .map_err(|e| Error::string(&e.to_string()))?;
        Ok(Self { writer })
    }

    /// Writes one row.
    ///
    /// # Errors
    /// When the CSV writer fails (it writes to memory).
    pub fn row(&mut self, cells: &[Cell]) -> Result<()> {
        self.writer
            .write_record(cells.iter().map(Cell::csv))
            .map_err(|e| Error::string(&e.to_string()))
    }

    /// What is written so far, once it holds at least `bytes`; it is then started afresh.
    ///
    /// # Errors
    /// When the CSV writer fails (it writes to memory).
    pub fn take_at(&mut self, bytes: usize) -> Result<Option<bytes::Bytes>> {
        // The writer keeps a buffer of its own: what is flushed is what there is to send.
        self.writer.flush()?;
        if self.writer.get_ref().len() < bytes {
            return Ok(None);
        }
        // A record's bytes do not depend on the records before it: a new writer goes on where
        // this one ends.
        let full = std::mem::replace(&mut self.writer, ::csv::Writer::from_writer(Vec::new()));
        full.into_inner()
            .map(|written| Some(bytes::Bytes::from(written)))
            .map_err(|e| Error::string(&e.to_string()))
    }

    /// The rest of what was written.
    ///
    /// # Errors
    /// When the CSV writer fails (it writes to memory).
    pub fn finish(self) -> Result<bytes::Bytes> {
        self.writer
            .into_inner()
            .map(bytes::Bytes::from)
            .map_err(|e| Error::string(&e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_taken_in_chunks_is_the_same_bytes_as_the_whole_sheet() {
        let sheet = Sheet::of(
            &["Name", "Notes", "Count"],
            (0..50).map(|i| {
                vec![
                    format!("Vendor \"{i}\", Inc.").into(),
                    format!("line one\nline two =SUM({i})").into(),
                    Cell::Int(i),
                ]
            }),
        );
        let whole = sheet.csv().unwrap();
        let mut chunks = CsvChunks::new(&sheet.header).unwrap();
        let mut sent = Vec::new();
        let mut taken = 0;
        for row in &sheet.rows {
            chunks.row(row).unwrap();
            if let Some(chunk) = chunks.take_at(1).unwrap() {
                taken += 1;
                sent.extend_from_slice(&chunk);
            }
        }
        sent.extend_from_slice(&chunks.finish().unwrap());
        assert!(taken > 1, "taken in {taken} chunks");
        assert_eq!(
            String::from_utf8(sent).unwrap(),
            String::from_utf8(whole).unwrap()
        );
    }

    /// Text that deflate cannot shrink much, so a workbook of it takes several chunks.
    fn noise() -> impl FnMut() -> String {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            format!("{seed:x}")
        }
    }

    fn noisy_sheet(rows: i64) -> Sheet {
        let mut text = noise();
        Sheet::of(
            &["Name", "Count", "Date"],
            (0..rows).map(|i| {
                vec![
                    text().into(),
                    Cell::Int(i),
                    Cell::Date(NaiveDate::from_num_days_from_ce_opt(
                        739_000 + i32::try_from(i).unwrap(),
                    )),
                ]
            }),
        )
    }

    #[tokio::test]
    async fn a_workbook_sent_in_chunks_is_the_same_bytes_as_the_whole_one() {
        use futures_util::TryStreamExt;
        let sheet = noisy_sheet(20_000);
        let whole = sheet.xlsx().unwrap();
        let chunks: Vec<bytes::Bytes> = sheet.xlsx_chunks().try_collect().await.unwrap();
        assert!(chunks.len() > 3, "{} chunks", chunks.len());
        let (last, full) = chunks.split_last().unwrap();
        assert!(full.iter().all(|c| c.len() == CHUNK_BYTES));
        assert!(!last.is_empty() && last.len() <= CHUNK_BYTES);
        let sent = chunks.concat();
        assert_eq!(sent.len(), whole.len());
        assert!(sent == whole, "the chunks differ from the whole workbook");
    }

    #[tokio::test]
    async fn a_sheet_without_rows_is_a_workbook_of_its_header() {
        use futures_util::TryStreamExt;
        let sheet = Sheet::new(&["Vendor", "Expires"]);
        let chunks: Vec<bytes::Bytes> = sheet.clone().xlsx_chunks().try_collect().await.unwrap();
        let sent = chunks.concat();
        assert_eq!(sent, sheet.xlsx().unwrap());
        assert_eq!(
            read_cells(sent),
            [[
                calamine::Data::String("Vendor".into()),
                calamine::Data::String("Expires".into())
            ]]
        );
    }

    #[tokio::test]
    async fn a_workbooks_first_chunk_leaves_before_its_last_row_is_read() {
        use futures_util::StreamExt;
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        let mut text = noise();
        let mut body = xlsx_stream(&["Name"], move |mut sink| async move {
            for _ in 0..20_000 {
                sink.row(vec![text().into()]).await;
            }
            // The last row waits until the test has seen a chunk.
            released
                .await
                .map_err(|_| Error::string("never released"))?;
            sink.row(vec!["the last row".into()]).await;
            Ok(sink)
        });
        let first = tokio::time::timeout(std::time::Duration::from_secs(30), body.next())
            .await
            .expect("no chunk while the rows were still being read")
            .unwrap()
            .unwrap();
        assert_eq!(first.len(), CHUNK_BYTES);
        release.send(()).unwrap();
        let mut sent = first.to_vec();
        while let Some(chunk) = body.next().await {
            sent.extend_from_slice(&chunk.unwrap());
        }
        let cells = read_cells(sent);
        assert_eq!(cells.len(), 20_002);
        assert_eq!(
            cells[20_001],
            [calamine::Data::String("the last row".into())]
        );
    }

    #[tokio::test]
    async fn rows_that_stop_or_a_cell_too_long_end_the_workbook_with_an_error() {
        use futures_util::StreamExt;
        async fn sent(body: BoxStream<'static, std::io::Result<bytes::Bytes>>) -> Vec<String> {
            body.map(|chunk| chunk.map_or_else(|e| e.to_string(), |_| "bytes".to_string()))
                .collect()
                .await
        }
        let mut text = noise();
        let body = xlsx_stream(&["Name"], move |mut sink| async move {
            for _ in 0..5_000 {
                sink.row(vec![text().into()]).await;
            }
            Err(Error::string("the database went away"))
        });
        let items = sent(body).await;
        let (last, before) = items.split_last().unwrap();
        assert!(last.contains("the database went away"), "{last}");
        assert!(before.iter().all(|item| item == "bytes"), "{before:?}");
        // A cell longer than Excel's 32,767 characters is refused.
        let body = Sheet::of(&["Name"], [vec![Cell::Text("x".repeat(40_000))]]).xlsx_chunks();
        let items = sent(body).await;
        assert_eq!(items.len(), 1, "{items:?}");
        assert!(items[0].contains("32767 characters"), "{items:?}");
        assert!(Sheet::of(&["Name"], [vec![Cell::Text("x".repeat(32_767))]])
            .xlsx()
            .is_ok());
    }

    /// The CSV of [`stream`]: sent in chunks while the rows are still coming, the same bytes as
    /// the sheet written whole, and a failure after the first bytes ends it with the error.
    #[tokio::test]
    async fn csv_sent_while_its_rows_come_is_the_whole_sheets_csv_or_ends_in_its_error() {
        use futures_util::StreamExt;
        let sheet = noisy_sheet(5_000);
        let rows = sheet.rows.clone();
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        let mut body = stream(
            ExportFormat::Csv,
            &sheet.header,
            move |mut sink| async move {
                let (first, last) = rows.split_at(rows.len() - 1);
                for row in first {
                    sink.row(row.clone()).await;
                }
                // The last row waits until the test has seen a chunk.
                released
                    .await
                    .map_err(|_| Error::string("never released"))?;
                sink.row(last[0].clone()).await;
                Ok(sink)
            },
        );
        let first = tokio::time::timeout(std::time::Duration::from_secs(30), body.next())
            .await
            .expect("no chunk while the rows were still being read")
            .unwrap()
            .unwrap();
        assert!(first.len() >= CHUNK_BYTES, "{}", first.len());
        release.send(()).unwrap();
        let mut sent = first.to_vec();
        while let Some(chunk) = body.next().await {
            sent.extend_from_slice(&chunk.unwrap());
        }
        assert!(
            sent == sheet.csv().unwrap(),
            "the chunks differ from the whole CSV"
        );

        let rows = sheet.rows.clone();
        let body = stream(
            ExportFormat::Csv,
            &sheet.header,
            move |mut sink| async move {
                for row in rows {
                    sink.row(row).await;
                }
                Err(Error::string("the database went away"))
            },
        );
        let items: Vec<String> = body
            .map(|chunk| chunk.map_or_else(|e| e.to_string(), |_| "bytes".to_string()))
            .collect()
            .await;
        let (last, before) = items.split_last().unwrap();
        assert!(last.contains("the database went away"), "{last}");
        assert!(
            !before.is_empty() && before.iter().all(|item| item == "bytes"),
            "{before:?}"
        );
    }

    /// Every cell of a workbook's first sheet, as a spreadsheet program reads it.
    fn read_cells(workbook: Vec<u8>) -> Vec<Vec<calamine::Data>> {
        use calamine::Reader;
        let mut book = calamine::Xlsx::new(std::io::Cursor::new(workbook)).unwrap();
        let range = book.worksheet_range_at(0).unwrap().unwrap();
        range.rows().map(<[calamine::Data]>::to_vec).collect()
    }

    /// The workbook `rust_xlsxwriter` writes of `sheet`, as the exports were written before
    /// they were streamed: the reference for what a cell reads as.
    fn reference_workbook(sheet: &Sheet) -> Vec<u8> {
        use rust_xlsxwriter::{Format, Workbook};
        let mut workbook = Workbook::new();
        let ws = workbook.add_worksheet();
        let bold = Format::new().set_bold();
        let date = Format::new().set_num_format("yyyy-mm-dd");
        let time = Format::new().set_num_format("yyyy-mm-dd hh:mm");
        let decimal = Format::new().set_num_format("0.0");
        for (col, title) in (0u16..).zip(&sheet.header) {
            ws.write_string_with_format(0, col, *title, &bold).unwrap();
        }
        ws.set_freeze_panes(1, 0).unwrap();
        for (row, cells) in (1u32..).zip(&sheet.rows) {
            for (col, cell) in (0u16..).zip(cells) {
                match cell {
                    Cell::Text(text) if text.is_empty() => None,
                    Cell::Text(text) => Some(ws.write_string(row, col, text)),
                    #[allow(clippy::cast_precision_loss)]
                    Cell::Int(n) => Some(ws.write_number(row, col, *n as f64)),
                    Cell::Decimal(Some(n)) => {
                        Some(ws.write_number_with_format(row, col, *n, &decimal))
                    }
                    Cell::Date(Some(d)) => Some(ws.write_datetime_with_format(row, col, d, &date)),
                    Cell::Time(Some(t)) => {
                        Some(ws.write_datetime_with_format(row, col, t.naive_utc(), &time))
                    }
                    Cell::Decimal(None) | Cell::Date(None) | Cell::Time(None) => None,
                }
                .transpose()
                .unwrap();
            }
        }
        ws.autofit();
        workbook.save_to_buffer().unwrap()
    }

    #[test]
    fn every_cell_reads_as_in_the_workbook_rust_xlsxwriter_writes() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap();
        let sheet = Sheet::of(
            &["Name", "Notes", "Count", "Rate", "Expires", "Sent", "Empty"],
            [
                vec![
                    "Acme & Sons <HVAC>".into(),
                    "line one\nline two\r\nand a tab\there".into(),
                    Cell::Int(42),
                    Cell::Decimal(Some(87.5)),
                    Cell::Date(Some(day(2026, 11, 29))),
                    Cell::Time(Some(at("2026-11-29T09:48:24.123+02:00"))),
                    Cell::Text(String::new()),
                ],
                vec![
                    "  leading and trailing spaces  ".into(),
                    "Excel's escapes: _x0041_ and a bell \u{7} and _x12_".into(),
                    Cell::Int(-9_007_199_254_740_993),
                    Cell::Decimal(None),
                    Cell::Date(Some(day(1900, 2, 28))),
                    Cell::Time(None),
                ],
                vec![
                    "Café, 東京, 🚚".into(),
                    "'=HYPERLINK(\"x\")".into(),
                    Cell::Int(0),
                    Cell::Decimal(Some(0.1 + 0.2)),
                    Cell::Date(Some(day(1900, 3, 1))),
                    Cell::Time(Some(at("1999-12-31T23:59:59.999Z"))),
                    "00501".into(),
                ],
                vec![],
                vec![Cell::Date(None), Cell::Text("x".repeat(32_767))],
            ],
        );
        let ours = read_cells(sheet.xlsx().unwrap());
        let reference = read_cells(reference_workbook(&sheet));
        assert_eq!(ours, reference);
        assert_eq!(ours.len(), 6);
        assert_eq!(
            ours[1][0],
            calamine::Data::String("Acme & Sons <HVAC>".into())
        );
        assert!(
            matches!(&ours[1][4], calamine::Data::DateTime(d) if d.is_datetime()),
            "{:?}",
            ours[1][4]
        );
    }

    #[test]
    fn the_columns_fit_the_header_and_the_first_rows() {
        let sheet = Sheet::of(
            &["Name", "A rather long heading"],
            [vec!["Northwind Traders Incorporated".into(), Cell::Int(1)]],
        );
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(sheet.xlsx().unwrap())).unwrap();
        let mut xml = String::new();
        std::io::Read::read_to_string(
            &mut zip.by_name("xl/worksheets/sheet1.xml").unwrap(),
            &mut xml,
        )
        .unwrap();
        assert!(
            xml.contains(r#"<col min="1" max="1" width="31.00" customWidth="1"/>"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<col min="2" max="2" width="24.10" customWidth="1"/>"#),
            "{xml}"
        );
        assert!(xml.contains(r#"state="frozen""#), "{xml}");
    }

    #[test]
    fn cells_that_a_spreadsheet_would_run_are_written_as_text_but_numbers_are_left_alone() {
        assert_eq!(safe_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe_cell("-2+3"), "'-2+3");
        assert_eq!(safe_cell("+cmd"), "'+cmd");
        assert_eq!(safe_cell("+49 30 1234567"), "+49 30 1234567");
        assert_eq!(safe_cell("-2"), "-2");
        assert_eq!(safe_cell("Acme"), "Acme");
        let mut sheet = Sheet::new(&["a", "b"]);
        sheet.rows.push(vec!["=1+1".into(), Cell::Int(2)]);
        let out = String::from_utf8(sheet.csv().unwrap()).unwrap();
        assert_eq!(out, "\u{feff}a,b\n'=1+1,2\n");
    }
}
