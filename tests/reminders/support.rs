//! Seeding organizations, vendors and documents through the product's own model code, and
//! reading what a real SMTP server received.

use std::{collections::HashMap, path::PathBuf};

use chrono::{Duration, NaiveDate};
use loco_rs::{
    app::AppContext,
    boot::{BootResult, StartMode},
    config,
};
use sea_orm::{ActiveModelTrait, ActiveValue, ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Deserialize;
use vendorwatch::models::{
    _entities::{activities, pending_expiries, reminder_claims, reminder_deliveries, reminders},
    activities::ActivityType,
    compliance::{CoiType, DocumentType},
    documents::{self, DocumentInfo, DocumentSource, StoredFile, UploadContext},
    organizations, users,
    vendors::{self, PlanLimit, VendorFields},
};

use crate::support::{boot_with, TestDb};

pub const OFFSETS: [u32; 3] = [30, 7, 0];

/// Where most sweep scenarios start: a fresh app, a client with its owner, and one vendor,
/// Pipe Works, with its own contact address.
pub struct Scene {
    pub boot: BootResult,
    _db: TestDb,
    pub owner: String,
    pub vendor_email: String,
    pub client: Client,
    pub vendor: vendors::Model,
}

impl Scene {
    pub async fn new(company: &str) -> Self {
        let (boot, db) = boot_with(StartMode::ServerOnly, |_| {}).await;
        let ctx = &boot.app_context;
        let owner = address("owner", "example.com");
        let vendor_email = address("pipes", "example.com");
        let client = client(ctx, company, std::slice::from_ref(&owner)).await;
        let vendor = vendor(ctx, &client, "Pipe Works", &vendor_email).await;
        Self {
            boot,
            _db: db,
            owner,
            vendor_email,
            client,
            vendor,
        }
    }

    pub fn ctx(&self) -> &AppContext {
        &self.boot.app_context
    }

    /// A document of the scene's vendor, expiring in `expires_in` days (or never).
    pub async fn document(
        &self,
        document_type: DocumentType,
        coi_type: Option<CoiType>,
        expires_in: Option<i64>,
    ) -> documents::Model {
        document(
            self.ctx(),
            &self.client,
            &self.vendor,
            document_type,
            coi_type,
            expires_in,
        )
        .await
    }
}

/// `days` from today (UTC), the sweep's default day.
pub fn day(days: i64) -> NaiveDate {
    documents::today() + Duration::days(days)
}

/// A unique address at `domain` (`example.com`, or `slow.test` for the SMTP sink's slow path).
pub fn address(prefix: &str, domain: &str) -> String {
    format!("{prefix}-{}@{domain}", uuid::Uuid::new_v4().simple())
}

/// An organization, registered by its owner (the first address), with more users added.
pub struct Client {
    pub org: organizations::Model,
}

pub async fn client(ctx: &AppContext, company: &str, emails: &[String]) -> Client {
    let (_, org) = users::Model::register(
        &ctx.db,
        &users::RegisterParams {
            name: format!("{company} Owner"),
            email: emails[0].clone(),
            password: "secret-pass".into(),
            company: Some(company.into()),
            time_zone: None,
        },
    )
    .await
    .unwrap();
    for (i, email) in emails.iter().enumerate().skip(1) {
        users::ActiveModel {
            email: ActiveValue::Set(email.clone()),
            password: ActiveValue::Set("not-used".into()),
            name: ActiveValue::Set(format!("{company} Member {i}")),
            role: ActiveValue::Set(sea_orm::ActiveEnum::to_value(&users::PlatformRole::User)),
            organization_id: ActiveValue::Set(org.id),
            ..Default::default()
        }
        .insert(&ctx.db)
        .await
        .unwrap();
    }
    Client { org }
}

pub async fn vendor(ctx: &AppContext, client: &Client, name: &str, email: &str) -> vendors::Model {
    let form = VendorFields {
        name: name.into(),
        email: email.into(),
        service_type: "plumbing".into(),
        ..Default::default()
    }
    .validate()
    .unwrap();
    let limit = PlanLimit {
        vendors: 1000,
        message: String::new(),
    };
    vendors::Model::create(
        &ctx.db,
        client.org.id,
        &limit,
        &form,
        &vendorwatch::models::activities::Actor::system(),
    )
    .await
    .unwrap()
}

/// A current document of `vendor` expiring `expires_in` days from today (`None`: no date), with
/// its reminders made by the upload code.
pub async fn document(
    ctx: &AppContext,
    client: &Client,
    vendor: &vendors::Model,
    document_type: DocumentType,
    coi_type: Option<CoiType>,
    expires_in: Option<i64>,
) -> documents::Model {
    let upload = UploadContext {
        org: &client.org,
        documents_per_vendor: None,
        reminder_offsets: &OFFSETS,
        source: DocumentSource::User,
        actor: &vendorwatch::models::activities::Actor::system(),
    };
    let info = DocumentInfo {
        document_type,
        coi_type,
        expiration_date: expires_in.map(day),
        notes: None,
    };
    let file = StoredFile {
        file_name: format!(
            "{}-{}.pdf",
            document_type.as_str(),
            uuid::Uuid::new_v4().simple()
        ),
        storage_key: format!("test/{}", uuid::Uuid::new_v4()),
        content_type: "application/pdf".into(),
        size: 100,
    };
    documents::Model::create(&ctx.db, &upload, vendor, &info, &file)
        .await
        .unwrap()
}

pub async fn reminders_of(ctx: &AppContext, document: &documents::Model) -> Vec<reminders::Model> {
    reminders::Entity::find()
        .filter(reminders::Column::DocumentId.eq(document.id))
        .order_by_asc(reminders::Column::ReminderDate)
        .all(&ctx.db)
        .await
        .unwrap()
}

pub async fn all_reminders(ctx: &AppContext) -> Vec<reminders::Model> {
    reminders::Entity::find()
        .order_by_asc(reminders::Column::Id)
        .all(&ctx.db)
        .await
        .unwrap()
}

/// The emails the stub mailer (the test config's) has delivered, in order.
pub fn stub_messages(ctx: &AppContext) -> Vec<String> {
    ctx.mailer
        .as_ref()
        .expect("the stub mailer")
        .deliveries()
        .messages
}

/// The claim on a reminder, if one is in flight.
pub async fn claim_of(ctx: &AppContext, reminder_id: i64) -> Option<reminder_claims::Model> {
    reminder_claims::Entity::find_by_id(reminder_id)
        .one(&ctx.db)
        .await
        .unwrap()
}

pub async fn all_claims(ctx: &AppContext) -> Vec<reminder_claims::Model> {
    reminder_claims::Entity::find().all(&ctx.db).await.unwrap()
}

pub async fn deliveries(ctx: &AppContext) -> Vec<reminder_deliveries::Model> {
    reminder_deliveries::Entity::find()
        .all(&ctx.db)
        .await
        .unwrap()
}

pub async fn expired_entries(ctx: &AppContext, org_id: i64) -> Vec<activities::Model> {
    activities::Entity::find()
        .filter(activities::Column::OrganizationId.eq(org_id))
        .filter(activities::Column::ActivityType.eq(ActivityType::DocumentExpired))
        .all(&ctx.db)
        .await
        .unwrap()
}

/// The date the sweep waits for to record the document's expiry; `None` when it waits for
/// nothing (no date, superseded, or already recorded).
pub async fn pending_expiry(ctx: &AppContext, document: &documents::Model) -> Option<NaiveDate> {
    pending_expiries::Entity::find_by_id(document.id)
        .one(&ctx.db)
        .await
        .unwrap()
        .map(|p| p.expiration_date)
}

pub async fn reload(ctx: &AppContext, document: &documents::Model) -> documents::Model {
    documents::Entity::find_by_id(document.id)
        .one(&ctx.db)
        .await
        .unwrap()
        .unwrap()
}

/// Changes one reminder setting in the config of an app about to boot.
pub fn set_reminder_setting(config: &mut config::Config, key: &str, value: serde_json::Value) {
    let settings = config.settings.as_mut().expect("settings");
    settings["reminders"][key] = value;
}

/// The aiosmtpd server that `scripts/test` starts (`scripts/smtp_sink.py`).
#[derive(Debug, Clone)]
pub struct SmtpSink {
    pub port: u16,
    pub dir: PathBuf,
}

impl SmtpSink {
    pub fn from_env(what: &str) -> Option<Self> {
        let port = crate::support::service_env("TEST_SMTP_PORT", what)?
            .parse()
            .expect("TEST_SMTP_PORT is a port");
        let dir = crate::support::service_env("TEST_SMTP_DIR", what)?.into();
        Some(Self { port, dir })
    }

    /// Every message the server accepted for any of `addresses` (the server is shared by all
    /// tests; each test uses addresses of its own).
    pub fn received_by(&self, addresses: &[&str]) -> Vec<Received> {
        let mut found = vec![];
        for entry in std::fs::read_dir(&self.dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let message: Received = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            if message
                .rcpt_tos
                .iter()
                .any(|to| addresses.contains(&to.as_str()))
            {
                found.push(message);
            }
        }
        found
    }
}

impl SmtpSink {
    /// How many times the server started holding a RCPT TO for one of `addresses` (slow.test).
    pub fn rcpt_waits(&self, addresses: &[&str]) -> usize {
        std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rcpt"))
            .filter(|p| std::fs::read_to_string(p).is_ok_and(|to| addresses.contains(&to.as_str())))
            .count()
    }
}

/// Loco's SMTP settings pointing at `port` on this machine, in cleartext.
pub fn smtp_mailer(port: u16) -> config::Mailer {
    serde_json::from_value(serde_json::json!({
        "smtp": {"enable": true, "host": "127.0.0.1", "port": port, "secure": false}
    }))
    .unwrap()
}

/// A local port nothing listens on: mail sent there is refused at once.
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// One message as the SMTP sink wrote it.
#[derive(Debug, Clone, Deserialize)]
pub struct Received {
    pub rcpt_tos: Vec<String>,
    pub from: String,
    /// The `Message-ID` header, as sent.
    pub message_id: String,
    /// The `Reply-To` header, as sent.
    #[serde(default)]
    pub reply_to: String,
    /// `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058); empty when absent.
    #[serde(default)]
    pub list_unsubscribe: String,
    #[serde(default)]
    pub list_unsubscribe_post: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// How many times each recipient got each distinct message (subject and text).
pub fn tally(messages: &[Received]) -> HashMap<(String, String, String), usize> {
    let mut counts = HashMap::new();
    for m in messages {
        for to in &m.rcpt_tos {
            *counts
                .entry((to.clone(), m.subject.clone(), m.text.clone()))
                .or_insert(0) += 1;
        }
    }
    counts
}
