//! The names of the entries in a ZIP of documents: `<vendor>/<file>`, built from names people
//! typed (a vendor's name, an uploaded file's name). An unzip tool writes each entry where its
//! name says, so a name must never leave the folder it is unpacked in: no `.` or `..` part, no
//! leading `/` or `\`, no drive letter, nothing a file system reads as a separator or hides.

use std::collections::HashSet;

/// Longest part of an entry name, in bytes: file systems allow 255, and a copy's ` (12)` must
/// still fit.
const MAX_SEGMENT_BYTES: usize = 120;

/// Longest extension kept whole when a long file name is shortened.
const MAX_EXTENSION_BYTES: usize = 10;

/// Names Windows keeps for devices, whatever follows the first dot (`CON.pdf` is the console).
const RESERVED_ON_WINDOWS: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// One part of an entry name (a folder or a file) made from any text: never empty, never `.` or
/// `..`, no separator, drive colon, control or bidirectional character, no leading or trailing
/// dot or space, at most 120 bytes (a file name keeps its extension); `fallback` when nothing is
/// left.
#[must_use]
pub fn entry_segment(raw: &str, fallback: &str) -> String {
    let replaced: String = raw
        .chars()
        .map(|c| {
            if c.is_control()
                || crate::models::file_type::is_bidi_control(c)
                || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
            {
                '_'
            } else {
                c
            }
        })
        .collect();
    // Leading dots hide a file (or make `..`); trailing dots and spaces are dropped by Windows,
    // which would turn `. .` into `..` on the way out.
    let trimmed = trim_dots_and_spaces(&replaced);
    let shortened = shorten(trimmed);
    let segment = trim_dots_and_spaces(&shortened);
    if segment.is_empty() || segment.chars().all(|c| c == '_') {
        return fallback.to_string();
    }
    let stem = segment.split('.').next().unwrap_or_default().trim();
    if RESERVED_ON_WINDOWS
        .iter()
        .any(|r| r.eq_ignore_ascii_case(stem))
    {
        return format!("_{segment}");
    }
    segment.to_string()
}

fn trim_dots_and_spaces(s: &str) -> &str {
    s.trim_matches(|c: char| c == '.' || c.is_whitespace())
}

/// At most `MAX_SEGMENT_BYTES`, cut on a character boundary, keeping a short extension.
fn shorten(s: &str) -> String {
    if s.len() <= MAX_SEGMENT_BYTES {
        return s.to_string();
    }
    let ext = s
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .filter(|ext| !ext.is_empty() && ext.len() <= MAX_EXTENSION_BYTES);
    let room = ext.map_or(MAX_SEGMENT_BYTES, |ext| MAX_SEGMENT_BYTES - ext.len() - 1);
    let head = prefix_within(s, room);
    match ext {
        Some(ext) => format!("{}.{ext}", trim_dots_and_spaces(head)),
        None => head.to_string(),
    }
}

