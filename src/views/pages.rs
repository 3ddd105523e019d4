//! The server-rendered pages (the public blog, its feed and the sitemap): Tera templates from
//! `src/views/templates`, built into the binary, rendered through Loco's `ViewRenderer`
//! (`format::view`). Values are escaped in `.html` and `.xml` templates; what a template marks
//! `safe` is either the app's own `index.html` or HTML made safe before it gets there (a post's
//! sanitised Markdown, JSON-LD from `structured_data`).
//!
//! An HTML page is the built app's `index.html` (the shell) with the page's title, description
//! and head tags, and its content inside `#root`, which React replaces once it runs. The shell's
//! own `<title>` and `<meta name="description">` are taken out, so a page has one of each.

use std::sync::LazyLock;

use include_dir::{include_dir, Dir};
use loco_rs::{controller::views::ViewRenderer, prelude::*};
use serde::Serialize;

static TEMPLATES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/src/views/templates");

/// The templates, parsed once per process.
pub static PAGES: LazyLock<Pages> = LazyLock::new(|| {
    Pages::new().unwrap_or_else(|err| panic!("the page templates do not parse: {err}"))
});

/// The Tera engine of the server-rendered pages.
pub struct Pages(tera::Tera);

impl Pages {
    /// Parses every template of `src/views/templates`.
    ///
    /// # Errors
    /// When a template does not parse (a unit test parses them all).
    pub fn new() -> Result<Self> {
        let mut tera = tera::Tera::default();
        let mut templates = Vec::new();
        collect(&TEMPLATES, &mut templates);
        tera.add_raw_templates(templates)
            .map_err(|e| Error::string(&format!("page templates: {e}")))?;
        Ok(Self(tera))
    }
}

fn collect(dir: &Dir<'_>, into: &mut Vec<(String, String)>) {
    for file in dir.files() {
        let name = file.path().to_string_lossy().replace('\\', "/");
        into.push((name, String::from_utf8_lossy(file.contents()).into_owned()));
    }
    for sub in dir.dirs() {
        collect(sub, into);
    }
}

impl ViewRenderer for Pages {
    fn render<S: Serialize>(&self, key: &str, data: S) -> Result<String> {
        let context = tera::Context::from_serialize(&data)
            .map_err(|e| Error::string(&format!("page values for `{key}`: {e}")))?;
        self.0
            .render(key, &context)
            .map_err(|e| Error::string(&format!("page `{key}`: {e}")))
    }
}

/// The app's `index.html` around a page: everything before `</head>` (without its title and
/// description), the body up to `#root`, and the rest.
#[derive(Debug, Clone, Serialize)]
pub struct Shell {
    pub head: String,
    pub body: String,
    pub tail: String,
}

/// The shell of the built app, read once per process (the frontend changes only with a new
/// build); a plain one when the app is not built (tests, an API-only server).
pub static SHELL: LazyLock<Shell> = LazyLock::new(|| {
    let html = std::fs::read_to_string("assets/index.html").unwrap_or_else(|_| {
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"></head><body><div id=\"root\"></div></body></html>"
            .to_string()
    });
    Shell::of(&html)
});

impl Shell {
    /// Splits `index.html` around `</head>` and `<div id="root"></div>`, without the title and
    /// description it carries for the app's own pages.
    #[must_use]
    pub fn of(html: &str) -> Self {
        let (head, rest) = html.split_once("</head>").unwrap_or((html, ""));
        let (body, tail) = rest
            .split_once("<div id=\"root\"></div>")
            .unwrap_or((rest, ""));
        let mut head = remove_element(head, "<title", "</title>");
        while let Some(start) = find_description(&head) {
            let end = head[start..]
                .find('>')
                .map_or(head.len(), |e| start + e + 1);
            head.replace_range(start..end, "");
        }
        Self {
            head: head.trim_end().to_string(),
            body: body.to_string(),
            tail: tail.to_string(),
        }
    }
}

fn remove_element(html: &str, open: &str, close: &str) -> String {
    match (html.find(open), html.find(close)) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &html[..a], &html[b + close.len()..]),
        _ => html.to_string(),
    }
}

/// Where `<meta name="description" ...>` starts, whatever the attributes' order and spacing.
fn find_description(head: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = head[from..].find("<meta") {
        let start = from + i;
        let end = head[start..].find('>').map_or(head.len(), |e| start + e);
        let tag: String = head[start..end]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if tag.contains("name=\"description\"") || tag.contains("name='description'") {
            return Some(start);
        }
        from = end;
    }
    None
}

/// JSON for a `<script>` element of an HTML page: `<`, `>` and `&` written as `\u003c`,
/// `\u003e` and `\u0026`, so no text in it (`</script>`, `<!--`) can end or change the element,
/// and the JSON means exactly the same.
#[must_use]
pub fn structured_data(value: &serde_json::Value) -> String {
    let json = value.to_string();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            // Line and paragraph separators end a line in older JavaScript parsers.
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
    }
    out
}

/// `text` without the characters XML 1.0 forbids (controls other than tab and line breaks, and
/// U+FFFE / U+FFFF): a feed is one XML document, and one such character anywhere makes a
/// reader reject it whole.
#[must_use]
pub fn xml_text(text: &str) -> String {
    text.chars()
        .filter(|&c| {
            matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        let pages = Pages::new().unwrap();
        for name in [
            "layout.html",
            "error.html",
            "sitemap.xml",
            "blog/list.html",
            "blog/post.html",
            "blog/not_found.html",
            "blog/meta.html",
            "blog/rss.xml",
        ] {
            assert!(pages.0.get_template_names().any(|n| n == name), "{name}");
        }
    }

    #[test]
    fn the_shell_loses_its_own_title_and_description() {
        let shell = Shell::of(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>App</title>\n    <meta\n      name=\"description\"\n      content=\"The app.\" />\n<script src=\"/assets/a.js\"></script></head><body class=\"x\"><div id=\"root\"></div><script>1</script></body></html>",
        );
        assert!(!shell.head.contains("<title"), "{}", shell.head);
        assert!(!shell.head.contains("description"), "{}", shell.head);
        assert!(shell
            .head
            .contains("<script src=\"/assets/a.js\"></script>"));
        assert_eq!(shell.body, "<body class=\"x\">");
        assert_eq!(shell.tail, "<script>1</script></body></html>");
    }

    #[test]
    fn structured_data_cannot_end_its_script_element() {
        let value = serde_json::json!({"headline": "<!--<script> </script> a & b > c"});
        let out = structured_data(&value);
        assert!(
            !out.contains('<') && !out.contains('>') && !out.contains('&'),
            "{out}"
        );
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn xml_text_drops_what_xml_forbids_and_keeps_the_rest() {
        assert_eq!(
            xml_text("a\u{1}b\u{8}c\u{b}d\u{1b}e\tf\ng\rh\u{FFFE}é"),
            "abcde\tf\ng\rhé"
        );
    }
}
