//! Exports as a table of typed cells, written as CSV or as an Excel workbook (docs/product.md,
//! "Exports"). CSV starts with a byte-order mark, so Excel reads it as UTF-8 ("Café", not
//! `CafÃ©`), and a cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) is
//! written after a `'`, except a phone number or an amount, which no spreadsheet runs. The
//! workbook's text cells are text (post codes and phone numbers keep their digits, nothing is
//! ever a formula), its numbers numbers and its dates dates.

use chrono::{DateTime, FixedOffset, NaiveDate};
use loco_rs::prelude::*;
use rust_xlsxwriter::{Format, Workbook, XlsxError};

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

    /// One worksheet: a bold, frozen header row, then each cell as its type.
    ///
    /// # Errors
    /// When the workbook writer fails.
    pub fn xlsx(&self) -> Result<Vec<u8>, XlsxError> {
        self.workbook()?.save_to_buffer()
    }

    /// The workbook of [`Sheet::xlsx`] as chunks, each sent as soon as it is zipped: the same
    /// bytes ([`xlsx_chunks`]).
    ///
    /// # Errors
    /// When the workbook cannot be built (a cell the writer refuses).
    pub async fn xlsx_chunks(
        self,
    ) -> Result<impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> + Send + 'static>
    {
        xlsx_chunks(
            &self.header,
            futures_util::stream::iter(self.rows.into_iter().map(Ok)),
        )
        .await
    }

    /// The workbook of [`Sheet::xlsx`], built, not yet written.
    fn workbook(&self) -> Result<Workbook, XlsxError> {
        let mut book = BookWriter::new(&self.header)?;
        for row in &self.rows {
            book.row(row)?;
        }
        Ok(book.finish())
    }
}

