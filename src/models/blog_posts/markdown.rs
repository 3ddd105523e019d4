//! Markdown to safe HTML, and what is read off a post's text: its excerpt and read time.

use pulldown_cmark::{html, Event, Options, Parser, TagEnd};

/// The HTML of `markdown`, sanitised: whatever an editor or an AI wrote, no script, event
/// handler, `javascript:` URL, style or frame reaches a page (`ammonia`'s allow-list).
#[must_use]
pub fn render(markdown: &str) -> String {
    let mut unsafe_html = String::new();
    html::push_html(&mut unsafe_html, Parser::new_ext(markdown, options()));
    ammonia::Builder::default()
        .link_rel(Some("noopener noreferrer nofollow"))
        .clean(&unsafe_html)
        .to_string()
}

/// The Markdown extensions posts are written with (tables, strikethrough, task lists).
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// The text of `markdown` without its markup; blocks (paragraphs, list items, table cells,
/// headings, and the same written as HTML) are kept apart by a space.
#[must_use]
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::new();
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::Html(h) | Event::InlineHtml(h) => html_text(&h, &mut out),
            // Inline markup ends inside a word or sentence; anything else ends a block.
            Event::End(
                TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Link
                | TagEnd::Image,
            ) => {}
            Event::SoftBreak | Event::HardBreak | Event::End(_) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of a piece of HTML in a post: tags dropped (a block's tag leaves a space), the
/// character references a writer commonly uses decoded.
fn html_text(html: &str, out: &mut String) {
    const BLOCKS: [&str; 20] = [
        "p",
        "div",
        "br",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "tr",
        "td",
        "th",
        "table",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
    ];
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&decode(&rest[..open]));
        let Some(close) = rest[open..].find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[open + 1..open + close];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if BLOCKS.contains(&name.as_str()) {
            out.push(' ');
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(&decode(rest));
}

fn decode(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

/// The excerpt shown when a post has none: its first 200 characters, with an ellipsis when cut.
#[must_use]
pub fn excerpt_of(markdown: &str) -> String {
    let text = plain_text(markdown);
    if text.chars().count() <= 200 {
        return text;
    }
    let cut: String = text.chars().take(200).collect();
    format!("{}...", cut.trim_end())
}

/// Minutes to read at 200 words a minute, at least 1; 5 when there is no text to count.
#[must_use]
pub fn read_time(markdown: &str) -> u32 {
    let words = plain_text(markdown).split_whitespace().count();
    if words == 0 {
        return 5;
    }
    u32::try_from(words.div_ceil(200))
        .unwrap_or(u32::MAX)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_markdown_renders_nothing_executable() {
        let corpus = [
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "[click](javascript:alert(1))",
            "[click](JaVaScRiPt:alert(1))",
            "<a href=\"&#106;avascript:alert(1)\">x</a>",
            "<svg><script>alert(1)</script></svg>",
            "<svg onload=alert(1)>",
            "<iframe src=\"https://evil.example\"></iframe>",
            "<p style=\"background:url(javascript:alert(1))\">x</p>",
            "<!-- <script>alert(1)</script> -->",
            "<object data=\"x\"></object><embed src=\"x\">",
            "<form action=\"https://evil.example\"><input name=a></form>",
            "![x](javascript:alert(1))",
            "<div onclick=\"alert(1)\">x</div>",
        ];
        for hostile in corpus {
            let html = render(hostile).to_lowercase();
            for bad in [
                "<script",
                "onerror",
                "onload",
                "onclick",
                "javascript:",
                "<iframe",
                "style=",
                "<svg",
                "<object",
                "<embed",
                "<form",
                "<input",
            ] {
                assert!(!html.contains(bad), "{hostile:?} rendered {html:?}");
            }
        }
    }

    #[test]
    fn a_representative_post_renders_as_expected() {
        let post = "# Keeping vendors compliant\n\nA **short** guide with a [link](https://example.com).\n\n- W-9 forms\n- Certificates of insurance\n\n| Document | Renew |\n| --- | --- |\n| COI | yearly |\n\n`code` and ~~old~~ text.";
        insta::assert_snapshot!(render(post));
    }

    #[test]
    fn excerpts_and_read_times_come_from_the_text() {
        assert_eq!(excerpt_of("# Title\n\nSome *text*."), "Title Some text.");
        assert_eq!(
            excerpt_of("Checklist:\n\n- Legal name\n- Signed & dated\n\n1. W-9\n2. COI"),
            "Checklist: Legal name Signed & dated W-9 COI"
        );
        assert_eq!(
            excerpt_of("<ul><li>Legal name</li><li>Signed &amp; dated</li></ul>\n\n| A | B |\n|---|---|\n| x | y |\n\nA <b>bold</b>word"),
            "Legal name Signed & dated A B x y A boldword"
        );
        let long = "word ".repeat(100);
        let excerpt = excerpt_of(&long);
        assert!(excerpt.ends_with("...") && excerpt.chars().count() <= 203);
        assert_eq!(read_time(""), 5);
        assert_eq!(read_time("one two"), 1);
        assert_eq!(read_time(&"w ".repeat(401)), 3);
    }
}
