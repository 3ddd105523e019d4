//! A rendered email made into a message and handed to the mail server, with the headers it was
//! asked with ([`Headers`]).
//!
//! Loco's `Email` carries `Reply-To` and `Message-ID` but no other header, and its transport
//! type is not public. So an email is sent through `ctx.mailer` (Loco's SMTP transport, or the
//! test stub) as an `Email`, unless it has a `List-Unsubscribe` link: that one is built here
//! with lettre and sent through an SMTP transport made from the same `mailer.smtp` settings.
//! With the test stub (no SMTP settings) the stub gets it as an `Email`, without the two list
//! headers; the outbox's `.eml` files and the SMTP tests have them.

use lettre::{
    message::{
        header::{Header, HeaderName, HeaderValue},
        Mailbox, MultiPart,
    },
    transport::smtp::{authentication::Credentials, extension::ClientId},
    Address, AsyncSmtpTransport, AsyncTransport, Tokio1Executor,
};
use loco_rs::{
    config::{MailerTls, SmtpMailer},
    mailer::{Email, EmailHeaders},
    prelude::*,
};

use super::Content;
use crate::{
    models::{_entities::users, organizations},
    settings::Settings,
};

/// What an email carries beside its content, kept with it until it is sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    /// `Reply-To`, a mailbox (`Name <address>`); `None` is the support address. An email sent
    /// on the business's behalf (to a vendor) names the business's person, so that the
    /// vendor's answer, often with the document attached, reaches them.
    pub reply_to: Option<String>,
    /// The one-click unsubscribe link (RFC 8058) of a mailing a reader may leave:
    /// `List-Unsubscribe: <link>` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
    pub list_unsubscribe: Option<String>,
}

impl Headers {
    /// Replies to `name <address>`; the support address when `address` is not one.
    #[must_use]
    pub fn reply_to(name: &str, address: &str) -> Self {
        let reply_to = address
            .parse::<Address>()
            .ok()
            .map(|a| Mailbox::new(Some(name.trim().to_string()), a).to_string());
        Self {
            reply_to,
            ..Self::default()
        }
    }

    /// Replies to the organization's owner: an email sent on the business's behalf that no
    /// signed-in member asked for (a reminder to a vendor). Support for an organization
    /// without users.
    ///
    /// # Errors
    /// Database errors.
    pub async fn replies_to_owner(db: &DatabaseConnection, org_id: i64) -> Result<Self> {
        Ok(Self::replies_to_user(
            organizations::Model::owner(db, org_id).await?.as_ref(),
        ))
    }

    /// Replies to `owner` when there is one (a caller that already read the organization's
    /// users: its first is the owner), to support otherwise.
    #[must_use]
    pub fn replies_to_user(owner: Option<&users::Model>) -> Self {
        owner.map_or_else(Self::default, |owner| {
            Self::reply_to(&owner.name, &owner.email)
        })
    }
}

#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_string())
    }
}

/// The message: from the sending address, replies to `headers.reply_to` or support.
///
/// # Errors
/// An address that is not one, or a message lettre cannot build.
pub fn build(
    settings: &Settings,
    to: &str,
    content: &Content,
    message_id: String,
    headers: &Headers,
) -> Result<lettre::Message> {
    let mailbox = |s: &str| {
        s.parse::<Mailbox>()
            .map_err(|e| Error::string(&format!("invalid address `{s}`: {e}")))
    };
    let reply_to = headers
        .reply_to
        .as_deref()
        .unwrap_or(&settings.support_email);
    let mut builder = lettre::Message::builder()
        .from(mailbox(&settings.mail.from)?)
        .reply_to(mailbox(reply_to)?)
        .to(mailbox(to)?)
        .message_id(Some(message_id))
        .subject(&content.subject);
    if let Some(link) = &headers.list_unsubscribe {
        builder = builder
            .header(ListUnsubscribe(format!("<{link}>")))
            .header(ListUnsubscribePost);
    }
    builder
        .multipart(MultiPart::alternative_plain_html(
            content.text.clone(),
            content.html.clone(),
        ))
        .map_err(|e| Error::string(&format!("could not build email: {e}")))
}

/// Sends the email to the mail server (see the module's documentation for which transport).
///
/// # Errors
/// The server's refusal, an unreachable server, or no transport configured.
pub async fn send(
    ctx: &AppContext,
    settings: &Settings,
    to: &str,
    content: &Content,
    message_id: String,
    headers: &Headers,
) -> Result<()> {
    let smtp = ctx
        .config
        .mailer
        .as_ref()
        .and_then(|m| m.smtp.as_ref())
        .filter(|s| s.enable);
    if let (Some(smtp), Some(_)) = (smtp, &headers.list_unsubscribe) {
        let message = build(settings, to, content, message_id, headers)?;
        transport(smtp)?.send(message).await?;
        return Ok(());
    }
    let Some(mailer) = &ctx.mailer else {
        return Err(Error::string("no mail transport configured"));
    };
    mailer
        .mail(&Email {
            from: Some(settings.mail.from.clone()),
            reply_to: Some(
                headers
                    .reply_to
                    .clone()
                    .unwrap_or_else(|| settings.support_email.clone()),
            ),
            to: to.to_string(),
            subject: content.subject.clone(),
            text: content.text.clone(),
            html: content.html.clone(),
            bcc: None,
            cc: None,
            headers: Some(EmailHeaders {
                message_id: Some(message_id),
                ..Default::default()
            }),
        })
        .await
}

/// An SMTP transport as Loco makes one from the same settings (`EmailSender::smtp`).
fn transport(config: &SmtpMailer) -> Result<AsyncSmtpTransport<Tokio1Executor>> {
    let host = &config.host;
    let mut builder = match config.tls_mode() {
        MailerTls::Starttls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host)?,
        MailerTls::Implicit => AsyncSmtpTransport::<Tokio1Executor>::relay(host)?,
        MailerTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
    }
    .port(config.port);
    if let Some(auth) = &config.auth {
        builder = builder.credentials(Credentials::new(auth.user.clone(), auth.password.clone()));
    }
    if let Some(hello) = &config.hello_name {
        builder = builder.hello_name(ClientId::Domain(hello.clone()));
    }
    Ok(builder.build())
}
