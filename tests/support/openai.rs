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
    /// A draft about the request's first keyword.
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
        Answer::DraftForRequest => completion(Some(&draft_for(&body).to_string()), None, &model),
        Answer::Status(status) => error(status),
        Answer::Slow(wait) => {
            tokio::time::sleep(wait).await;
            completion(Some(&draft_for(&body).to_string()), None, &model)
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
