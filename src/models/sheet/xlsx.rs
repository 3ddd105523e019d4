//! A workbook of one worksheet written as its rows come: each row's XML is deflated into the
//! zip as it is written, so an export's first bytes leave before its last row is read
//! (docs/benchmarks/lists.md, "fourth pass"). The package holds the parts a spreadsheet
//! program needs (ECMA-376 part 1, `SpreadsheetML`): content types, relationships,
//! the workbook, its styles and the sheet. Text is written inline in its cell (`inlineStr`),
//! as Excel's own streaming writers do, so no table of every string is held; the zip is
//! written without seeking back (sizes after each part, in a data descriptor).
//!
//! The columns are fitted to the header and the first rows: their widths come before the
//! first row in the XML, and the rows after are not known yet.

use std::io::Write;

use chrono::{NaiveDate, NaiveDateTime};
use zip::write::{SimpleFileOptions, StreamWriter};
use zip::{CompressionMethod, ZipWriter};

use super::Cell;

/// The most characters Excel keeps in a cell.
pub const MAX_TEXT_CHARS: usize = 32_767;
/// The most rows a worksheet has.
const MAX_ROWS: u32 = 1_048_576;
/// The widest column Excel allows, in characters.
const MAX_WIDTH: f64 = 255.0;
/// How much of the sheet's XML is gathered before it is deflated.
const BUFFER_BYTES: usize = 32 * 1024;

/// The styles' cell formats, by their place in `cellXfs` ([`STYLES`]).
const BOLD: u8 = 1;
const DATE: u8 = 2;
const TIME: u8 = 3;
const DECIMAL: u8 = 4;

const CONTENT_TYPES: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
    "\n",
    r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#,
    r#"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#,
    r#"<Default Extension="xml" ContentType="application/xml"/>"#,
    r#"<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#,
    r#"<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#,
    r#"<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#,
    "</Types>"
);

const PACKAGE_RELS: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
    "\n",
    r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    r#"<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>"#,
    "</Relationships>"
);

const WORKBOOK: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
    "\n",
    r#"<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#,
    r#"<bookViews><workbookView/></bookViews>"#,
    r#"<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>"#,
    "</workbook>"
);

const WORKBOOK_RELS: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
    "\n",
    r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    r#"<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>"#,
    r#"<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>"#,
    "</Relationships>"
);

/// Calibri 11 and its bold; the two fills every workbook starts with; the cell formats
/// default, [`BOLD`], [`DATE`], [`TIME`] and [`DECIMAL`], in that order.
const STYLES: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
    "\n",
    r#"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#,
    r#"<numFmts count="3">"#,
    r#"<numFmt numFmtId="164" formatCode="yyyy\-mm\-dd"/>"#,
    r#"<numFmt numFmtId="165" formatCode="yyyy\-mm\-dd\ hh:mm"/>"#,
    r#"<numFmt numFmtId="166" formatCode="0.0"/>"#,
    "</numFmts>",
    r#"<fonts count="2">"#,
    r#"<font><sz val="11"/><color rgb="FF000000"/><name val="Calibri"/><family val="2"/></font>"#,
    r#"<font><b/><sz val="11"/><color rgb="FF000000"/><name val="Calibri"/><family val="2"/></font>"#,
    "</fonts>",
    r#"<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>"#,
    r#"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#,
    r#"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#,
    r#"<cellXfs count="5">"#,
    r#"<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#,
    r#"<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>"#,
    r#"<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#,
    r#"<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#,
    r#"<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#,
    "</cellXfs>",
    r#"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#,
    "</styleSheet>"
);

/// The sheet's start: the header row frozen above the rest.
const SHEET_START: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
    "\n",
    r#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#,
    r#"<sheetViews><sheetView tabSelected="1" workbookViewId="0">"#,
    r#"<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>"#,
    r#"<selection pane="bottomLeft"/>"#,
    "</sheetView></sheetViews>",
    r#"<sheetFormatPr defaultRowHeight="15"/>"#,
);

const SHEET_END: &str = concat!(
    "</sheetData>",
    r#"<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>"#,
    "</worksheet>"
);

/// One worksheet written row by row into `W`: a bold, frozen header row, then each cell as its
/// type (text as text, numbers as numbers, dates as dates).
pub struct StreamBook<W: Write> {
    zip: ZipWriter<StreamWriter<W>>,
    xml: String,
    next_row: u32,
}

