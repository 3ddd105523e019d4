//! A server of the tests' own that answers like `OpenAI`'s chat completions API
//! (`POST /v1/chat/completions`, objects shaped as the API reference publishes them), scripted
//! answer by answer: a good draft, a rate limit, a server error, a slow answer, a refusal, text
//! that is not the asked-for JSON. It records every request it gets.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
    Json, Router,
};
use serde_json::{json, Value};

pub const API_KEY: &str = "sk-test-vendorwatch";
pub const MODEL: &str = "gpt-4o-mini";
pub const PROMPT_TOKENS: u32 = 412;
pub const COMPLETION_TOKENS: u32 = 1630;

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A draft whose fields are these (title, meta description, tags, Markdown).
    Draft(Value),
    /// A draft about the request's first keyword (a certificate request: what its text says).
    DraftForRequest,
    /// An error status with `OpenAI`'s error object.
    Status(u16),
    /// A draft, after this long.
    Slow(Duration),
    Refusal(String),
    /// Content that is not the asked-for JSON.
    Text(String),
}

#[derive(Default)]
struct Fake {
    script: VecDeque<Answer>,
    requests: Vec<Value>,
}

/// The running server; `url` (with `/v1`) goes into `settings.ai.base_url`.
#[derive(Clone)]
pub struct OpenAiFake {
    pub url: String,
    state: Arc<Mutex<Fake>>,
}

type Shared = Arc<Mutex<Fake>>;

fn error(status: u16) -> Response {
    let (kind, code, message) = match status {
        429 => (
            "requests",
            json!("rate_limit_exceeded"),
            "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.",
        ),
        401 => (
            "invalid_request_error",
            json!("invalid_api_key"),
            "Incorrect API key provided.",
        ),
        _ => (
            "server_error",
            Value::Null,
            "The server had an error while processing your request. Sorry about that!",
        ),
    };
    (
        StatusCode::from_u16(status).unwrap(),
        Json(json!({"error": {"message": message, "type": kind, "param": null, "code": code}})),
    )
        .into_response()
}

fn completion(content: Option<&str>, refusal: Option<&str>, model: &str) -> Response {
    Json(json!({
        "id": format!("chatcmpl-{}", uuid::Uuid::new_v4().simple()),
        "object": "chat.completion",
        "created": chrono::Utc::now().timestamp(),
        "model": format!("{model}-2024-07-18"),
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": refusal, "annotations": []},
            "logprobs": null,
            "finish_reason": "stop"
        }],
        "usage": {
            "prompt_tokens": PROMPT_TOKENS,
            "completion_tokens": COMPLETION_TOKENS,
            "total_tokens": PROMPT_TOKENS + COMPLETION_TOKENS,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
        },
        "service_tier": "default",
        "system_fingerprint": "fp_vendorwatch"
    }))
    .into_response()
}

/// A draft about the first target keyword named in the request's prompt.
fn draft_for(request: &Value) -> Value {
    let prompt = request["messages"][1]["content"]
        .as_str()
        .unwrap_or_default();
    let keyword = prompt
        .split("Target keywords: ")
        .nth(1)
        .and_then(|rest| rest.split([',', '.', '\n']).next())
        .unwrap_or("vendor compliance")
        .trim()
        .to_string();
    json!({
        "title": format!("A practical guide to {keyword}"),
        "metaDescription": format!("What office managers need to know about {keyword}."),
        "tags": ["Compliance", "vendors", "compliance"],
        "content": format!("Keeping on top of **{keyword}** saves time.\n\n## Why it matters\n\nA lapsed document leaves you exposed.\n\n## Steps\n\n- Collect\n- Track\n- Renew\n")
    })
}

