//! Reading a certificate of insurance with AI (docs/product.md, "Reading certificates with
//! AI"): the PDF's own text layer (lopdf; no OCR of ours), or the file as images when the
//! configured model reads them; one chat completion asking, with structured output, for the
//! ACORD 25 facts; the answer checked field by field as the coverage form checks a person's
//! typing. A field that does not read is dropped with a note, never guessed.

use std::collections::BTreeMap;

use async_openai::types::chat::{
    ChatCompletionRequestMessageContentPartImage, ChatCompletionRequestMessageContentPartText,
    ChatCompletionRequestSystemMessageArgs, ChatCompletionRequestUserMessageArgs,
    ChatCompletionRequestUserMessageContent, ChatCompletionRequestUserMessageContentPart,
    CreateChatCompletionRequest, CreateChatCompletionRequestArgs, CreateChatCompletionResponse,
    FinishReason, ImageUrl, ResponseFormat, ResponseFormatJsonSchema,
};
use base64::Engine as _;
use lopdf::{
    content::{Content, Operation},
    dictionary, Document, LoadOptions, Object, Stream,
};
use serde::Deserialize;
use serde_json::{json, Value};

use super::ai::{Ai, Failure, Usage};
use crate::models::{
    coverage::{Coverage, CoverageForm, CoverageLineForm, Line},
    refusal::Refusal,
};

/// Pages read from one PDF: a certificate has one or two; more is another kind of file.
pub const MAX_PAGES: usize = 20;
/// Text sent to the model at most (characters): an ACORD 25 page is about 4,000.
const MAX_TEXT: usize = 40_000;
/// Images sent to the model at most.
const MAX_IMAGES: usize = 4;
/// What lopdf may inflate while reading the text (as for the upload check).
const MAX_DECOMPRESSED_BYTES: usize = 64 * 1024 * 1024;

/// What goes to the model: the certificate's text, or its images.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Text(String),
    /// Data URLs (`data:image/jpeg;base64,...`).
    Images(Vec<String>),
}

/// The text of a PDF's pages, in order; empty when it has no text layer (a scan).
///
/// # Errors
/// A sentence for a file lopdf cannot read.
pub fn pdf_text(bytes: &[u8]) -> Result<String, String> {
    load(bytes).map(|doc| text_of(&doc))
}

/// The text of a loaded PDF's pages (see [`pdf_text`]).
fn text_of(doc: &Document) -> String {
    let pages: Vec<u32> = doc.get_pages().keys().copied().take(MAX_PAGES).collect();
    let mut text = String::new();
    for page in pages {
        // A page whose text does not read (an unusual font) is skipped, not the file.
        if let Ok(t) = doc.extract_text_with_limit(&[page], MAX_DECOMPRESSED_BYTES) {
            text.push_str(&t);
            text.push('\n');
        }
    }
    let text: String = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    text
}

fn load(bytes: &[u8]) -> Result<Document, String> {
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_DECOMPRESSED_BYTES),
        ..LoadOptions::default()
    };
    Document::load_mem_with_options(bytes, options)
        .map_err(|_| "The PDF could not be read.".to_string())
}