impl<W: Write> StreamBook<W> {
    /// Writes every part before the sheet, and the sheet up to its header row, its columns as
    /// wide as the widest of `header` and the cells of `first` (the rows about to be written).
    ///
    /// # Errors
    /// When `out` fails.
    pub fn new(out: W, header: &[&str], first: &[Vec<Cell>]) -> std::io::Result<Self> {
        let mut zip = ZipWriter::new_stream(out);
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        for (name, part) in [
            ("[Content_Types].xml", CONTENT_TYPES),
            ("_rels/.rels", PACKAGE_RELS),
            ("xl/workbook.xml", WORKBOOK),
            ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
            ("xl/styles.xml", STYLES),
        ] {
            zip.start_file(name, options)?;
            zip.write_all(part.as_bytes())?;
        }
        zip.start_file("xl/worksheets/sheet1.xml", options)?;
        let mut xml = String::with_capacity(BUFFER_BYTES * 2);
        xml.push_str(SHEET_START);
        push_columns(&mut xml, header, first);
        xml.push_str(r#"<sheetData><row r="1">"#);
        for (col, title) in header.iter().enumerate() {
            push_text_cell(&mut xml, col, 1, title, Some(BOLD));
        }
        xml.push_str("</row>");
        Ok(Self {
            zip,
            xml,
            next_row: 2,
        })
    }

    /// Writes one row below the last.
    ///
    /// # Errors
    /// A text longer than Excel keeps ([`MAX_TEXT_CHARS`]), a row past the sheet's last, or
    /// `out` failing. What was written stays written: the workbook is then to be abandoned.
    pub fn row(&mut self, cells: &[Cell]) -> std::io::Result<()> {
        use std::fmt::Write as _;
        let row = self.next_row;
        if row > MAX_ROWS {
            return Err(refused(&format!("more than {MAX_ROWS} rows")));
        }
        let _ = write!(self.xml, r#"<row r="{row}">"#);
        for (col, cell) in cells.iter().enumerate() {
            match cell {
                Cell::Text(text) if text.is_empty() => {}
                Cell::Text(text) => {
                    if text.chars().count() > MAX_TEXT_CHARS {
                        return Err(refused(&format!(
                            "a text of more than {MAX_TEXT_CHARS} characters in row {row}"
                        )));
                    }
                    push_text_cell(&mut self.xml, col, row, text, None);
                }
                #[allow(clippy::cast_precision_loss)]
                Cell::Int(n) => push_number_cell(&mut self.xml, col, row, *n as f64, None),
                Cell::Decimal(Some(n)) if n.is_finite() => {
                    push_number_cell(&mut self.xml, col, row, *n, Some(DECIMAL));
                }
                Cell::Date(Some(d)) => {
                    push_number_cell(&mut self.xml, col, row, excel_date(*d), Some(DATE));
                }
                Cell::Time(Some(t)) => {
                    let serial = excel_time(t.naive_utc());
                    push_number_cell(&mut self.xml, col, row, serial, Some(TIME));
                }
                Cell::Decimal(_) | Cell::Date(None) | Cell::Time(None) => {}
            }
        }
        self.xml.push_str("</row>");
        self.next_row += 1;
        if self.xml.len() >= BUFFER_BYTES {
            self.zip.write_all(self.xml.as_bytes())?;
            self.xml.clear();
        }
        Ok(())
    }

    /// Ends the sheet and the zip, and gives back what it was written into.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.xml.push_str(SHEET_END);
        self.zip.write_all(self.xml.as_bytes())?;
        Ok(self.zip.finish()?.into_inner())
    }
}

fn refused(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("the workbook cannot hold {what}"),
    )
}

/// `<cols>`: each column as wide as its widest cell among the header and `rows`, in
/// characters, with a character's room to spare; a column with nothing in it keeps Excel's
/// width.
fn push_columns(xml: &mut String, header: &[&str], rows: &[Vec<Cell>]) {
    use std::fmt::Write as _;
    let mut widths: Vec<f64> = header
        .iter()
        // A bold character is about a tenth wider.
        .map(|title| text_width(title) * 1.1)
        .collect();
    for row in rows {
        for (col, cell) in row.iter().enumerate() {
            let width = cell_width(cell);
            match widths.get_mut(col) {
                Some(widest) => *widest = widest.max(width),
                None => widths.push(width),
            }
        }
    }
    if widths.iter().all(|w| *w == 0.0) {
        return;
    }
    xml.push_str("<cols>");
    for (col, width) in (1..).zip(widths) {
        if width > 0.0 {
            let width = (width + 1.0).min(MAX_WIDTH);
            let _ = write!(
                xml,
                r#"<col min="{col}" max="{col}" width="{width:.2}" customWidth="1"/>"#
            );
        }
    }
    xml.push_str("</cols>");
}

/// A cell's width as shown, in characters.
#[allow(clippy::cast_precision_loss)]
fn cell_width(cell: &Cell) -> f64 {
    match cell {
        Cell::Text(text) => text_width(text),
        Cell::Int(n) => n.to_string().len() as f64,
        Cell::Decimal(Some(n)) => format!("{n:.1}").len() as f64,
        Cell::Date(Some(_)) => 10.0,
        Cell::Time(Some(_)) => 16.0,
        Cell::Decimal(None) | Cell::Date(None) | Cell::Time(None) => 0.0,
    }
}

/// The characters of a text's longest line.
#[allow(clippy::cast_precision_loss)]
fn text_width(text: &str) -> f64 {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0) as f64
}

