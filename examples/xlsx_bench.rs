//! The Excel writer alone, on the documents export's shape: 50,000 rows of its ten columns,
//! written by our streamed writer (`models/sheet/xlsx.rs`) and by `rust_xlsxwriter` (the
//! exports' writer before, the tests' reference), in turns, into a sink that counts bytes.
//! Reported in docs/benchmarks/lists.md.
//!
//! ```sh
//! cargo run --release --example xlsx_bench -- [--rows N] [--runs N] [--write FILE]
//! ```
//!
//! `--write FILE` also saves our workbook of those rows, to open in a spreadsheet program.

use std::io::Write;
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate};
use vendorwatch::models::exports::DOCUMENT_COLUMNS;
use vendorwatch::models::sheet::{xlsx::StreamBook, Cell, CHUNK_BYTES};

/// The documents export's columns.
const HEADER: [&str; 10] = DOCUMENT_COLUMNS;

/// Rows like the seeded organization's documents (`list_bench`): 10,000 vendors with 5 each.
fn rows(count: usize) -> Vec<Vec<Cell>> {
    let types = [
        "W-9",
        "Certificate of Insurance (General Liability)",
        "Sales Tax Certificate",
        "Vendor Agreement",
        "Other",
    ];
    let statuses = ["current", "expiring", "expired"];
    let uploaded = DateTime::parse_from_rfc3339("2026-11-01T09:30:00+00:00").unwrap_or_default();
    (0..count)
        .map(|i| {
            let vendor = i / 5;
            let days = i64::try_from(i % 700).unwrap_or_default();
            vec![
                Cell::Text(format!("Vendor {vendor:05} Services LLC")),
                Cell::Text(format!("VW-{:08X}", vendor * 7919)),
                Cell::Text(types[i % types.len()].to_string()),
                Cell::Text(format!("document-{i}.pdf")),
                Cell::Date(
                    NaiveDate::from_ymd_opt(2026, 1, 1)
                        .and_then(|d| d.checked_add_signed(chrono::Duration::days(days))),
                ),
                Cell::Text(statuses[i % statuses.len()].to_string()),
                Cell::Int(1 + i64::try_from(i % 3).unwrap_or_default()),
                Cell::Time(Some(uploaded + chrono::Duration::minutes(days))),
                Cell::Text(if i % 2 == 0 { "upload" } else { "portal" }.to_string()),
                Cell::Text(if i % 4 == 0 {
                    format!("Renewal asked on {days} days' notice")
                } else {
                    String::new()
                }),
            ]
        })
        .collect()
}

/// Counts what is written, and when the first chunk of an export would have left.
struct Sink {
    bytes: usize,
    started: Instant,
    first_chunk: Option<Duration>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len();
        if self.first_chunk.is_none() && self.bytes >= CHUNK_BYTES {
            self.first_chunk = Some(self.started.elapsed());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn ours(rows: &[Vec<Cell>]) -> (Duration, Duration, usize) {
    let mut sink = Sink {
        bytes: 0,
        started: Instant::now(),
        first_chunk: None,
    };
    let first = &rows[..rows.len().min(256)];
    let mut book = StreamBook::new(&mut sink, &HEADER, first).expect("the header");
    for row in rows {
        book.row(row).expect("a row");
    }
    book.finish().expect("the end");
    let whole = sink.started.elapsed();
    (sink.first_chunk.unwrap_or(whole), whole, sink.bytes)
}

fn reference(rows: &[Vec<Cell>]) -> (Duration, Duration, usize) {
    use rust_xlsxwriter::{Format, Workbook};
    let mut sink = Sink {
        bytes: 0,
        started: Instant::now(),
        first_chunk: None,
    };
    let mut workbook = Workbook::new();
    let ws = workbook.add_worksheet();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let time = Format::new().set_num_format("yyyy-mm-dd hh:mm");
    let bold = Format::new().set_bold();
    for (col, title) in (0u16..).zip(HEADER) {
        ws.write_string_with_format(0, col, title, &bold)
            .expect("a title");
    }
    ws.set_freeze_panes(1, 0).expect("the pane");
    for (row, cells) in (1u32..).zip(rows) {
        for (col, cell) in (0u16..).zip(cells) {
            match cell {
                Cell::Text(text) if !text.is_empty() => {
                    ws.write_string(row, col, text).expect("a text");
                }
                #[allow(clippy::cast_precision_loss)]
                Cell::Int(n) => {
                    ws.write_number(row, col, *n as f64).expect("a number");
                }
                Cell::Date(Some(d)) => {
                    ws.write_datetime_with_format(row, col, d, &date)
                        .expect("a date");
                }
                Cell::Time(Some(t)) => {
                    ws.write_datetime_with_format(row, col, t.naive_utc(), &time)
                        .expect("a time");
                }
                _ => {}
            }
        }
    }
    ws.autofit();
    workbook.save_to_writer(&mut sink).expect("the save");
    let whole = sink.started.elapsed();
    (sink.first_chunk.unwrap_or(whole), whole, sink.bytes)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let count: usize = arg("--rows").and_then(|n| n.parse().ok()).unwrap_or(50_000);
    let runs: usize = arg("--runs").and_then(|n| n.parse().ok()).unwrap_or(5);
    let rows = rows(count);
    if let Some(path) = arg("--write") {
        let file = std::fs::File::create(&path).expect("the file");
        let mut book =
            StreamBook::new(file, &HEADER, &rows[..rows.len().min(256)]).expect("header");
        for row in &rows {
            book.row(row).expect("a row");
        }
        book.finish().expect("the end");
        println!("wrote {path}");
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (mut our_first, mut our_whole, mut ref_whole) = (vec![], vec![], vec![]);
    let (mut our_bytes, mut ref_bytes) = (0, 0);
    // In turns, so that drift on the machine touches both alike.
    for _ in 0..runs {
        let (first, whole, bytes) = ours(&rows);
        our_first.push(ms(first));
        our_whole.push(ms(whole));
        our_bytes = bytes;
        let (_, whole, bytes) = reference(&rows);
        ref_whole.push(ms(whole));
        ref_bytes = bytes;
    }
    let (first, whole, reference) = (median(our_first), median(our_whole), median(ref_whole));
    println!("{count} rows, {runs} runs in turns, medians:\n");
    println!("| writer | first {CHUNK_BYTES} bytes ms | whole ms | bytes |");
    println!("| --- | ---: | ---: | ---: |");
    println!("| streamed (ours) | {first:.1} | {whole:.1} | {our_bytes} |");
    println!("| rust_xlsxwriter | {reference:.1} | {reference:.1} | {ref_bytes} |");
    println!(
        "\nwhole: ours {:.2}x rust_xlsxwriter's time; first chunk {:.0}x sooner",
        whole / reference,
        reference / first
    );
}
