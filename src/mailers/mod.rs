//! Email. Every message is a template folder (`subject.t`, `html.t`, `text.t`) rendered here,
//! with values HTML-escaped in `html.t` (vendor names are user input). Every `html.t` extends
//! the shared `layout.html.t` (see [`render`]). With SMTP (or the test stub) configured the
//! message is kept in the database (`outgoing_emails`) and a job on the `mailer` queue sends it
//! (`workers::outgoing_email`); with none configured it is written to the outbox folder and
//! logged, so a person trying the app sees exactly what would have been sent. Every message
//! carries a `Message-ID` fixed before its first attempt, and the [`Headers`] it was asked with
//! (`Reply-To`, `List-Unsubscribe`), kept with it.

pub mod auth;
pub mod billing;
mod message;
pub mod portal;
pub mod previews;
pub mod reminders;
pub mod reports;
pub mod team;
pub mod vendors;

use std::path::PathBuf;

use lettre::message::Mailbox;
use loco_rs::prelude::*;

pub use self::message::Headers;
use crate::{
    models::outgoing_emails,
    settings::Settings,
    workers::outgoing_email::{OutgoingEmailArgs, OutgoingEmailWorker},
};

/// The layout every `html.t` extends: `{% extends "layout.html.t" %}`, then the message in
/// `{% block content %}…{% endblock content %}` (and `footer`, optional), with no widths in
/// pixels. It makes the message fit a phone (fluid up to 560 px, viewport meta) and titles it
/// with the subject. A new template's values go in `previews::sample_values`: a unit test
/// renders every template folder with them.
static LAYOUT: &str = include_str!("layout.html.t");

/// Renders `dir` with `locals` and delivers it to `to`, replies going to support: for emails to
/// the business's own users.
///
/// # Errors
/// When the template fails to render, the queue refuses the job, or the outbox is not writable.
pub async fn deliver(
    ctx: &AppContext,
    dir: &Dir<'_>,
    to: &str,
    locals: serde_json::Value,
) -> Result<()> {
    deliver_with(ctx, dir, to, locals, &Headers::default()).await
}

/// [`deliver`] with `headers`: a `Reply-To` for an email sent on the business's behalf, a
/// `List-Unsubscribe` link.
///
/// # Errors
/// When the template fails to render, the queue refuses the job, or the outbox is not writable.
pub async fn deliver_with(
    ctx: &AppContext,
    dir: &Dir<'_>,
    to: &str,
    locals: serde_json::Value,
    headers: &Headers,
) -> Result<()> {
    let settings = Settings::from_context(ctx)?;
    let content = render(dir, &locals)?;
    // Fixed now, so that the email sent again (a worker died between the server's acceptance
    // and its record) is the same message rather than a second one.
    let id = message_id(&settings, &uuid::Uuid::new_v4().simple().to_string());
    if ctx.mailer.is_none() {
        return to_outbox(ctx, &settings, to, &content, id, headers);
    }
    // Kept before it is queued: the row, not the queue, is the record of an email owed.
    let kept = outgoing_emails::keep(&ctx.db, &id, to, &content, headers).await?;
    if let Err(err) = OutgoingEmailWorker::perform_later(ctx, OutgoingEmailArgs { id: kept }).await
    {
        // Queue unreachable (or, with jobs run in the request, the send failed): the
        // `outgoing_emails` task queues it again.
        tracing::warn!(email = kept, err = %err, "email kept, not sent yet: the outgoing_emails task will queue it again");
    }
    Ok(())
}

/// Sends the kept email `id` (`outgoing_emails`), unless it was sent or another worker has it:
/// marked sent once the mail server accepted it, given back (for the `outgoing_emails` task to
/// queue again) when the server refused it or could not be reached.
///
/// # Errors
/// The server's refusal, or a database error.
pub async fn send_kept(ctx: &AppContext, id: i64) -> Result<()> {
    let Some(row) = outgoing_emails::take(&ctx.db, id, outgoing_emails::TAKEN_FOR).await? else {
        return Ok(());
    };
    let settings = Settings::from_context(ctx)?;
    let content = Content {
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
    };
    let headers = Headers {
        reply_to: row.reply_to,
        list_unsubscribe: row.list_unsubscribe,
    };
    let sent = if ctx.mailer.is_some() {
        message::send(
            ctx,
            &settings,
            &row.recipient,
            &content,
            row.message_id,
            &headers,
        )
        .await
    } else {
        // SMTP switched off since the email was kept: the outbox folder has it.
        to_outbox(
            ctx,
            &settings,
            &row.recipient,
            &content,
            row.message_id,
            &headers,
        )
    };
    crate::infra::observability::email_sent(&sent);
    match sent {
        Ok(()) => outgoing_emails::mark_sent(&ctx.db, id).await,
        Err(err) => {
            tracing::warn!(email = id, attempts = row.attempts, err = %err, "email refused; kept for the outgoing_emails task");
            outgoing_emails::give_back(&ctx.db, id, &err.to_string()).await?;
            Err(err)
        }
    }
}