/// The cell reference of column `col` (from 0) in `row` (from 1): `A1`, `AB12`.
fn push_reference(xml: &mut String, col: usize, row: u32) {
    use std::fmt::Write as _;
    let mut letters = [0u8; 3];
    let mut at = letters.len();
    let mut n = col + 1;
    while n > 0 && at > 0 {
        at -= 1;
        // `n - 1` modulo 26 is below 26.
        #[allow(clippy::cast_possible_truncation)]
        let letter = b'A' + ((n - 1) % 26) as u8;
        letters[at] = letter;
        n = (n - 1) / 26;
    }
    for letter in &letters[at..] {
        xml.push(char::from(*letter));
    }
    let _ = write!(xml, "{row}");
}

fn push_text_cell(xml: &mut String, col: usize, row: u32, text: &str, style: Option<u8>) {
    xml.push_str(r#"<c r=""#);
    push_reference(xml, col, row);
    if let Some(style) = style {
        use std::fmt::Write as _;
        let _ = write!(xml, r#"" s="{style}"#);
    }
    xml.push_str(r#"" t="inlineStr"><is><t xml:space="preserve">"#);
    push_escaped(xml, text);
    xml.push_str("</t></is></c>");
}

fn push_number_cell(xml: &mut String, col: usize, row: u32, value: f64, style: Option<u8>) {
    use std::fmt::Write as _;
    xml.push_str(r#"<c r=""#);
    push_reference(xml, col, row);
    if let Some(style) = style {
        let _ = write!(xml, r#"" s="{style}"#);
    }
    // Rust writes the shortest digits that read back as the same number, never an exponent.
    let _ = write!(xml, r#""><v>{value}</v></c>"#);
}

/// `text` as XML character data, as Excel writes it: `&`, `<` and `>` as entities; a control
/// character XML cannot carry (and a carriage return, which XML would read as a line feed) as
/// `_xHHHH_`; and so a text that already reads `_xHHHH_` gets its underscore as `_x005F_`.
fn push_escaped(xml: &mut String, text: &str) {
    use std::fmt::Write as _;
    for (at, c) in text.char_indices() {
        match c {
            '&' => xml.push_str("&amp;"),
            '<' => xml.push_str("&lt;"),
            '>' => xml.push_str("&gt;"),
            '_' if is_escape_at(text, at) => xml.push_str("_x005F_"),
            '\t' | '\n' => xml.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(xml, "_x{:04X}_", u32::from(c));
            }
            c => xml.push(c),
        }
    }
}

/// Whether `text` reads `_xHHHH_` at `at`.
fn is_escape_at(text: &str, at: usize) -> bool {
    let bytes = &text.as_bytes()[at..];
    bytes.len() >= 7
        && bytes[1] == b'x'
        && bytes[2..6].iter().all(u8::is_ascii_hexdigit)
        && bytes[6] == b'_'
}

/// A day as Excel counts it: days since 1899-12-31, and one more from March 1900 on, for the
/// 29 February 1900 that Excel counts and the calendar never had.
#[allow(clippy::cast_precision_loss)]
fn excel_date(day: NaiveDate) -> f64 {
    let epoch = NaiveDate::from_ymd_opt(1899, 12, 31).unwrap_or_default();
    let days = (day - epoch).num_days() as f64;
    if days > 59.0 {
        days + 1.0
    } else {
        days
    }
}

/// A moment as Excel counts it: the day, and the part of the day gone, to the millisecond.
#[allow(clippy::cast_precision_loss)]
fn excel_time(at: NaiveDateTime) -> f64 {
    let since_midnight = at.time() - chrono::NaiveTime::MIN;
    excel_date(at.date()) + since_midnight.num_milliseconds() as f64 / 86_400_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_run_from_a_to_z_then_aa() {
        let refs: Vec<String> = [0, 25, 26, 51, 52, 701, 702, 16_383]
            .iter()
            .map(|col| {
                let mut xml = String::new();
                push_reference(&mut xml, *col, 7);
                xml
            })
            .collect();
        assert_eq!(
            refs,
            ["A7", "Z7", "AA7", "AZ7", "BA7", "ZZ7", "AAA7", "XFD7"]
        );
    }

    #[test]
    fn text_is_escaped_as_excel_escapes_it() {
        let mut xml = String::new();
        push_escaped(&mut xml, "a&b <c> _x0041_ \u{1}\r\n\t_x12_ é");
        assert_eq!(
            xml,
            "a&amp;b &lt;c&gt; _x005F_x0041_ _x0001__x000D_\n\t_x12_ é"
        );
    }

    #[test]
    fn days_count_excels_leap_day_of_1900() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert!((excel_date(day(1900, 1, 1)) - 1.0).abs() < f64::EPSILON);
        assert!((excel_date(day(1900, 2, 28)) - 59.0).abs() < f64::EPSILON);
        assert!((excel_date(day(1900, 3, 1)) - 61.0).abs() < f64::EPSILON);
        assert!((excel_date(day(2026, 11, 29)) - 46_355.0).abs() < f64::EPSILON);
    }
}
