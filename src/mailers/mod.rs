//! Email. Every message is a template folder (`subject.t`, `html.t`, `text.t`) rendered here,
//! with values HTML-escaped in `html.t` (vendor names are user input). With SMTP (or the test
//! stub) configured the message goes through Loco's mailer queue and worker; with none
//! configured it is written to the outbox folder and logged, so a person trying the app sees
//! exactly what would have been sent.

pub mod auth;
pub mod billing;
pub mod portal;
pub mod reminders;
pub mod reports;
pub mod vendors;

use std::path::PathBuf;

use lettre::message::{Mailbox, MultiPart};
use loco_rs::{mailer::Email, prelude::*};

use crate::settings::Settings;

/// A mailer for our messages, sending from the configured address.
pub struct AppMailer;

impl Mailer for AppMailer {}

/// Renders `dir` with `locals` and delivers it to `to`.
///
/// # Errors
/// When the template fails to render, the queue refuses the job, or the outbox is not writable.
pub async fn deliver(
    ctx: &AppContext,
    dir: &Dir<'_>,
    to: &str,
    locals: serde_json::Value,
) -> Result<()> {
    let settings = Settings::from_context(ctx)?;
    let content = render(dir, &locals)?;
    if ctx.mailer.is_some() {
        let queued = AppMailer::mail(ctx, &email(&settings, to, content)).await;
        crate::observability::email_sent(&queued);
        return queued;
    }
    to_outbox(ctx, &settings, to, &content)
}

/// Renders `dir` with `locals` and sends it to `to` before returning, bypassing the mail queue:
/// `Ok` means the SMTP server (or the test stub) accepted the message, or, with no SMTP
/// configured, that it is in the outbox. For work that must know the mail went out before it
/// records so (reminders, sent from a background worker).
///
/// # Errors
/// When the template fails to render, the server refuses the message or cannot be reached, or
/// the outbox is not writable.
pub async fn deliver_now(
    ctx: &AppContext,
    dir: &Dir<'_>,
    to: &str,
    locals: serde_json::Value,
) -> Result<()> {
    let settings = Settings::from_context(ctx)?;
    let content = render(dir, &locals)?;
    if ctx.mailer.is_some() {
        let sent = AppMailer::deliver_now(ctx, &email(&settings, to, content)).await;
        crate::observability::email_sent(&sent);
        return sent;
    }
    to_outbox(ctx, &settings, to, &content)
}

fn email(settings: &Settings, to: &str, content: Content) -> Email {
    Email {
        from: Some(settings.mail.from.clone()),
        reply_to: Some(settings.support_email.clone()),
        to: to.to_string(),
        subject: content.subject,
        text: content.text,
        html: content.html,
        bcc: None,
        cc: None,
        headers: None,
    }
}

fn to_outbox(ctx: &AppContext, settings: &Settings, to: &str, content: &Content) -> Result<()> {
    let path = write_to_outbox(settings, to, &content.subject, &content.text, &content.html)?;
    // In development the text part is in the log too, so a person trying the app can follow
    // its links at once. Nowhere else: a reset link is a secret.
    if ctx.environment == loco_rs::environment::Environment::Development {
        tracing::info!(to, subject = content.subject, path = %path.display(),
            text = content.text, "email written to the outbox (no SMTP configured)");
    } else {
        tracing::info!(path = %path.display(), "email written to the outbox (no SMTP configured)");
    }
    Ok(())
}

/// A rendered message.
#[derive(Debug, Clone)]
pub struct Content {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// Renders the three templates of `dir`; values are escaped in `html.t` only.
///
/// # Errors
/// When a template is missing or does not render.
pub fn render(dir: &Dir<'_>, locals: &serde_json::Value) -> Result<Content> {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(["html.t"]);
    for file in dir.files() {
        let name = file
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let body = String::from_utf8_lossy(file.contents());
        tera.add_raw_template(name, &body)
            .map_err(|e| Error::string(&format!("mail template `{name}`: {e}")))?;
    }
    let context = tera::Context::from_serialize(locals)
        .map_err(|e| Error::string(&format!("mail values: {e}")))?;
    let one = |name: &str| {
        tera.render(name, &context)
            .map_err(|e| Error::string(&format!("mail template `{name}`: {e}")))
    };
    Ok(Content {
        subject: one("subject.t")?.trim().to_string(),
        text: one("text.t")?,
        html: one("html.t")?,
    })
}

fn write_to_outbox(
    settings: &Settings,
    to: &str,
    subject: &str,
    text: &str,
    html: &str,
) -> Result<PathBuf> {
    let mailbox = |s: &str| {
        s.parse::<Mailbox>()
            .map_err(|e| Error::string(&format!("invalid address `{s}`: {e}")))
    };
    let message = lettre::Message::builder()
        .from(mailbox(&settings.mail.from)?)
        .reply_to(mailbox(&settings.support_email)?)
        .to(mailbox(to)?)
        .subject(subject)
        .multipart(MultiPart::alternative_plain_html(
            text.to_string(),
            html.to_string(),
        ))
        .map_err(|e| Error::string(&format!("could not build email: {e}")))?;
    let dir = PathBuf::from(&settings.mail.outbox_dir);
    std::fs::create_dir_all(&dir)?;
    let name = format!(
        "{}-{}.eml",
        chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ"),
        uuid::Uuid::new_v4().simple()
    );
    let path = dir.join(name);
    std::fs::write(&path, message.formatted())?;
    Ok(path)
}
