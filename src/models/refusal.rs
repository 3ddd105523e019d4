//! Why the product refuses something, in its own words and free of HTTP. Models return these
//! (inside Loco's `Error`, by `?` or `.into()`); `crate::errors` alone turns each into a
//! status and a code.

use std::collections::BTreeMap;

/// Field name -> human messages, as sent in the envelope's `errors`.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// Nothing of that id in the caller's organization (or nothing at all).
    #[error("We could not find what you asked for.")]
    NotFound,
    /// Fields that fail their rules, each with its messages.
    #[error("{}", first_message(.0))]
    Invalid(FieldErrors),
    /// The organization's plan does not allow more.
    #[error("{0}")]
    PlanLimit(String),
    /// A Professional feature asked for by an organization on another plan.
    #[error("{0}")]
    PlanRequired(String),
    /// A unique value already in use (a company key).
    #[error("{message}")]
    Taken { code: &'static str, message: String },
    #[error("The file is empty.")]
    EmptyFile,
    #[error("Only PDF, DOC, DOCX, PNG, JPG, HEIC, TIFF and WebP files are accepted.")]
    UnsupportedFileType,
    /// A PDF that opens only with a password: no one here could read it.
    #[error(
        "This PDF is password-protected. Please upload it without a password (open it, then \
         save or print it as a new PDF)."
    )]
    PasswordProtectedPdf,
    /// A genuine signed link past its time.
    #[error("This link has expired. Reload the page to see the document again.")]
    LinkExpired,
    /// The caller's role in their organization does not allow this call.
    #[error("{0}")]
    ForbiddenRole(String),
    /// An invitation link that is unknown, used, revoked or expired (not told apart).
    #[error("This invitation link is not valid. It may have been used, revoked or have expired; ask for a new one.")]
    InvitationNotFound,
    /// Something done at most once a day (asking a vendor for corrections) was done today.
    #[error("{0}")]
    AlreadyRequested(String),
    /// The content is an accepted type, but not the one the name's extension says.
    #[error("{0}")]
    FileTypeMismatch(String),
}

impl Refusal {
    /// One field that fails one rule.
    #[must_use]
    pub fn field(name: &str, message: &str) -> Self {
        Self::Invalid(FieldErrors::from([(
            name.to_string(),
            vec![message.to_string()],
        )]))
    }
}

fn first_message(fields: &FieldErrors) -> &str {
    fields
        .values()
        .flatten()
        .next()
        .map_or("The request has invalid fields.", String::as_str)
}
