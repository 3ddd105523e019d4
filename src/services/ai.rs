//! AI drafts of blog posts: one chat completion from any OpenAI-compatible API, through
//! `async-openai`, asking for structured output (title, meta description, tags, Markdown body).
//!
//! The client retries 429s, 5xx answers and refused connections by itself (three retries,
//! 100 ms doubling, `Retry-After` honoured; a 429 for an exhausted quota is not retried); each
//! request has the configured timeout. Whatever goes wrong becomes a [`Failure`] with the reason
//! a job keeps.

use std::time::Duration;

use async_openai::{
    config::OpenAIConfig,
    error::OpenAIError,
    types::chat::{
        ChatCompletionRequestSystemMessageArgs, ChatCompletionRequestUserMessageArgs,
        CreateChatCompletionRequestArgs, CreateChatCompletionResponse, FinishReason,
        ResponseFormat, ResponseFormatJsonSchema,
    },
    Client,
};
use serde::Deserialize;

use crate::settings::AiSettings;

/// What a draft is to be about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brief {
    pub keywords: Vec<String>,
    pub category: String,
    pub tone: String,
    pub word_count: u32,
}

/// The model's answer, as the structured output asks for it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Draft {
    pub title: String,
    pub meta_description: String,
    pub tags: Vec<String>,
    /// Markdown.
    pub content: String,
}

/// Tokens a request used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
}

/// A draft and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    pub draft: Draft,
    pub model: String,
    pub usage: Usage,
}

/// Why no draft came back: the reason a failed job keeps.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    #[error("The AI service did not answer within {0} seconds")]
    Timeout(u64),
    #[error("The AI service kept answering 429 (rate limited) after retries: {0}")]
    RateLimited(String),
    #[error("The AI service failed (HTTP {status}) after retries: {message}")]
    ServerError { status: u16, message: String },
    #[error("The AI service refused the request (HTTP {status}): {message}")]
    Rejected { status: u16, message: String },
    #[error("AI is not configured on this server (OPENAI_API_KEY)")]
    NotConfigured,
    #[error("The AI service could not be reached: {0}")]
    Unreachable(String),
    #[error("The model refused to write the post: {0}")]
    Refused(String),
    #[error("The AI answer could not be read as a post: {0}")]
    Unparseable(String),
}

/// The configured AI service.
#[derive(Clone)]
pub struct Ai {
    client: Client<OpenAIConfig>,
    settings: AiSettings,
}

impl Ai {
    /// The client for these settings, or `None` when no key is configured.
    ///
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn from_settings(settings: &AiSettings) -> Result<Option<Self>, String> {
        if !settings.is_enabled() {
            return Ok(None);
        }
        crate::install_tls_provider();
        let mut config = OpenAIConfig::new().with_api_key(settings.api_key.trim());
        if !settings.base_url.trim().is_empty() {
            config = config.with_api_base(settings.base_url.trim().trim_end_matches('/'));
        }
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(settings.timeout_seconds.max(1)))
            .build()
            .map_err(|e| format!("the AI HTTP client: {e}"))?;
        Ok(Some(Self {
            client: Client::build(http, config),
            settings: settings.clone(),
        }))
    }

    #[must_use]
    pub fn model(&self) -> &str {
        &self.settings.model
    }

    /// Millionths of a US dollar the usage cost, at the configured prices.
    #[must_use]
    pub fn cost_micros(&self, usage: Usage) -> i64 {
        let cost = f64::from(usage.prompt_tokens) * self.settings.input_usd_per_million_tokens
            + f64::from(usage.completion_tokens) * self.settings.output_usd_per_million_tokens;
        // Whole micro-dollars: a post costs well under the range where f64 loses them.
        #[allow(clippy::cast_possible_truncation)]
        let micros = cost.round() as i64;
        micros
    }

    /// Asks for one draft.
    ///
    /// # Errors
    /// The [`Failure`], with the usage when an answer came back but was no post.
    pub async fn draft(&self, brief: &Brief) -> Result<Generated, (Failure, Option<Usage>)> {
        let request = request(&self.settings.model, brief).map_err(|e| (e, None))?;
        let response = self.complete(request).await.map_err(|e| (e, None))?;
        read_answer(response)
    }

    /// Sends one chat completion request as it is.
    ///
    /// # Errors
    /// The [`Failure`] of the call.
    pub async fn complete(
        &self,
        request: async_openai::types::chat::CreateChatCompletionRequest,
    ) -> Result<CreateChatCompletionResponse, Failure> {
        self.client
            .chat()
            .create(request)
            .await
            .map_err(|e| self.failure(e))
    }

    /// Whether the configured model reads images (`settings.ai.vision`).
    #[must_use]
    pub const fn reads_images(&self) -> bool {
        self.settings.vision
    }

    fn failure(&self, error: OpenAIError) -> Failure {
        match error {
            OpenAIError::Reqwest(e) if e.is_timeout() => {
                Failure::Timeout(self.settings.timeout_seconds)
            }
            OpenAIError::Reqwest(e) => Failure::Unreachable(e.to_string()),
            OpenAIError::ApiError(e) if e.status_code.as_u16() == 429 => {
                Failure::RateLimited(e.api_error.message)
            }
            OpenAIError::ApiError(e) if e.status_code.is_server_error() => Failure::ServerError {
                status: e.status_code.as_u16(),
                message: clip(&e.api_error.message, 200),
            },
            OpenAIError::ApiError(e) => Failure::Rejected {
                status: e.status_code.as_u16(),
                message: clip(&e.api_error.message, 200),
            },
            OpenAIError::JSONDeserialize(e, _) => Failure::Unparseable(e.to_string()),
            other => Failure::Unreachable(other.to_string()),
        }
    }
}

