//! One error path for every `/api/*` failure: handlers and extractors fail with [`ApiError`],
//! built by the small constructors below, and it leaves as the envelope
//! `{"error": "<machine_code>", "message": "<one human sentence>", "errors": {"field": [...]}}`
//! (docs/architecture.md, "The error path"). Models refuse with a [`Refusal`], which knows nothing of
//! HTTP; `From<Refusal> for Error` below is the one place a refusal becomes a status.

use axum::http::{header, HeaderValue, StatusCode};
use loco_rs::{controller::ErrorDetail, prelude::*};

mod envelope;

pub use crate::models::refusal::{FieldErrors, Refusal};
pub use envelope::{api_envelope, Envelope};

/// What every handler and extractor of ours fails with: Loco's error, answered in the envelope
/// and logged at the level its status deserves. A client's mistake (4xx) is expected and logged
/// at debug (a rate limit at info); only a fault of ours (5xx) is logged at error, with its
/// details. Loco's own `IntoResponse` would log every error, 404s and 422s included, at error.
#[derive(Debug)]
pub struct ApiError {
    error: Error,
    /// What some answers carry besides the envelope (boxed: most errors have none, and a
    /// handler's `Result` stays small).
    extra: Option<Box<Extra>>,
}

#[derive(Debug, Default)]
struct Extra {
    /// Seconds the client should wait, sent as `Retry-After`.
    retry_after: Option<u64>,
    /// Documented fields beside `error` and `message` (the portal's `valid: false`).
    fields: serde_json::Map<String, serde_json::Value>,
}

/// The result of a handler.
pub type ApiResult<T = Response> = std::result::Result<T, ApiError>;

impl<E> From<E> for ApiError
where
    Error: From<E>,
{
    fn from(err: E) -> Self {
        Self {
            error: Error::from(err),
            extra: None,
        }
    }
}

fn blank() -> ErrorDetail {
    ErrorDetail {
        error: None,
        description: None,
        errors: None,
    }
}

/// The status and the public detail of an error.
fn public(error: Error) -> (StatusCode, ErrorDetail) {
    match error {
        Error::CustomError(status, detail) => (status, detail),
        Error::WithBacktrace { inner, .. } => public(*inner),
        Error::NotFound | Error::Model(ModelError::EntityNotFound) => {
            (StatusCode::NOT_FOUND, blank())
        }
        Error::Unauthorized(_) => (StatusCode::UNAUTHORIZED, blank()),
        Error::BadRequest(message) => (
            StatusCode::BAD_REQUEST,
            ErrorDetail::new("bad_request", &message),
        ),
        Error::JsonRejection(rejection) => (rejection.status(), blank()),
        Error::Model(ModelError::EntityAlreadyExists) => (StatusCode::CONFLICT, blank()),
        Error::DB(e) | Error::Model(ModelError::DbErr(e)) if database_unreachable(&e) => (
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorDetail::new(
                "service_unavailable",
                "The service is briefly unavailable. Please try again in a moment.",
            ),
        ),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, blank()),
    }
}

/// Seconds a client is asked to wait when the database cannot be reached.
const DATABASE_RETRY_AFTER_SECS: u64 = 5;

/// A database that cannot be reached (stopped, restarting, its connections cut, or none free
/// within the pool's timeout): the request may succeed in a moment, so a 503 with Retry-After
/// rather than a 500 (the faults command restarts `PostgreSQL` under load).
fn database_unreachable(err: &sea_orm::DbErr) -> bool {
    use sea_orm::{sqlx, DbErr, RuntimeErr};
    let down = |e: &RuntimeErr| match e {
        RuntimeErr::SqlxError(e) => match &**e {
            sqlx::Error::Io(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            // PostgreSQL shutting down or starting up (57P01-57P03), a connection exception
            // (class 08).
            sqlx::Error::Database(d) => d
                .code()
                .is_some_and(|c| c.starts_with("57P0") || c.starts_with("08")),
            _ => false,
        },
        RuntimeErr::Internal(_) => false,
    };
    match err {
        DbErr::ConnectionAcquire(_) => true,
        DbErr::Conn(e) | DbErr::Exec(e) | DbErr::Query(e) => down(e),
        _ => false,
    }
}

impl ApiError {
    /// The same error with a documented field beside `error` and `message`.
    #[must_use]
    pub fn with_field(mut self, name: &str, value: serde_json::Value) -> Self {
        self.extra
            .get_or_insert_default()
            .fields
            .insert(name.to_string(), value);
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (msg, details) = (self.error.to_string(), format!("{:?}", self.error));
        let (status, detail) = public(self.error);
        let mut extra = self.extra.map(|e| *e).unwrap_or_default();
        if detail.error.as_deref() == Some("service_unavailable") && extra.retry_after.is_none() {
            extra.retry_after = Some(DATABASE_RETRY_AFTER_SECS);
        }
        if status.is_server_error() {
            tracing::error!(error.msg = msg, error.details = details, %status, "request failed");
        } else if status == StatusCode::TOO_MANY_REQUESTS {
            tracing::info!(error.msg = msg, %status, "request refused");
        } else {
            tracing::debug!(error.msg = msg, %status, "request refused");
        }
        let mut res = if status.is_server_error() && !envelope::says_what_to_do(status) {
            envelope::envelope_response(status, &envelope::normalize(status, b""), None)
        } else {
            let body = Envelope {
                error: detail
                    .error
                    .filter(|c| !c.is_empty())
                    .unwrap_or_else(|| envelope::default_code(status).to_string()),
                message: detail
                    .description
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| envelope::default_message(status).to_string()),
                errors: detail.errors.filter(serde_json::Value::is_object),
            };
            envelope::envelope_response(status, &body, Some(extra.fields))
        };
        if let Some(secs) = extra.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        res
    }
}