/// What an ACORD 25 certificate's text says, read line by line the way the tests' PDFs lay it
/// out (`support::certificates`): only from the text sent, nothing invented.
fn certificate_for(request: &Value) -> Value {
    let text = request["messages"][1]["content"]
        .as_str()
        .unwrap_or_default();
    let after = |line: &str, label: &str| -> Option<String> {
        line.split_once(label).map(|(_, v)| v.trim().to_string())
    };
    let iso = |us: &str| -> Value {
        let parts: Vec<&str> = us.trim().split('/').collect();
        match parts.as_slice() {
            [m, d, y] => json!(format!("{y}-{m:0>2}-{d:0>2}")),
            _ => json!(us),
        }
    };
    let mut out = json!({"certificateDate": null, "insured": null, "producer": null,
        "certificateHolder": null, "lines": [], "confidence": []});
    let mut insurers: Vec<(String, String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(date) = after(line, "DATE (MM/DD/YYYY)") {
            out["certificateDate"] = iso(&date);
        } else if let Some(v) = after(line, "PRODUCER:") {
            out["producer"] = json!(v);
        } else if let Some(v) = after(line, "INSURED:") {
            out["insured"] = json!(v);
        } else if let Some(v) = after(line, "CERTIFICATE HOLDER:") {
            out["certificateHolder"] = json!(v);
        } else if let Some(rest) = line.strip_prefix("INSURER ") {
            // INSURER A: Hartford Fire Insurance Co NAIC # 19682
            let (letter, rest) = rest.split_once(':').unwrap_or(("", rest));
            let (name, naic) = rest.split_once("NAIC #").unwrap_or((rest, ""));
            insurers.push((letter.trim().into(), name.trim().into(), naic.trim().into()));
        } else if line.contains(" | POLICY ") {
            let cells: Vec<&str> = line.split(" | ").map(str::trim).collect();
            let kind = match cells[0] {
                "COMMERCIAL GENERAL LIABILITY" => "general_liability",
                "AUTOMOBILE LIABILITY" => "automobile",
                "WORKERS COMPENSATION" => "workers_comp",
                "UMBRELLA LIAB" => "umbrella",
                "PROFESSIONAL LIABILITY" => "professional",
                other => other,
            };
            let cell = |label: &str| {
                cells
                    .iter()
                    .find_map(|c| c.strip_prefix(label).map(str::trim))
                    .unwrap_or_default()
            };
            let insurer = insurers.iter().find(|(l, _, _)| l == cell("INSR "));
            out["lines"].as_array_mut().unwrap().push(json!({
                "line": kind,
                "insurer": insurer.map(|i| i.1.clone()),
                "naic": insurer.map(|i| i.2.clone()),
                "policyNumber": cell("POLICY "),
                "effectiveDate": iso(cell("EFF ")),
                "expirationDate": iso(cell("EXP ")),
                "limits": [],
                "additionalInsured": cell("ADDL INSD ") == "Y",
                "waiverOfSubrogation": cell("SUBR WVD ") == "Y",
            }));
        } else if let Some((label, amount)) = line.split_once(" $ ") {
            let limit = match label.trim() {
                "EACH OCCURRENCE" => "eachOccurrence",
                "GENERAL AGGREGATE" => "generalAggregate",
                "PRODUCTS - COMP/OP AGG" => "productsCompletedOps",
                "COMBINED SINGLE LIMIT" => "combinedSingleLimit",
                "E.L. EACH ACCIDENT" => "employersLiabilityEachAccident",
                "AGGREGATE" => "aggregate",
                "EACH CLAIM" => "eachClaim",
                other => other,
            };
            if let Some(last) = out["lines"].as_array_mut().unwrap().last_mut() {
                last["limits"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"limit": limit, "amount": amount.trim()}));
            }
        }
    }
    out["confidence"] = json!([{"field": "insured", "score": 0.95}]);
    out
}

fn is_certificate(request: &Value) -> bool {
    request["response_format"]["json_schema"]["name"] == "certificate"
}

/// The answer a request gets when nothing else is scripted: a certificate's facts for a
/// certificate request, else a draft about the request's first keyword.
fn natural(request: &Value) -> Value {
    if is_certificate(request) {
        certificate_for(request)
    } else {
        draft_for(request)
    }
}

async fn completions(
    State(state): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if headers.get("authorization").and_then(|v| v.to_str().ok())
        != Some(format!("Bearer {API_KEY}").as_str())
    {
        return error(401);
    }
    let answer = {
        let mut fake = state.lock().unwrap();
        fake.requests.push(body.clone());
        fake.script.pop_front().unwrap_or(Answer::DraftForRequest)
    };
    let model = body["model"].as_str().unwrap_or(MODEL).to_string();
    match answer {
        Answer::Draft(draft) => completion(Some(&draft.to_string()), None, &model),
        Answer::DraftForRequest => completion(Some(&natural(&body).to_string()), None, &model),
        Answer::Status(status) => error(status),
        Answer::Slow(wait) => {
            tokio::time::sleep(wait).await;
            completion(Some(&natural(&body).to_string()), None, &model)
        }
        Answer::Refusal(text) => completion(None, Some(&text), &model),
        Answer::Text(text) => completion(Some(&text), None, &model),
    }
}

impl OpenAiFake {
    pub async fn start() -> Self {
        let state: Shared = Arc::default();
        let app = Router::new()
            .route("/v1/chat/completions", post(completions))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { url, state }
    }

    /// The next answers, in order; afterwards every request gets a draft about its keyword.
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) {
        self.state.lock().unwrap().script.extend(answers);
    }

    /// The request bodies received, oldest first.
    pub fn requests(&self) -> Vec<Value> {
        self.state.lock().unwrap().requests.clone()
    }
}

/// Points the app's AI settings at the fake (1 s timeout, so a slow answer fails fast).
pub fn configure(config: &mut loco_rs::config::Config, fake: &OpenAiFake) {
    let settings = config.settings.get_or_insert_with(|| json!({}));
    settings["ai"] = json!({
        "api_key": API_KEY,
        "base_url": fake.url,
        "model": MODEL,
        "timeout_seconds": 1,
    });
}