/// [`Sheet::xlsx`]'s workbook of `header` and the rows `rows` yields, as chunks of at most
/// [`CHUNK_BYTES`]. The rows are written into the workbook on a blocking thread while
/// they are still being read (a database's rows as they arrive), then the workbook goes out as
/// it is zipped (docs/benchmarks/lists.md). A failure before that (a row that fails to read, a
/// cell the writer refuses) is this call's error; a failure after it ends the stream with an
/// error, which the client sees as a broken download.
///
/// # Errors
/// The first row that fails, or the writer's refusal.
pub async fn xlsx_chunks<S>(
    header: &[&'static str],
    rows: S,
) -> Result<futures_util::stream::BoxStream<'static, std::io::Result<bytes::Bytes>>>
where
    S: futures_util::Stream<Item = Result<Vec<Cell>>> + Send,
{
    use futures_util::StreamExt;
    /// Rows handed to the writer's thread at a time.
    const BATCH: usize = 256;
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<Vec<Cell>>>(4);
    let header = header.to_vec();
    let writer = tokio::task::spawn_blocking(move || {
        let mut book = BookWriter::new(&header)?;
        while let Some(batch) = rx.blocking_recv() {
            for row in &batch {
                book.row(row)?;
            }
        }
        Ok::<_, XlsxError>(book.finish())
    });
    let reading = async {
        let mut rows = std::pin::pin!(rows.chunks(BATCH));
        while let Some(batch) = rows.next().await {
            let batch = batch.into_iter().collect::<Result<Vec<_>>>()?;
            if tx.send(batch).await.is_err() {
                // The writer stopped: its error is the one to report.
                break;
            }
        }
        Ok::<_, Error>(())
    };
    let read = reading.await;
    drop(tx);
    let written = writer.await.map_err(|e| Error::string(&e.to_string()))?;
    read?;
    let workbook = written.map_err(|e| Error::string(&e.to_string()))?;
    Ok(send_workbook(workbook).boxed())
}

/// [`Sheet::xlsx`]'s one worksheet written a row at a time: a bold, frozen header row, then
/// each cell as its type; the columns fitted to their contents at the end.
struct BookWriter {
    workbook: Workbook,
    date: Format,
    time: Format,
    decimal: Format,
    next_row: u32,
}

impl BookWriter {
    fn new(header: &[&str]) -> Result<Self, XlsxError> {
        let mut workbook = Workbook::new();
        let sheet = workbook.add_worksheet();
        let bold = Format::new().set_bold();
        for (col, title) in (0u16..).zip(header) {
            sheet.write_string_with_format(0, col, *title, &bold)?;
        }
        sheet.set_freeze_panes(1, 0)?;
        Ok(Self {
            workbook,
            date: Format::new().set_num_format("yyyy-mm-dd"),
            time: Format::new().set_num_format("yyyy-mm-dd hh:mm"),
            decimal: Format::new().set_num_format("0.0"),
            next_row: 1,
        })
    }

    fn row(&mut self, cells: &[Cell]) -> Result<(), XlsxError> {
        let row = self.next_row;
        let sheet = self.workbook.worksheet_from_index(0)?;
        for (col, cell) in (0u16..).zip(cells) {
            match cell {
                Cell::Text(text) if text.is_empty() => {}
                Cell::Text(text) => {
                    sheet.write_string(row, col, text)?;
                }
                #[allow(clippy::cast_precision_loss)]
                Cell::Int(n) => {
                    sheet.write_number(row, col, *n as f64)?;
                }
                Cell::Decimal(Some(n)) => {
                    sheet.write_number_with_format(row, col, *n, &self.decimal)?;
                }
                Cell::Date(Some(d)) => {
                    sheet.write_datetime_with_format(row, col, d, &self.date)?;
                }
                Cell::Time(Some(t)) => {
                    sheet.write_datetime_with_format(row, col, t.naive_utc(), &self.time)?;
                }
                Cell::Decimal(None) | Cell::Date(None) | Cell::Time(None) => {}
            }
        }
        self.next_row += 1;
        Ok(())
    }

    fn finish(mut self) -> Workbook {
        if let Ok(sheet) = self.workbook.worksheet_from_index(0) {
            sheet.autofit();
        }
        self.workbook
    }
}

/// `workbook` written on a blocking thread, as chunks of [`CHUNK_BYTES`] (the last one
/// shorter).
fn send_workbook(
    mut workbook: Workbook,
) -> impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> + Send + 'static {
    let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<bytes::Bytes>>(2);
    tokio::task::spawn_blocking(move || {
        let mut out = ChunkWriter {
            chunk: Vec::with_capacity(CHUNK_BYTES),
            tx,
        };
        let written = workbook
            .save_to_writer(&mut out)
            .and_then(|()| std::io::Write::flush(&mut out).map_err(XlsxError::from));
        if let Err(err) = written {
            if !out.tx.is_closed() {
                tracing::error!(error = %err, "the workbook stopped while it was sent");
                let _ = out
                    .tx
                    .blocking_send(Err(std::io::Error::other(err.to_string())));
            }
        }
    });
    received(rx)
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

    #[tokio::test]
    async fn a_workbook_sent_in_chunks_is_the_same_bytes_as_the_whole_one() {
        use futures_util::TryStreamExt;
        // Text that deflate cannot shrink much, so the workbook takes several chunks.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut text = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            format!("{seed:x}")
        };
        let sheet = Sheet::of(
            &["Name", "Count", "Date"],
            (0..20_000).map(|i| {
                vec![
                    text().into(),
                    Cell::Int(i),
                    Cell::Date(NaiveDate::from_num_days_from_ce_opt(
                        739_000 + i32::try_from(i).unwrap(),
                    )),
                ]
            }),
        );
        // One workbook saved twice: the same creation time in both.
        let mut workbook = sheet.workbook().unwrap();
        let whole = workbook.save_to_buffer().unwrap();
        let chunks: Vec<bytes::Bytes> = send_workbook(workbook).try_collect().await.unwrap();
        assert!(chunks.len() > 3, "{} chunks", chunks.len());
        let (last, full) = chunks.split_last().unwrap();
        assert!(full.iter().all(|c| c.len() == CHUNK_BYTES));
        assert!(!last.is_empty() && last.len() <= CHUNK_BYTES);
        let sent = chunks.concat();
        assert_eq!(sent.len(), whole.len());
        assert!(sent == whole, "the chunks differ from the whole workbook");
    }

    #[tokio::test]
    async fn a_row_that_fails_to_read_is_the_workbooks_error_before_any_byte() {
        let rows = futures_util::stream::iter(vec![
            Ok(vec![Cell::from("Acme")]),
            Err(Error::string("the database went away")),
            Ok(vec![Cell::from("Never")]),
        ]);
        let Err(err) = xlsx_chunks(&["Name"], rows).await else {
            panic!("a workbook without its rows");
        };
        assert!(err.to_string().contains("the database went away"), "{err}");
        // A cell the writer refuses (longer than Excel's 32,767 characters) is one too.
        let rows = futures_util::stream::iter(vec![Ok(vec![Cell::Text("x".repeat(40_000))])]);
        assert!(xlsx_chunks(&["Name"], rows).await.is_err());
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
