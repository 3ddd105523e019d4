//! A vendor list as the program that saved it wrote it (docs/product.md, "Importing vendors"):
//! the encoding found (a byte-order mark, else UTF-8 if it reads as UTF-8, else what
//! `chardetng` guesses: Windows-1252 for Excel's classic CSV), the delimiter found (comma,
//! semicolon or tab, whichever gives the most rows of one width), then the header row found
//! among the first rows (title rows above it skipped) and footer rows below the data (a
//! report's timestamp or total) dropped.

use encoding_rs::Encoding;

use super::mapping;

/// The largest file an import reads.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// The most columns a vendor list may have (Xero's contacts have about 50).
pub const MAX_COLUMNS: usize = 500;
/// The most vendor rows one import takes.
pub const MAX_ROWS: usize = 10_000;
/// The longest cell a vendor list has (notes are at most 5,000 characters): a longer one is a
/// quote left open, or not a vendor list.
pub const MAX_CELL_CHARS: usize = 10_000;
/// How many rows from the top may be titles above the header.
const HEADER_SEARCH_ROWS: usize = 20;

/// The file, read: where its header is and each data row with its line in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// As `encoding_rs` names it: `UTF-8`, `UTF-16LE`, `windows-1252`.
    pub encoding: &'static str,
    pub delimiter: u8,
    /// The header's line in the file (the first line is 1).
    pub header_line: u64,
    pub headers: Vec<String>,
    /// Each data row with its line in the file.
    pub rows: Vec<(u64, Vec<String>)>,
}

/// The file's text, whatever encoding it was saved in.
///
/// # Errors
/// A sentence for a file that is not text (a workbook, a PDF, binary junk).
pub fn decode(bytes: &[u8]) -> Result<(String, &'static str), String> {
    if bytes.starts_with(b"PK\x03\x04") {
        return Err("This is an Excel workbook (.xlsx), not a CSV file. In Excel, choose File > Save As > \"CSV UTF-8 (Comma delimited)\" and upload that file.".to_string());
    }
    let (text, encoding) = if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        (text.into_owned(), encoding)
    } else if let Some(encoding) = utf16_without_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(bytes);
        (text.into_owned(), encoding)
    } else if let Ok(text) = std::str::from_utf8(bytes) {
        (text.to_string(), encoding_rs::UTF_8)
    } else {
        let mut detector = chardetng::EncodingDetector::new();
        detector.feed(bytes, true);
        let encoding = detector.guess(None, true);
        let (text, _) = encoding.decode_without_bom_handling(bytes);
        (text.into_owned(), encoding)
    };
    if !looks_like_text(&text) {
        return Err("This file is not a CSV file. Save your vendor list as CSV (comma or semicolon separated) and upload that file.".to_string());
    }
    Ok((text, encoding.name()))
}

/// UTF-16 saved without a byte-order mark: every other byte of plain text is zero.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    if sample.len() < 4 {
        return None;
    }
    let zeros = |offset: usize| {
        sample
            .iter()
            .skip(offset)
            .step_by(2)
            .filter(|b| **b == 0)
            .count()
    };
    let half = sample.len() / 2;
    if zeros(1) * 10 >= half * 9 && zeros(0) == 0 {
        Some(encoding_rs::UTF_16LE)
    } else if zeros(0) * 10 >= half * 9 && zeros(1) == 0 {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// Text has no NUL and hardly any other control characters; binary junk decoded has many.
fn looks_like_text(text: &str) -> bool {
    let mut chars = 0usize;
    let mut control = 0usize;
    for c in text.chars().take(64 * 1024) {
        chars += 1;
        if c == '\0' || c == '\u{fffd}' {
            return false;
        }
        if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
            control += 1;
        }
    }
    chars > 0 && control * 100 <= chars
}