/// The images a scanned PDF's pages are made of, as data URLs: JPEG ones as they are, 8-bit
/// gray or RGB pixels (Flate-compressed or not) and black-and-white scans in a fax's encoding
/// (CCITT group 3 or 4, what office scanners write) as PNG. JBIG2 is not decoded: see
/// [`undecoded_scan`].
fn pdf_images(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    for page in doc.get_pages().values().take(MAX_PAGES) {
        for image in doc.get_page_images(*page).unwrap_or_default() {
            if out.len() >= MAX_IMAGES {
                return out;
            }
            let filters: Vec<&str> = image
                .filters
                .as_ref()
                .map(|f| f.iter().map(String::as_str).collect())
                .unwrap_or_default();
            match filters.as_slice() {
                ["DCTDecode"] => out.push(data_url("image/jpeg", image.content)),
                [] | ["FlateDecode"] => {
                    if let Some(png) = pixels_as_png(doc, &image) {
                        out.push(data_url("image/png", &png));
                    }
                }
                ["CCITTFaxDecode"] => {
                    if let Some(png) = fax_as_png(doc, &image) {
                        out.push(data_url("image/png", &png));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// An image `XObject` of 8-bit gray or RGB pixels as a PNG; `None` for any other.
fn pixels_as_png(doc: &Document, image: &lopdf::xobject::PdfImage<'_>) -> Option<Vec<u8>> {
    let (width, height) = (
        u32::try_from(image.width).ok()?,
        u32::try_from(image.height).ok()?,
    );
    if image.bits_per_component != Some(8) {
        return None;
    }
    let pixels = doc
        .get_object(image.id)
        .ok()?
        .as_stream()
        .ok()?
        .decompressed_content_with_limit(MAX_DECOMPRESSED_BYTES)
        .or_else(|_| Ok::<_, lopdf::Error>(image.content.to_vec()))
        .ok()?;
    let mut png = Vec::new();
    let cursor = std::io::Cursor::new(&mut png);
    match image.color_space.as_deref() {
        Some("DeviceGray") => image::GrayImage::from_raw(width, height, pixels)?
            .write_to(&mut { cursor }, image::ImageFormat::Png)
            .ok()?,
        Some("DeviceRGB") => image::RgbImage::from_raw(width, height, pixels)?
            .write_to(&mut { cursor }, image::ImageFormat::Png)
            .ok()?,
        _ => return None,
    }
    Some(png)
}

/// The encodings of a scan's page images that none of [`pdf_images`] reads (JBIG2), to name in
/// the reason.
fn undecoded_scan(doc: &Document) -> Vec<String> {
    let mut found = Vec::new();
    for page in doc.get_pages().values().take(MAX_PAGES) {
        for image in doc.get_page_images(*page).unwrap_or_default() {
            for filter in image.filters.iter().flatten() {
                let name = filter.trim_end_matches("Decode").to_string();
                if !["DCT", "Flate", "CCITTFax"].contains(&name.as_str()) && !found.contains(&name)
                {
                    found.push(name);
                }
            }
        }
    }
    found
}

/// A black-and-white image in a fax's encoding (`CCITTFaxDecode`: group 4 when `K` < 0, group
/// 3 one-dimensional when `K` = 0) as a gray PNG; `None` when it does not decode.
fn fax_as_png(doc: &Document, image: &lopdf::xobject::PdfImage<'_>) -> Option<Vec<u8>> {
    let params = doc
        .get_object(image.id)
        .ok()?
        .as_stream()
        .ok()?
        .dict
        .get(b"DecodeParms")
        .ok()
        .and_then(|p| doc.dereference(p).ok())
        .and_then(|(_, p)| p.as_dict().ok().cloned())
        .unwrap_or_default();
    let number =
        |key: &[u8], default: i64| params.get(key).and_then(Object::as_i64).unwrap_or(default);
    let width = u16::try_from(number(b"Columns", 1728)).ok()?;
    let height = u16::try_from(image.height).ok()?;
    if u32::from(width) * u32::from(height) > 40_000_000 {
        return None;
    }
    let mut pixels = Vec::with_capacity(usize::from(width) * usize::from(height));
    let mut line = |transitions: &[u16]| {
        pixels.extend(fax::decoder::pels(transitions, width).map(|c| match c {
            fax::Color::Black => 0u8,
            fax::Color::White => 255,
        }));
    };
    let data = image.content.iter().copied();
    match number(b"K", 0) {
        k if k < 0 => fax::decoder::decode_g4(data, width, Some(height), &mut line)?,
        0 => fax::decoder::decode_g3(data, &mut line)?,
        _ => return None,
    }
    pixels.resize(usize::from(width) * usize::from(height), 255);
    let mut png = Vec::new();
    image::GrayImage::from_raw(u32::from(width), u32::from(height), pixels)?
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .ok()?;
    Some(png)
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// A PDF whose pages show these lines in Helvetica, one text line each, the way a
/// certificate's text layer holds them: what the tests and the benchmark of [`pdf_text`]
/// (`examples/pdf_text_bench.rs`) read.
///
/// # Panics
/// Never in practice: the content and the document are plain data that always encode.
#[must_use]
pub fn text_pdf(pages: &[Vec<String>]) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let tree_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources_id = doc.add_object(dictionary! {"Font" => dictionary! {"F1" => font_id}});
    let mut kids = Vec::new();
    for lines in pages {
        let mut operations = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 9.into()]),
            Operation::new("TL", vec![12.into()]),
            Operation::new("Td", vec![36.into(), 760.into()]),
        ];
        for line in lines {
            operations.push(Operation::new(
                "'",
                vec![Object::string_literal(line.as_str())],
            ));
        }
        operations.push(Operation::new("ET", vec![]));
        let content = Content { operations }
            .encode()
            .expect("text operations encode");
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => tree_id, "Contents" => content_id,
        });
        kids.push(page_id.into());
    }
    let count = i64::try_from(kids.len()).unwrap_or(i64::MAX);
    doc.objects.insert(
        tree_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => count,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => tree_id});
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("a PDF in memory saves");
    out
}