/// An error with our own status, code and message.
#[must_use]
pub fn api_error(status: StatusCode, code: &str, message: &str) -> Error {
    Error::CustomError(status, ErrorDetail::new(code, message))
}

/// A 400: the request cannot be read as it is.
#[must_use]
pub fn bad_request(code: &str, message: &str) -> Error {
    api_error(StatusCode::BAD_REQUEST, code, message)
}

/// A 401 with our own code and sentence.
#[must_use]
pub fn unauthorized(code: &str, message: &str) -> Error {
    api_error(StatusCode::UNAUTHORIZED, code, message)
}

/// A 402: the organization's plan does not allow this.
#[must_use]
pub fn payment_required(message: &str) -> Error {
    api_error(StatusCode::PAYMENT_REQUIRED, "plan_limit", message)
}

#[must_use]
pub fn not_found() -> Error {
    api_error(
        StatusCode::NOT_FOUND,
        "not_found",
        "We could not find what you asked for.",
    )
}

#[must_use]
pub fn conflict(code: &str, message: &str) -> Error {
    api_error(StatusCode::CONFLICT, code, message)
}

/// A 413: the uploaded file is past `MAX_UPLOAD_BYTES` (the figure stated is that number's).
#[must_use]
pub fn payload_too_large() -> Error {
    api_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        &format!(
            "The file is too large. The limit is {}.",
            crate::controllers::body_limit::size_text(crate::models::file_type::MAX_UPLOAD_BYTES)
        ),
    )
}

/// A 503: billing calls with no Stripe key configured (the default set-up).
#[must_use]
pub fn billing_not_configured() -> Error {
    api_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "billing_not_configured",
        "Online payment is not set up on this server. An administrator can change the plan.",
    )
}

/// A 503: AI generation with no AI key configured (the default set-up).
#[must_use]
pub fn ai_not_configured() -> Error {
    api_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "ai_not_configured",
        "AI is not configured on this server. Set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible service) and restart it.",
    )
}

/// A 429 that tells the client how long to wait.
#[must_use]
pub fn rate_limited(retry_after_secs: u64) -> ApiError {
    let mut err = ApiError::from(api_error(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        "Too many attempts. Please wait a moment and try again.",
    ));
    err.extra = Some(Box::new(Extra {
        retry_after: Some(retry_after_secs),
        ..Extra::default()
    }));
    err
}

/// A 422 naming each field that failed and why; the message is the first field message.
#[must_use]
pub fn validation(errors: FieldErrors) -> Error {
    let message = errors
        .values()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_else(|| "The request has invalid fields.".to_string());
    Error::CustomError(
        StatusCode::UNPROCESSABLE_ENTITY,
        ErrorDetail {
            error: Some("validation_failed".to_string()),
            description: Some(message),
            errors: serde_json::to_value(errors).ok(),
        },
    )
}

/// A 422 for a single field.
#[must_use]
pub fn field_error(field: &str, message: &str) -> Error {
    Refusal::field(field, message).into()
}