/// The delimiter that gives the most rows of one width (of at least two columns) in the first
/// rows; a comma when none does.
fn sniff_delimiter(text: &str) -> u8 {
    let mut best = (b',', 0usize);
    for delimiter in [b',', b';', b'\t'] {
        let mut reader = reader(delimiter, text.as_bytes());
        let widths: Vec<usize> = reader
            .records()
            .take(50)
            .filter_map(Result::ok)
            .map(|r| r.len())
            .filter(|w| *w >= 2)
            .collect();
        let mut counts = std::collections::HashMap::<usize, usize>::new();
        for w in &widths {
            *counts.entry(*w).or_default() += 1;
        }
        let score = counts.values().copied().max().unwrap_or(0);
        if score > best.1 {
            best = (delimiter, score);
        }
    }
    best.0
}

fn reader(delimiter: u8, bytes: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes)
}

/// The header row: the first of the top rows whose cells name vendor fields (a name column,
/// or two fields); else the first row as wide as most rows.
fn header_index(records: &[(u64, Vec<String>)]) -> Option<usize> {
    let top = &records[..records.len().min(HEADER_SEARCH_ROWS)];
    let named = top.iter().position(|(_, cells)| {
        let fields: Vec<&str> = cells
            .iter()
            .filter_map(|c| mapping::guess(c))
            .map(|g| g.field)
            .collect();
        fields.contains(&"name") || fields.len() >= 2
    });
    named.or_else(|| {
        let filled = |cells: &Vec<String>| cells.iter().filter(|c| !c.is_empty()).count();
        let widest = top.iter().map(|(_, c)| filled(c)).max()?;
        top.iter()
            .position(|(_, c)| widest >= 2 && filled(c) == widest)
    })
}

/// A row below the data that a report adds: a timestamp ("Friday, November 27, 2026 06:22 AM
/// GMT-08:00", one cell, or a few when it was not quoted) or a total.
fn is_footer(cells: &[String]) -> bool {
    let filled: Vec<&str> = cells
        .iter()
        .map(String::as_str)
        .filter(|c| !c.is_empty())
        .collect();
    if filled.is_empty() {
        return true;
    }
    if filled.len() > 3 {
        return false;
    }
    let lower = filled.join(", ").to_lowercase();
    let digits = lower.chars().filter(char::is_ascii_digit).count();
    !lower.contains('@')
        && (lower.starts_with("total")
            || (digits >= 4
                && (lower.contains("gmt")
                    || lower.contains(" am")
                    || lower.contains(" pm")
                    || lower.contains(':'))))
}