/// What of this file the model can be sent, or why it cannot read it (the `unavailable`
/// reason). HEIC and TIFF pictures come here already converted (the worker), when the model
/// reads images.
///
/// # Errors
/// The sentence saying why.
pub fn source_of(bytes: &[u8], content_type: &str, vision: bool) -> Result<Source, String> {
    const NO_VISION: &str = "the configured AI model does not read images, so the certificate \
                             cannot be read; enter its coverage by hand.";
    match content_type {
        "application/pdf" => {
            // Read once: the text, then (a scan) its images, then what they are stored as.
            let doc = load(bytes)?;
            let text = text_of(&doc);
            if text.chars().filter(char::is_ascii_alphanumeric).count() >= 20 {
                return Ok(Source::Text(text.chars().take(MAX_TEXT).collect()));
            }
            if !vision {
                return Err(format!("This PDF has no text layer (a scan): {NO_VISION}"));
            }
            let images = pdf_images(&doc);
            if images.is_empty() {
                let undecoded = undecoded_scan(&doc);
                return Err(if undecoded.is_empty() {
                    "This PDF has no text layer and no page image the AI service reads; enter \
                     its coverage by hand."
                        .to_string()
                } else {
                    format!(
                        "This scan's pages are stored as {}, which cannot be sent to the AI \
                         service. Scan it again as a PDF in color or gray, or enter its \
                         coverage by hand.",
                        undecoded.join(", ")
                    )
                });
            }
            Ok(Source::Images(images))
        }
        "image/jpeg" | "image/png" | "image/webp" | "image/gif" if vision => {
            Ok(Source::Images(vec![data_url(content_type, bytes)]))
        }
        "image/jpeg" | "image/png" | "image/webp" | "image/gif" | "image/heic" | "image/tiff" => {
            Err(format!("This certificate is a picture: {NO_VISION}"))
        }
        _ => Err(
            "Only PDF certificates (and pictures, when the AI model reads images) can be \
             read; enter this one's coverage by hand."
                .to_string(),
        ),
    }
}

/// What was read: the coverage as checked, each field's confidence (0 to 1) by path
/// (`lines[0].limits.eachOccurrence`), and a note for each field dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub coverage: Coverage,
    pub confidence: BTreeMap<String, f64>,
    pub notes: Vec<String>,
    pub model: String,
    pub usage: Usage,
}

/// Why nothing was read: the failure, with the usage when the model answered.
pub type ReadFailure = (String, Option<Usage>);

const SYSTEM_PROMPT: &str = "You read certificates of liability insurance (ACORD 25) for \
Vendorwatch, a vendor compliance tracker. Copy what the certificate states, field by field, \
exactly as printed: names as written, amounts as printed (\"1,000,000\"), dates as YYYY-MM-DD \
(a certificate prints MM/DD/YYYY). Use null for a field the certificate does not show or you \
cannot read; never guess. A line is only one the certificate shows with a policy. Give your \
confidence from 0 to 1 for each field you fill, by its path (insured, lines[0].policyNumber, \
lines[0].limits.eachOccurrence).";

/// Asks the model for the certificate's facts.
///
/// # Errors
/// The reason in words (a timeout, a refusal, an answer that is not the asked-for JSON).
pub async fn read(ai: &Ai, source: &Source) -> Result<Reading, ReadFailure> {
    let request = request(ai.model(), source).map_err(|e| (e, None))?;
    let response = ai
        .complete(request)
        .await
        .map_err(|f| (failure_text(&f), None))?;
    read_answer(response, source)
}

fn failure_text(failure: &Failure) -> String {
    match failure {
        Failure::Refused(why) => format!("The model refused to read the certificate: {why}"),
        Failure::Unparseable(why) => format!("The AI answer could not be read: {why}"),
        other => other.to_string(),
    }
}

/// The limits of every line, for the schema.
fn limit_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Line::ALL
        .iter()
        .flat_map(|l| l.limits().iter().map(|(key, _)| *key))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