/// The longest prefix of `s` of at most `bytes` bytes ending on a character boundary.
fn prefix_within(s: &str, bytes: usize) -> &str {
    let mut end = bytes.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The entry names for documents given as (vendor name, file name), in the same order: each
/// `<vendor>/<file>` made safe by `entry_segment`, and unique ignoring case (a later copy is
/// `name (2).pdf`, `name (3).pdf`, ...).
#[must_use]
pub fn entry_names<'a, I>(documents: I) -> Vec<String>
where
    I: IntoIterator<Item = (&'a str, &'a str)>,
{
    let mut used = HashSet::new();
    documents
        .into_iter()
        .map(|(vendor, file)| {
            let folder = entry_segment(vendor, "vendor");
            let file = entry_segment(file, "document");
            // The number goes before the file's extension, never into the folder's name.
            let (stem, ext) = match file.rsplit_once('.') {
                Some((stem, ext)) if !stem.is_empty() => (stem, Some(ext)),
                _ => (file.as_str(), None),
            };
            let mut name = format!("{folder}/{file}");
            let mut n = 2;
            while !used.insert(name.to_lowercase()) {
                name = match ext {
                    Some(ext) => format!("{folder}/{stem} ({n}).{ext}"),
                    None => format!("{folder}/{stem} ({n})"),
                };
                n += 1;
            }
            name
        })
        .collect()
}

/// Whether an entry name stays inside the folder it is unpacked in and is one every common
/// file system can hold: the rule `entry_names` keeps, stated on its own so tests can check any
/// name against it.
#[must_use]
pub fn is_safe_entry_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    !name.is_empty()
        && !name.starts_with(['/', '\\'])
        && !drive
        && !name.contains([':', '\\'])
        && !name.chars().any(char::is_control)
        && name.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && part.trim_matches(|c: char| c == '.' || c.is_whitespace()) == part
                && part.len() <= MAX_SEGMENT_BYTES + " (99999)".len()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names a vendor or a file could have, each worse than the last.
    const HOSTILE: [&str; 34] = [
        ". ..",
        "..",
        ".",
        "...",
        ". . .",
        "../invoice.pdf",
        "../../etc/passwd",
        "..\\..\\windows\\system32",
        "/etc/passwd",
        "\\\\server\\share\\x.pdf",
        "C:\\Windows\\x.pdf",
        "c:",
        "C:relative.pdf",
        "a/../../b",
        "./x",
        "x/.",
        "x/..",
        "..%2f..%2fx",
        "\u{0}",
        "\u{7}\u{8}\t\n\r",
        "line\nbreak.pdf",
        "invoice\u{202e}fdp.exe",
        "\u{200f}..",
        "   ",
        "",
        "...pdf",
        "report.pdf.",
        "report.pdf . .",
        "CON",
        "nul.pdf",
        "a:b*c?d\"e<f>g|h",
        "/",
        "\\",
        "______",
    ];

    #[test]
    fn a_hostile_part_becomes_a_plain_one() {
        for raw in HOSTILE {
            let segment = entry_segment(raw, "document");
            assert!(!segment.is_empty(), "{raw:?}");
            assert!(segment != "." && segment != "..", "{raw:?} -> {segment:?}");
            assert!(
                !segment.contains(['/', '\\', ':']),
                "{raw:?} -> {segment:?}"
            );
            assert!(!segment.starts_with('.'), "{raw:?} -> {segment:?}");
            assert!(
                !segment.chars().any(char::is_control),
                "{raw:?} -> {segment:?}"
            );
            assert!(
                is_safe_entry_name(&format!("{segment}/{segment}")),
                "{raw:?} -> {segment:?}"
            );
        }
    }

    #[test]
    fn each_hostile_pair_gives_a_safe_entry_name() {
        let pairs: Vec<(&str, &str)> = HOSTILE
            .iter()
            .flat_map(|vendor| HOSTILE.iter().map(move |file| (*vendor, *file)))
            .collect();
        let names = entry_names(pairs.iter().copied());
        assert_eq!(names.len(), pairs.len());
        let mut seen = HashSet::new();
        for (name, pair) in names.iter().zip(&pairs) {
            assert!(is_safe_entry_name(name), "{pair:?} -> {name:?}");
            assert_eq!(name.split('/').count(), 2, "{pair:?} -> {name:?}");
            assert!(seen.insert(name.to_lowercase()), "unique: {name:?}");
        }
    }

    #[test]
    fn the_names_of_the_reported_attack_stay_in_their_folder() {
        assert_eq!(
            entry_names([(". ..", "invoice.pdf"), ("..", "../../x.pdf")]),
            vec!["vendor/invoice.pdf", "vendor/_.._x.pdf"]
        );
        assert_eq!(entry_segment("C:\\x.pdf", "document"), "C__x.pdf");
        assert_eq!(entry_segment("CON", "vendor"), "_CON");
        assert_eq!(entry_segment("nul.pdf", "document"), "_nul.pdf");
        assert_eq!(entry_segment("...pdf", "document"), "pdf");
        assert_eq!(entry_segment("report.pdf. .", "document"), "report.pdf");
        assert_eq!(entry_segment("Acme/Plumbing", "vendor"), "Acme_Plumbing");
        assert_eq!(entry_segment("  Acme, Inc.  ", "vendor"), "Acme, Inc");
    }

    #[test]
    fn a_very_long_name_is_cut_on_a_character_and_keeps_its_extension() {
        let long = format!("{}.pdf", "é".repeat(300));
        let segment = entry_segment(&long, "document");
        assert!(segment.len() <= MAX_SEGMENT_BYTES, "{}", segment.len());
        assert_eq!(segment.rsplit_once('.').map(|(_, ext)| ext), Some("pdf"));
        assert!(segment.starts_with('é'));
        let no_extension = entry_segment(&"x".repeat(1000), "vendor");
        assert_eq!(no_extension.len(), MAX_SEGMENT_BYTES);
        // Cut right after a dot, the part still does not end with one.
        let dotted = format!(
            "{}. . {}",
            "a".repeat(MAX_SEGMENT_BYTES - 2),
            "x".repeat(20)
        );
        assert!(!entry_segment(&dotted, "vendor").ends_with(['.', ' ']));
    }

    #[test]
    fn copies_are_numbered_before_the_extension_and_never_in_the_folder() {
        let names = entry_names([
            ("A.B", "document"),
            ("a.b", "Document"),
            ("A.B", "file.pdf"),
            ("A.B", "FILE.pdf"),
            ("A.B", "file.pdf"),
            ("A.B", ".pdf"),
            ("A.B", "..pdf"),
        ]);
        assert_eq!(
            names,
            vec![
                "A.B/document",
                "a.b/Document (2)",
                "A.B/file.pdf",
                "A.B/FILE (2).pdf",
                "A.B/file (3).pdf",
                "A.B/pdf",
                "A.B/pdf (2)",
            ]
        );
    }

    #[test]
    fn the_rule_refuses_every_escaping_name() {
        for bad in [
            "../x.pdf",
            "a/../x.pdf",
            "./x.pdf",
            "a/./x",
            "/x.pdf",
            "\\x.pdf",
            "C:/x.pdf",
            "c:x.pdf",
            "a\\..\\x",
            "a//x",
            "a/x\n",
            "",
            "a/. ..",
            "a/.hidden",
        ] {
            assert!(!is_safe_entry_name(bad), "{bad:?}");
        }
        assert!(is_safe_entry_name("Acme/certificate-0.pdf"));
    }
}