/// Reads the file: its encoding, delimiter, header and rows.
///
/// # Errors
/// A sentence for a file that is not a vendor list: not text, too large, too wide, too long,
/// without a header row or without rows.
pub fn read(bytes: &[u8]) -> Result<Table, String> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(format!(
            "The file is too large: an import takes at most {} MB.",
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    let (text, encoding) = decode(bytes)?;
    let delimiter = sniff_delimiter(&text);
    // A record's line, from where it starts (the reader's own count skips blank lines).
    let line_starts: Vec<u64> = text
        .bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'\n')
        .map(|(at, _)| at as u64)
        .collect();
    // Where a record starts is after the line ends before it.
    let bytes_of_text = text.as_bytes();
    let line_of = |byte: u64| {
        let mut at = usize::try_from(byte).unwrap_or(usize::MAX);
        while bytes_of_text
            .get(at)
            .is_some_and(|b| matches!(b, b'\r' | b'\n'))
        {
            at += 1;
        }
        line_starts.partition_point(|nl| *nl < at as u64) as u64 + 1
    };
    let mut records = Vec::new();
    for record in reader(delimiter, text.as_bytes()).records() {
        let record = record.map_err(|_| "The file could not be read as CSV.".to_string())?;
        if record.len() > MAX_COLUMNS {
            return Err(format!(
                "The file has {} columns; a vendor list has at most {MAX_COLUMNS}.",
                record.len()
            ));
        }
        let line = record.position().map_or(0, |p| line_of(p.byte()));
        if record
            .iter()
            .any(|cell| cell.len() > MAX_CELL_CHARS * 4 || cell.chars().count() > MAX_CELL_CHARS)
        {
            return Err(format!(
                "Line {line} has a cell of more than {MAX_CELL_CHARS} characters: a quote may be left open. This does not look like a vendor list."
            ));
        }
        let cells: Vec<String> = record.iter().map(ToString::to_string).collect();
        if cells.iter().all(String::is_empty) {
            continue;
        }
        records.push((line, cells));
        if records.len() > MAX_ROWS + HEADER_SEARCH_ROWS {
            return Err(format!(
                "The file has more than {MAX_ROWS} rows; import it in parts of at most {MAX_ROWS}."
            ));
        }
    }
    let Some(header_at) = header_index(&records) else {
        return Err(
            "The file has no header row naming its columns (such as Name and Email).".to_string(),
        );
    };
    let mut rows = records.split_off(header_at + 1);
    let (header_line, headers) = records.pop().unwrap_or_default();
    while rows.last().is_some_and(|(_, cells)| is_footer(cells)) {
        rows.pop();
    }
    if rows.len() > MAX_ROWS {
        return Err(format!(
            "The file has more than {MAX_ROWS} rows; import it in parts of at most {MAX_ROWS}."
        ));
    }
    if rows.is_empty() {
        return Err("The file has no vendor rows.".to_string());
    }
    Ok(Table {
        encoding,
        delimiter,
        header_line,
        headers,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_is_read_as_excel_wrote_it() {
        let bytes = b"Name,Email\nCaf\xe9 Ol\xe9 Cleaning,cafe@example.com\n";
        let table = read(bytes).unwrap();
        assert_eq!(table.encoding, "windows-1252");
        assert_eq!(table.rows[0].1[0], "Café Olé Cleaning");
    }

    #[test]
    fn utf16_with_and_without_a_bom_and_utf8_with_a_bom() {
        let text = "Name;Email\nCafé;cafe@example.com\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let mut with_bom = vec![0xff, 0xfe];
        with_bom.extend(&le);
        for bytes in [le, with_bom] {
            let table = read(&bytes).unwrap();
            assert_eq!(table.encoding, "UTF-16LE");
            assert_eq!(
                (table.delimiter, table.rows[0].1[0].as_str()),
                (b';', "Café")
            );
        }
        let mut utf8 = b"\xef\xbb\xbf".to_vec();
        utf8.extend(text.as_bytes());
        let table = read(&utf8).unwrap();
        assert_eq!(
            (table.encoding, table.headers[0].as_str()),
            ("UTF-8", "Name")
        );
    }

    #[test]
    fn title_rows_and_a_timestamp_footer_are_skipped() {
        let text = "Vendor Contact List\nAll Dates\n\nVendor,Phone Numbers,Email\nAcme,555,a@example.com\nBolt,,b@example.com\n\nFriday, November 27, 2026 06:22 AM GMT-08:00\n";
        let table = read(text.as_bytes()).unwrap();
        assert_eq!(table.header_line, 4);
        assert_eq!(table.headers, vec!["Vendor", "Phone Numbers", "Email"]);
        let lines: Vec<u64> = table.rows.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![5, 6]);
    }

    #[test]
    fn junk_workbooks_and_walls_of_columns_are_refused_in_words() {
        assert!(read(b"PK\x03\x04rest")
            .unwrap_err()
            .contains("Excel workbook"));
        assert!(read(&[0u8, 159, 146, 150, 0, 1, 2, 3, 200, 201])
            .unwrap_err()
            .contains("not a CSV file"));
        let wide = format!("{}\n", vec!["x"; 100_000].join(","));
        assert!(read(wide.as_bytes())
            .unwrap_err()
            .contains("100000 columns"));
        assert!(read(b"Name,Email\n")
            .unwrap_err()
            .contains("no vendor rows"));
    }
}