fn nullable_text(description: &str) -> Value {
    json!({"type": ["string", "null"], "description": description})
}

/// The JSON schema of the answer: the contract's `coverage` shape, with limits as printed and
/// the model's confidence per field (strict structured output has no open maps, so both are
/// lists).
pub fn schema() -> Value {
    let line = json!({
        "type": "object",
        "properties": {
            "line": {"type": "string", "enum": Line::ALL.map(Line::as_str)},
            "insurer": nullable_text("The insurer affording this line"),
            "naic": nullable_text("The insurer's NAIC number, 5 digits"),
            "policyNumber": nullable_text("As printed"),
            "effectiveDate": nullable_text("YYYY-MM-DD"),
            "expirationDate": nullable_text("YYYY-MM-DD"),
            "limits": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "limit": {"type": "string", "enum": limit_names()},
                    "amount": {"type": "string", "description": "As printed, e.g. 1,000,000"}
                },
                "required": ["limit", "amount"],
                "additionalProperties": false
            }},
            "additionalInsured": {"type": "boolean"},
            "waiverOfSubrogation": {"type": "boolean"}
        },
        "required": ["line", "insurer", "naic", "policyNumber", "effectiveDate",
            "expirationDate", "limits", "additionalInsured", "waiverOfSubrogation"],
        "additionalProperties": false
    });
    json!({
        "type": "object",
        "properties": {
            "certificateDate": nullable_text("The certificate's date, YYYY-MM-DD"),
            "insured": nullable_text("The named insured"),
            "producer": nullable_text("The producer (agent or broker)"),
            "certificateHolder": nullable_text("The certificate holder's name"),
            "lines": {"type": "array", "items": line},
            "confidence": {"type": "array", "items": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "score": {"type": "number"}},
                "required": ["field", "score"],
                "additionalProperties": false
            }}
        },
        "required": ["certificateDate", "insured", "producer", "certificateHolder", "lines",
            "confidence"],
        "additionalProperties": false
    })
}

fn request(model: &str, source: &Source) -> Result<CreateChatCompletionRequest, String> {
    let bad = |e: async_openai::error::OpenAIError| e.to_string();
    let system = ChatCompletionRequestSystemMessageArgs::default()
        .content(SYSTEM_PROMPT)
        .build()
        .map_err(bad)?;
    let content = match source {
        Source::Text(text) => ChatCompletionRequestUserMessageContent::Text(format!(
            "The certificate's text, as its PDF holds it:\n\n{text}"
        )),
        Source::Images(urls) => {
            let mut parts = vec![ChatCompletionRequestUserMessageContentPart::Text(
                ChatCompletionRequestMessageContentPartText {
                    text: "The certificate, page by page:".to_string(),
                    prompt_cache_breakpoint: None,
                },
            )];
            parts.extend(urls.iter().map(|url| {
                ChatCompletionRequestUserMessageContentPart::ImageUrl(
                    ChatCompletionRequestMessageContentPartImage {
                        image_url: ImageUrl {
                            url: url.clone(),
                            detail: None,
                        },
                        prompt_cache_breakpoint: None,
                    },
                )
            }));
            ChatCompletionRequestUserMessageContent::Array(parts)
        }
    };
    let user = ChatCompletionRequestUserMessageArgs::default()
        .content(content)
        .build()
        .map_err(bad)?;
    CreateChatCompletionRequestArgs::default()
        .model(model)
        .messages(vec![system.into(), user.into()])
        .max_completion_tokens(3000_u32)
        .response_format(ResponseFormat::JsonSchema {
            json_schema: ResponseFormatJsonSchema {
                description: Some("The facts of an ACORD 25 certificate".to_string()),
                name: "certificate".to_string(),
                schema: schema(),
                strict: Some(true),
            },
        })
        .build()
        .map_err(bad)
}