/// The one place a model's refusal becomes an HTTP status, code and sentence.
impl From<Refusal> for Error {
    fn from(refusal: Refusal) -> Self {
        let message = refusal.to_string();
        match refusal {
            Refusal::NotFound => not_found(),
            Refusal::Invalid(fields) => validation(fields),
            Refusal::PlanLimit(_) => payment_required(&message),
            Refusal::PlanRequired(_) => {
                api_error(StatusCode::PAYMENT_REQUIRED, "plan_required", &message)
            }
            Refusal::Taken { code, .. } => conflict(code, &message),
            Refusal::EmptyFile => {
                api_error(StatusCode::UNPROCESSABLE_ENTITY, "empty_file", &message)
            }
            Refusal::AlreadyRequested(_) => {
                api_error(StatusCode::TOO_MANY_REQUESTS, "already_requested", &message)
            }
            Refusal::FileTypeMismatch(_) => api_error(
                StatusCode::UNPROCESSABLE_ENTITY,
                "file_type_mismatch",
                &message,
            ),
            Refusal::PasswordProtectedPdf => api_error(
                StatusCode::UNPROCESSABLE_ENTITY,
                "password_protected_pdf",
                &message,
            ),
            Refusal::LinkExpired => api_error(StatusCode::GONE, "link_expired", &message),
            Refusal::ForbiddenRole(_) => {
                api_error(StatusCode::FORBIDDEN, "forbidden_role", &message)
            }
            Refusal::InvitationNotFound => {
                api_error(StatusCode::NOT_FOUND, "invitation_not_found", &message)
            }
            Refusal::UnsupportedFileType => api_error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_file_type",
                &message,
            ),
        }
    }
}

/// Turns `validator` results into our field errors (first message of each rule).
#[must_use]
pub fn from_validator(errs: &validator::ValidationErrors) -> FieldErrors {
    errs.field_errors()
        .into_iter()
        .map(|(field, list)| {
            let messages = list
                .iter()
                .map(|e| {
                    e.message
                        .as_ref()
                        .map_or_else(|| format!("{field} is invalid"), ToString::to_string)
                })
                .collect();
            (field.to_string(), messages)
        })
        .collect()
}

/// Validates a request body with its `validator` rules, as a 422 envelope on failure.
///
/// # Errors
/// A 422 `validation_failed` naming each invalid field.
pub fn validate<T: Validate>(params: &T) -> Result<()> {
    validator::Validate::validate(params).map_err(|e| validation(from_validator(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_keeps_field_errors_and_leads_with_the_first_message() {
        let Error::CustomError(status, detail) =
            field_error("password", "Password must be at least 6 characters")
        else {
            panic!("expected a custom error");
        };
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            detail.description.as_deref(),
            Some("Password must be at least 6 characters")
        );
        assert_eq!(
            detail.errors,
            Some(serde_json::json!({"password": ["Password must be at least 6 characters"]}))
        );
    }

    #[test]
    fn an_unreachable_database_is_a_503_to_retry_and_other_database_errors_a_500() {
        use sea_orm::{sqlx, ConnAcquireErr, DbErr, RuntimeErr};
        let answer = |e: DbErr| ApiError::from(Error::DB(e)).into_response();
        let pool = |e: sqlx::Error| DbErr::Query(RuntimeErr::SqlxError(std::sync::Arc::new(e)));
        for down in [
            DbErr::ConnectionAcquire(ConnAcquireErr::Timeout),
            pool(sqlx::Error::PoolTimedOut),
            pool(sqlx::Error::Io(std::io::Error::from(
                std::io::ErrorKind::ConnectionRefused,
            ))),
        ] {
            let res = answer(down);
            assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(res.headers()[header::RETRY_AFTER], "5");
        }
        for other in [
            DbErr::RecordNotUpdated,
            pool(sqlx::Error::RowNotFound),
            DbErr::Custom("bug".into()),
        ] {
            let res = answer(other);
            assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
            assert!(res.headers().get(header::RETRY_AFTER).is_none());
        }
    }

    #[test]
    fn each_refusal_has_its_status() {
        let status = |r: Refusal| match Error::from(r) {
            Error::CustomError(status, _) => status,
            other => panic!("expected a custom error, got {other:?}"),
        };
        assert_eq!(status(Refusal::NotFound), StatusCode::NOT_FOUND);
        assert_eq!(
            status(Refusal::PlanLimit("limit".into())),
            StatusCode::PAYMENT_REQUIRED
        );
        assert_eq!(
            status(Refusal::UnsupportedFileType),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        assert_eq!(status(Refusal::EmptyFile), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            status(Refusal::PasswordProtectedPdf),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(status(Refusal::LinkExpired), StatusCode::GONE);
        assert_eq!(
            status(Refusal::ForbiddenRole("no".into())),
            StatusCode::FORBIDDEN
        );
        assert_eq!(status(Refusal::InvitationNotFound), StatusCode::NOT_FOUND);
        assert_eq!(
            status(Refusal::Taken {
                code: "company_key_taken",
                message: "taken".into()
            }),
            StatusCode::CONFLICT
        );
    }
}