/// Renders `dir` with `locals` and sends it to `to` before returning, bypassing the mail queue:
/// `Ok` means the SMTP server (or the test stub) accepted the message, or, with no SMTP
/// configured, that it is in the outbox. For work that must know the mail went out before it
/// records so (reminders, sent from a background worker).
///
/// `key` names this one email for good: it becomes the message's `Message-ID`, so the same
/// email sent again (its sender died between the server's acceptance and recording it) is
/// the same message to the receiving side, not a second one.
///
/// # Errors
/// When the template fails to render, the server refuses the message or cannot be reached, or
/// the outbox is not writable.
pub async fn deliver_now(
    ctx: &AppContext,
    dir: &Dir<'_>,
    to: &str,
    locals: serde_json::Value,
    key: &str,
) -> Result<()> {
    deliver_now_with(ctx, dir, to, locals, key, &Headers::default()).await
}

/// [`deliver_now`] with `headers` (a `Reply-To` for an email sent on the business's behalf).
///
/// # Errors
/// As [`deliver_now`].
pub async fn deliver_now_with(
    ctx: &AppContext,
    dir: &Dir<'_>,
    to: &str,
    locals: serde_json::Value,
    key: &str,
    headers: &Headers,
) -> Result<()> {
    let settings = Settings::from_context(ctx)?;
    let content = render(dir, &locals)?;
    let id = message_id(&settings, key);
    if ctx.mailer.is_some() {
        let sent = message::send(ctx, &settings, to, &content, id, headers).await;
        crate::infra::observability::email_sent(&sent);
        return sent;
    }
    to_outbox(ctx, &settings, to, &content, id, headers)
}

/// The `Message-ID` (RFC 5322, 3.6.4) of the email named `key`: `<key@domain>`, under the
/// domain of the sending address (`localhost` when it has none).
#[must_use]
pub fn message_id(settings: &Settings, key: &str) -> String {
    let domain = settings
        .mail
        .from
        .parse::<Mailbox>()
        .ok()
        .map_or_else(|| "localhost".to_string(), |m| m.email.domain().to_string());
    format!("<{key}@{domain}>")
}

fn to_outbox(
    ctx: &AppContext,
    settings: &Settings,
    to: &str,
    content: &Content,
    message_id: String,
    headers: &Headers,
) -> Result<()> {
    let path = write_to_outbox(settings, to, content, message_id, headers)?;
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

/// Renders the three templates of `dir`; values are escaped in `html.t` (and the layout it
/// extends) only. The subject is rendered first and given to the HTML as `subject`, the
/// layout's `<title>`.
///
/// # Errors
/// When a template is missing or does not render.
pub fn render(dir: &Dir<'_>, locals: &serde_json::Value) -> Result<Content> {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(["html.t"]);
    let mut templates = vec![("layout.html.t".to_string(), LAYOUT.to_string())];
    for file in dir.files() {
        let name = file
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        templates.push((
            name.to_string(),
            String::from_utf8_lossy(file.contents()).into_owned(),
        ));
    }
    // All at once: a template that extends the layout needs it there when it is added.
    tera.add_raw_templates(templates)
        .map_err(|e| Error::string(&format!("mail templates: {e}")))?;
    let mut context = tera::Context::from_serialize(locals)
        .map_err(|e| Error::string(&format!("mail values: {e}")))?;
    let one = |name: &str, context: &tera::Context| {
        tera.render(name, context)
            .map_err(|e| Error::string(&format!("mail template `{name}`: {e}")))
    };
    let subject = one("subject.t", &context)?.trim().to_string();
    context.insert("subject", &subject);
    Ok(Content {
        text: one("text.t", &context)?,
        html: one("html.t", &context)?,
        subject,
    })
}

fn write_to_outbox(
    settings: &Settings,
    to: &str,
    content: &Content,
    message_id: String,
    headers: &Headers,
) -> Result<PathBuf> {
    let message = message::build(settings, to, content, message_id, headers)?;
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