/// The model's answer, leniently: a missing field reads as absent, but an answer without
/// `lines` is not the asked-for JSON at all.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    #[serde(default)]
    certificate_date: Option<String>,
    #[serde(default)]
    insured: Option<String>,
    #[serde(default)]
    producer: Option<String>,
    #[serde(default)]
    certificate_holder: Option<String>,
    lines: Vec<AnswerLine>,
    #[serde(default)]
    confidence: Vec<Score>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct AnswerLine {
    line: String,
    insurer: Option<String>,
    naic: Option<String>,
    policy_number: Option<String>,
    effective_date: Option<String>,
    expiration_date: Option<String>,
    limits: Vec<AnswerLimit>,
    additional_insured: bool,
    waiver_of_subrogation: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct AnswerLimit {
    limit: String,
    amount: Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Score {
    field: String,
    score: f64,
}

fn read_answer(
    response: CreateChatCompletionResponse,
    source: &Source,
) -> Result<Reading, ReadFailure> {
    let usage = response.usage.as_ref().map(|u| Usage {
        prompt_tokens: u.prompt_tokens,
        completion_tokens: u.completion_tokens,
    });
    let fail = |why: &str| (why.to_string(), usage);
    let Some(choice) = response.choices.into_iter().next() else {
        return Err(fail("The AI answer could not be read: it has no choices."));
    };
    if let Some(refusal) = choice.message.refusal.filter(|r| !r.trim().is_empty()) {
        let refusal: String = refusal.chars().take(300).collect();
        return Err(fail(&format!(
            "The model refused to read the certificate: {refusal}"
        )));
    }
    if choice.finish_reason == Some(FinishReason::Length) {
        return Err(fail(
            "The AI answer could not be read: it was cut off at the token limit.",
        ));
    }
    let text = choice.message.content.unwrap_or_default();
    let answer: Answer = serde_json::from_str(text.trim()).map_err(|e| {
        fail(&format!(
            "The AI answer could not be read: not the asked-for JSON ({e})."
        ))
    })?;
    let mut reading = checked(answer, source);
    reading.model = response.model;
    reading.usage = usage.unwrap_or_default();
    Ok(reading)
}

/// The answer as the coverage form reads a person's typing; each field it refuses is dropped
/// with a note (the model's value and the form's words), and the rest kept.
fn checked(answer: Answer, source: &Source) -> Reading {
    let mut notes = Vec::new();
    let mut form = CoverageForm {
        certificate_date: answer.certificate_date,
        insured: answer.insured,
        producer: answer.producer,
        certificate_holder: answer.certificate_holder,
        lines: answer
            .lines
            .into_iter()
            .map(|l| CoverageLineForm {
                line: l.line,
                insurer: l.insurer,
                naic: l.naic,
                policy_number: l.policy_number,
                effective_date: l.effective_date,
                expiration_date: l.expiration_date,
                limits: l
                    .limits
                    .into_iter()
                    .map(|lim| (lim.limit, lim.amount))
                    .collect(),
                additional_insured: l.additional_insured,
                waiver_of_subrogation: l.waiver_of_subrogation,
            })
            .collect(),
        ..CoverageForm::default()
    };
    let coverage = loop {
        match form.validate() {
            Ok(coverage) => break coverage,
            Err(Refusal::Invalid(errors)) => {
                let mut dropped_lines = Vec::new();
                for (path, messages) in &errors {
                    let value = drop_field(&mut form, path, &mut dropped_lines);
                    notes.push(format!(
                        "{path} was left out: {} (read: {value})",
                        messages.join(" ")
                    ));
                }
                dropped_lines.sort_unstable();
                dropped_lines.dedup();
                for i in dropped_lines.into_iter().rev() {
                    form.lines.remove(i);
                }
                if errors.is_empty() {
                    break Coverage::default();
                }
            }
            Err(_) => break Coverage::default(),
        }
    };
    let scores: BTreeMap<String, f64> = answer
        .confidence
        .into_iter()
        .filter(|s| s.score.is_finite())
        .map(|s| (s.field, s.score.clamp(0.0, 1.0)))
        .collect();
    let confidence = confidence(&coverage, &scores, source);
    Reading {
        coverage,
        confidence,
        notes,
        model: String::new(),
        usage: Usage::default(),
    }
}

/// Removes the field at `path` from the form (a line whose name does not read goes whole,
/// after the others: `dropped_lines`); returns what it held, for the note.
fn drop_field(form: &mut CoverageForm, path: &str, dropped_lines: &mut Vec<usize>) -> String {
    let shown = |v: Option<String>| v.map_or_else(|| "nothing".to_string(), |v| format!("\"{v}\""));
    match path {
        "insured" => return shown(form.insured.take()),
        "producer" => return shown(form.producer.take()),
        "certificateHolder" => return shown(form.certificate_holder.take()),
        "certificateDate" => return shown(form.certificate_date.take()),
        "lines" => {
            form.lines.truncate(Line::ALL.len() * 2);
            return "too many lines".to_string();
        }
        _ => {}
    }
    let Some((index, field)) = path
        .strip_prefix("lines[")
        .and_then(|rest| rest.split_once("]."))
        .and_then(|(i, field)| Some((i.parse::<usize>().ok()?, field)))
    else {
        return "nothing".to_string();
    };
    let Some(line) = form.lines.get_mut(index) else {
        return "nothing".to_string();
    };
    match field {
        "line" => {
            dropped_lines.push(index);
            format!("\"{}\"", line.line)
        }
        "insurer" => shown(line.insurer.take()),
        "naic" => shown(line.naic.take()),
        "policyNumber" => shown(line.policy_number.take()),
        "effectiveDate" => shown(line.effective_date.take()),
        // Dates in the wrong order: neither is trusted.
        "expirationDate" => {
            let effective = line.effective_date.take();
            let expiration = shown(line.expiration_date.take());
            effective.map_or(expiration.clone(), |e| {
                format!("{expiration}, effective \"{e}\"")
            })
        }
        other => other.strip_prefix("limits.").map_or_else(
            || "nothing".to_string(),
            |limit| {
                line.limits
                    .remove(limit)
                    .map_or_else(|| "nothing".to_string(), |v| v.to_string())
            },
        ),
    }
}

/// Each field kept, with the model's confidence (0.5 when it gave none). Read from text, a
/// value that the text does not contain is at most 0.3: the model may have made it up.
fn confidence(
    coverage: &Coverage,
    scores: &BTreeMap<String, f64>,
    source: &Source,
) -> BTreeMap<String, f64> {
    let text = match source {
        Source::Text(text) => Some(squashed(text)),
        Source::Images(_) => None,
    };
    let mut out = BTreeMap::new();
    // `shown`: the ways the value may be printed, looked for in the text; `None` for what text
    // cannot show (a box ticked or not), scored by the model's word alone.
    let mut put = |path: String, shown: Option<Vec<String>>| {
        let mut score = scores.get(&path).copied().unwrap_or(0.5);
        if let (Some(text), Some(shown)) = (&text, shown) {
            if !shown
                .iter()
                .any(|s| !s.is_empty() && text.contains(&squashed(s)))
            {
                score = score.min(0.3);
            }
        }
        out.insert(path, (score * 100.0).round() / 100.0);
    };
    if let Some(date) = coverage.certificate_date {
        put("certificateDate".to_string(), Some(date_forms(date)));
    }
    for (path, value) in [
        ("insured", &coverage.insured),
        ("producer", &coverage.producer),
        ("certificateHolder", &coverage.certificate_holder),
    ] {
        if let Some(value) = value {
            put(path.to_string(), Some(vec![value.clone()]));
        }
    }
    for (i, line) in coverage.lines.iter().enumerate() {
        let at = |name: &str| format!("lines[{i}].{name}");
        for (name, value) in [
            ("insurer", &line.insurer),
            ("naic", &line.naic),
            ("policyNumber", &line.policy_number),
        ] {
            if let Some(value) = value {
                put(at(name), Some(vec![value.clone()]));
            }
        }
        for (name, date) in [
            ("effectiveDate", line.effective_date),
            ("expirationDate", line.expiration_date),
        ] {
            if let Some(date) = date {
                put(at(name), Some(date_forms(date)));
            }
        }
        for name in ["additionalInsured", "waiverOfSubrogation"] {
            put(at(name), None);
        }
        for (limit, amount) in &line.limits {
            put(
                at(&format!("limits.{limit}")),
                Some(vec![amount.to_string()]),
            );
        }
    }
    out
}

/// The ways a certificate prints a date.
fn date_forms(date: chrono::NaiveDate) -> Vec<String> {
    vec![
        date.format("%m/%d/%Y").to_string(),
        date.format("%Y-%m-%d").to_string(),
        date.format("%-m/%-d/%Y").to_string(),
    ]
}

/// Letters and digits only, lower case: "$1,000,000" and "1000000" are the same here.
fn squashed(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Scores are rounded to hundredths: exact values compare.
mod tests {
    use super::*;

    fn answer(value: &Value) -> Answer {
        serde_json::from_value(value.clone()).unwrap()
    }

    #[test]
    fn what_does_not_read_is_dropped_with_a_note_and_the_rest_kept() {
        let text = "INSURED Granite Builders LLC\nPOLICY GL-1\n01/01/2026 01/01/2027\n\
                    EACH OCCURRENCE $ 1,000,000";
        let reading = checked(
            answer(&json!({
                "insured": "Granite Builders LLC",
                "lines": [
                    {"line": "general_liability", "policyNumber": "GL-1",
                     "effectiveDate": "2026-01-01", "expirationDate": "2027-01-01",
                     "limits": [{"limit": "eachOccurrence", "amount": "1,000,000"},
                                {"limit": "generalAggregate", "amount": "lots"}]},
                    {"line": "boat", "policyNumber": "B-1"},
                    {"line": "automobile", "effectiveDate": "2027-01-01",
                     "expirationDate": "2026-01-01", "naic": "12"}
                ],
                "confidence": [{"field": "insured", "score": 0.9},
                               {"field": "lines[0].policyNumber", "score": 2.0}]
            })),
            &Source::Text(text.to_string()),
        );
        let lines: Vec<Line> = reading.coverage.lines.iter().map(|l| l.line).collect();
        assert_eq!(lines, vec![Line::GeneralLiability, Line::Automobile]);
        let gl = &reading.coverage.lines[0];
        assert_eq!(
            gl.limits,
            BTreeMap::from([("eachOccurrence".to_string(), 1_000_000)])
        );
        let auto = &reading.coverage.lines[1];
        assert_eq!(
            (auto.effective_date, auto.expiration_date, &auto.naic),
            (None, None, &None),
            "dates in the wrong order and a bad NAIC are dropped, not guessed"
        );
        assert_eq!(reading.notes.len(), 4, "{:?}", reading.notes);
        assert!(reading.notes.iter().any(|n| n
            .starts_with("lines[0].limits.generalAggregate was left out")
            && n.contains("\"lots\"")));
        assert_eq!(reading.confidence["insured"], 0.9);
        assert_eq!(reading.confidence["lines[0].policyNumber"], 1.0);
        assert_eq!(
            reading.confidence["lines[0].limits.eachOccurrence"], 0.5,
            "no score given, found in the text"
        );
        assert_eq!(
            reading.confidence.get("lines[1].policyNumber"),
            None,
            "nothing there"
        );
        assert_eq!(
            reading.confidence["lines[0].additionalInsured"], 0.5,
            "a box: the model's word (none given) even though the text cannot show it"
        );
    }

    #[test]
    fn a_value_the_text_does_not_hold_is_marked_doubtful() {
        let reading = checked(
            answer(&json!({
                "insured": "Someone Invented Inc",
                "lines": [],
                "confidence": [{"field": "insured", "score": 0.95}]
            })),
            &Source::Text("INSURED Granite Builders LLC".to_string()),
        );
        assert_eq!(reading.confidence["insured"], 0.3);
    }

    #[test]
    fn an_answer_without_lines_is_not_a_certificate() {
        let blog_post = json!({"title": "A post", "content": "Text"});
        assert!(serde_json::from_value::<Answer>(blog_post).is_err());
    }

    #[test]
    fn the_schema_names_every_line_and_limit() {
        let schema = schema();
        let line = &schema["properties"]["lines"]["items"];
        assert_eq!(
            line["properties"]["line"]["enum"].as_array().unwrap().len(),
            Line::ALL.len()
        );
        let limits = &line["properties"]["limits"]["items"]["properties"]["limit"]["enum"];
        assert!(limits
            .as_array()
            .unwrap()
            .contains(&json!("employersLiabilityEachAccident")));
    }

    #[test]
    fn a_pdfs_text_layer_is_read_line_by_line_in_page_order() {
        let pdf = text_pdf(&[
            vec![
                "INSURED: Granite Builders LLC".into(),
                "EACH OCCURRENCE $ 1,000,000".into(),
            ],
            vec!["CERTIFICATE HOLDER: Harbor Property Group".into()],
        ]);
        assert_eq!(
            pdf_text(&pdf).unwrap(),
            "INSURED: Granite Builders LLC\nEACH OCCURRENCE $ 1,000,000\n\
             CERTIFICATE HOLDER: Harbor Property Group"
        );
        assert!(matches!(
            source_of(&pdf, "application/pdf", false),
            Ok(Source::Text(text)) if text.starts_with("INSURED")
        ));
    }

    /// A one-page PDF drawing a 2x1 RGB image (red, blue) stored with Flate.
    fn flate_scan() -> Vec<u8> {
        let mut pixels = Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 2, "Height" => 1,
                "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8,
            },
            vec![255, 0, 0, 0, 0, 255],
        );
        pixels.compress().unwrap();
        one_image_pdf(pixels)
    }

    /// A black-and-white scan of `rows` (`true` is black) as an office scanner stores it:
    /// CCITT group 4.
    fn fax_scan(rows: &[Vec<bool>], filter: &str) -> Vec<u8> {
        let width = u16::try_from(rows[0].len()).unwrap();
        let mut encoder = fax::encoder::Encoder::new(fax::VecWriter::new());
        for row in rows {
            let pels = row.iter().map(|black| {
                if *black {
                    fax::Color::Black
                } else {
                    fax::Color::White
                }
            });
            encoder.encode_line(pels, width).unwrap();
        }
        let data = encoder.finish().unwrap().finish();
        one_image_pdf(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => i64::from(width),
                "Height" => i64::try_from(rows.len()).unwrap(), "ColorSpace" => "DeviceGray",
                "BitsPerComponent" => 1, "Filter" => filter,
                "DecodeParms" => dictionary! {"K" => -1, "Columns" => i64::from(width)},
            },
            data,
        ))
    }

    fn one_image_pdf(image: Stream) -> Vec<u8> {
        let mut doc = Document::with_version("1.5");
        let tree_id = doc.new_object_id();
        let image_id = doc.add_object(image);
        let content = Content {
            operations: vec![Operation::new("Do", vec!["Im1".into()])],
        };
        let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let resources_id =
            doc.add_object(dictionary! {"XObject" => dictionary! {"Im1" => image_id}});
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => tree_id, "Contents" => content_id,
            "Resources" => resources_id,
        });
        doc.objects.insert(
            tree_id,
            Object::Dictionary(dictionary! {
                "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1,
                "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            }),
        );
        let catalog_id = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => tree_id});
        doc.trailer.set("Root", catalog_id);
        let mut out = Vec::new();
        doc.save_to(&mut out).unwrap();
        out
    }

    #[test]
    fn a_scans_flate_pixels_go_as_a_png_of_the_same_pixels() {
        let Ok(Source::Images(urls)) = source_of(&flate_scan(), "application/pdf", true) else {
            panic!("the scan's page image is sent");
        };
        let png = urls[0].strip_prefix("data:image/png;base64,").unwrap();
        let png = base64::engine::general_purpose::STANDARD
            .decode(png)
            .unwrap();
        let picture = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(picture.into_raw(), vec![255, 0, 0, 0, 0, 255]);
    }

    #[test]
    fn a_fax_encoded_scan_goes_as_a_png_of_its_pixels_and_jbig2_is_named() {
        let rows: Vec<Vec<bool>> = (0..12)
            .map(|y| (0..40).map(|x| (x / 4 + y / 3) % 2 == 0).collect())
            .collect();
        let Ok(Source::Images(urls)) =
            source_of(&fax_scan(&rows, "CCITTFaxDecode"), "application/pdf", true)
        else {
            panic!("the scan's page image is sent");
        };
        let png = urls[0].strip_prefix("data:image/png;base64,").unwrap();
        let png = base64::engine::general_purpose::STANDARD
            .decode(png)
            .unwrap();
        let picture = image::load_from_memory(&png).unwrap().to_luma8();
        assert_eq!((picture.width(), picture.height()), (40, 12));
        let expected: Vec<u8> = rows
            .iter()
            .flatten()
            .map(|black| if *black { 0 } else { 255 })
            .collect();
        assert_eq!(picture.into_raw(), expected);

        let refused =
            source_of(&fax_scan(&rows, "JBIG2Decode"), "application/pdf", true).unwrap_err();
        assert!(refused.contains("stored as JBIG2"), "{refused}");
    }

    #[test]
    fn a_picture_or_a_scan_needs_a_model_that_reads_images() {
        let jpeg = [0xFF, 0xD8, 0xFF, 0xE0];
        let refused = source_of(&jpeg, "image/jpeg", false).unwrap_err();
        assert!(refused.contains("does not read images"), "{refused}");
        assert!(matches!(
            source_of(&jpeg, "image/jpeg", true),
            Ok(Source::Images(urls)) if urls[0].starts_with("data:image/jpeg;base64,")
        ));
        assert!(source_of(b"PK", "application/zip", true).is_err());
        assert_eq!(
            source_of(b"not a pdf", "application/pdf", true),
            Err("The PDF could not be read.".to_string())
        );
    }
}