/// US dollars of a cost kept in millionths of a dollar (`cost_micros`), for the screens.
#[must_use]
#[allow(clippy::cast_precision_loss)] // Exact far beyond any AI bill.
pub fn dollars(micros: i64) -> f64 {
    micros as f64 / 1_000_000.0
}

fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

const SYSTEM_PROMPT: &str = "You write blog posts for Vendorwatch, a vendor compliance tracker \
used by office managers to keep vendors' W-9s, certificates of insurance, sales tax \
certificates and vendor agreements current. Write accurate, practical articles in Markdown: \
## and ### headings, short paragraphs, lists where they help, no HTML, no front matter, and \
no title heading (the title is a separate field). Do not invent statistics or quote laws you \
are unsure of.";

fn prompt(brief: &Brief) -> String {
    format!(
        "Write a blog post of about {words} words in a {tone} tone for the category \
         \"{category}\".\nTarget keywords: {keywords}.\nUse the first keyword in the title and \
         in the first paragraph, and the others naturally in the text.\nAnswer with the title \
         (at most 70 characters), a meta description (at most 155 characters), 3 to 6 short \
         lowercase tags, and the Markdown body.",
        words = brief.word_count,
        tone = brief.tone,
        category = brief.category,
        keywords = brief.keywords.join(", "),
    )
}

fn schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "metaDescription": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "content": {"type": "string"}
        },
        "required": ["title", "metaDescription", "tags", "content"],
        "additionalProperties": false
    })
}

fn request(
    model: &str,
    brief: &Brief,
) -> Result<async_openai::types::chat::CreateChatCompletionRequest, Failure> {
    let bad = |e: async_openai::error::OpenAIError| Failure::Unreachable(e.to_string());
    let system = ChatCompletionRequestSystemMessageArgs::default()
        .content(SYSTEM_PROMPT)
        .build()
        .map_err(bad)?;
    let user = ChatCompletionRequestUserMessageArgs::default()
        .content(prompt(brief))
        .build()
        .map_err(bad)?;
    // Room for the asked-for length (a word is about 1.4 tokens) and the other fields.
    let max_tokens = brief.word_count.saturating_mul(2).saturating_add(800);
    CreateChatCompletionRequestArgs::default()
        .model(model)
        .messages(vec![system.into(), user.into()])
        .max_completion_tokens(max_tokens)
        .response_format(ResponseFormat::JsonSchema {
            json_schema: ResponseFormatJsonSchema {
                description: Some("A blog post draft".to_string()),
                name: "blog_post".to_string(),
                schema: schema(),
                strict: Some(true),
            },
        })
        .build()
        .map_err(bad)
}

/// The draft in an answer, or why there is none.
fn read_answer(
    response: CreateChatCompletionResponse,
) -> Result<Generated, (Failure, Option<Usage>)> {
    let usage = response.usage.as_ref().map(|u| Usage {
        prompt_tokens: u.prompt_tokens,
        completion_tokens: u.completion_tokens,
    });
    let fail = |f: Failure| (f, usage);
    let Some(choice) = response.choices.into_iter().next() else {
        return Err(fail(Failure::Unparseable(
            "the answer has no choices".into(),
        )));
    };
    if let Some(refusal) = choice.message.refusal.filter(|r| !r.trim().is_empty()) {
        return Err(fail(Failure::Refused(clip(&refusal, 300))));
    }
    match choice.finish_reason {
        Some(FinishReason::ContentFilter) => {
            return Err(fail(Failure::Refused(
                "stopped by the content filter".into(),
            )));
        }
        Some(FinishReason::Length) => {
            return Err(fail(Failure::Unparseable(
                "the answer was cut off at the token limit".into(),
            )));
        }
        _ => {}
    }
    let text = choice.message.content.unwrap_or_default();
    let draft: Draft = serde_json::from_str(text.trim()).map_err(|e| {
        fail(Failure::Unparseable(format!(
            "not the asked-for JSON ({e})"
        )))
    })?;
    if draft.title.trim().is_empty() || draft.content.trim().is_empty() {
        return Err(fail(Failure::Unparseable(
            "the title or the body is empty".into(),
        )));
    }
    Ok(Generated {
        draft,
        model: response.model,
        usage: usage.unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief() -> Brief {
        Brief {
            keywords: vec!["coi tracking".into(), "vendor insurance".into()],
            category: "Vendor Management".into(),
            tone: "professional".into(),
            word_count: 1200,
        }
    }

    #[test]
    fn the_request_carries_the_model_keywords_length_and_schema() {
        let body = serde_json::to_value(request("gpt-test", &brief()).unwrap()).unwrap();
        assert_eq!(body["model"], "gpt-test");
        let user = body["messages"][1]["content"].as_str().unwrap();
        assert!(user.contains("about 1200 words"), "{user}");
        assert!(user.contains("coi tracking, vendor insurance"), "{user}");
        assert!(user.contains("professional tone"), "{user}");
        assert_eq!(body["response_format"]["type"], "json_schema");
        assert_eq!(
            body["response_format"]["json_schema"]["schema"]["required"],
            serde_json::json!(["title", "metaDescription", "tags", "content"])
        );
    }

    #[test]
    fn the_cost_is_tokens_times_the_prices() {
        let ai = Ai::from_settings(&AiSettings {
            api_key: "k".into(),
            ..AiSettings::default()
        })
        .unwrap()
        .unwrap();
        // 1,000 prompt tokens at $0.15/M and 2,000 completion tokens at $0.60/M: $0.00135.
        assert_eq!(
            ai.cost_micros(Usage {
                prompt_tokens: 1000,
                completion_tokens: 2000
            }),
            1350
        );
    }
}
