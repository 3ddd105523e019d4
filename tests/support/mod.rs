use std::{future::Future, net::SocketAddr};

use axum::http::{HeaderName, HeaderValue};
use loco_rs::{
    app::{AppContext, Hooks},
    boot::{BootResult, StartMode},
    config::Config,
    environment::Environment,
    testing::prelude::RequestConfig,
    TestServer,
};
use sea_orm::{ConnectionTrait, EntityTrait, PaginatorTrait};
use serde_json::{json, Value};
use vendorwatch::{
    app::App,
    models::_entities::{organizations, users},
};

/// A database of one test's own: a `SQLite` file in a temporary folder, or a `PostgreSQL` database
/// created next to the one `DATABASE_URL` names. Dropped (with any open sessions) at the end.
pub struct TestDb {
    pub url: String,
    pg: Option<(String, String)>,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub async fn create(base_url: &str) -> Self {
        if base_url.starts_with("postgres") {
            let name = format!("vw_test_{}", uuid::Uuid::new_v4().simple());
            let mut root = url::Url::parse(base_url).unwrap();
            root.set_path("/postgres");
            let mut url = root.clone();
            url.set_path(&format!("/{name}"));
            let conn = sea_orm::Database::connect(root.as_str()).await.unwrap();
            conn.execute_unprepared(&format!("CREATE DATABASE {name}"))
                .await
                .unwrap();
            conn.close().await.unwrap();
            Self {
                url: url.to_string(),
                pg: Some((root.to_string(), name)),
                _dir: None,
            }
        } else {
            let dir = tempfile::tempdir().unwrap();
            let url = format!(
                "sqlite://{}?mode=rwc",
                dir.path().join("test.sqlite").display()
            );
            Self {
                url,
                pg: None,
                _dir: Some(dir),
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((root, name)) = self.pg.take() else {
            return;
        };
        // Its own thread and runtime: Drop may run inside (or after) the test's runtime.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                if let Ok(conn) = sea_orm::Database::connect(root.as_str()).await {
                    let _ = conn
                        .execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                        .await;
                    let _ = conn.close().await;
                }
            });
        })
        .join();
    }
}

/// The app booted in `mode` on a fresh database; `edit` may change the test config first.
pub async fn boot_with(mode: StartMode, edit: impl FnOnce(&mut Config)) -> (BootResult, TestDb) {
    if let Ok(filter) = std::env::var("TEST_TRACE") {
        let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
    }
    let mut config = App::load_config(&Environment::Test).await.unwrap();
    let db = TestDb::create(&config.database.uri).await;
    config.database.uri = db.url.clone();
    edit(&mut config);
    let boot = App::boot(mode, &Environment::Test, config).await.unwrap();
    (boot, db)
}

/// Runs `test` against the real router (over HTTP, with client addresses) on a fresh database.
pub async fn with_app<F, Fut>(test: F)
where
    F: FnOnce(TestServer, AppContext) -> Fut,
    Fut: Future<Output = ()>,
{
    with_app_config(|_| {}, test).await;
}

/// Like [`with_app`], with the test config changed by `edit` first.
pub async fn with_app_config<F, Fut>(edit: impl FnOnce(&mut Config), test: F)
where
    F: FnOnce(TestServer, AppContext) -> Fut,
    Fut: Future<Output = ()>,
{
    let (boot, _db) = boot_with(StartMode::ServerOnly, edit).await;
    let router = boot.router.clone().unwrap();
    let server = TestServer::new_with_config(
        router.into_make_service_with_connect_info::<SocketAddr>(),
        RequestConfig::default(),
    )
    .unwrap();
    test(server, boot.app_context.clone()).await;
}

/// The rows `sql` answers, run as it is written (no values bound).
pub async fn rows(db: &sea_orm::DatabaseConnection, sql: &str) -> Vec<sea_orm::QueryResult> {
    db.query_all_raw(sea_orm::Statement::from_string(
        db.get_database_backend(),
        sql,
    ))
    .await
    .unwrap_or_else(|e| panic!("{e}: {sql}"))
}

pub mod certificates;
pub mod openai;
pub mod process;
pub mod stripe;

/// The organization of the account.
pub async fn org_of(ctx: &AppContext, account: &Account) -> organizations::Model {
    let user = users::Model::find_by_email(&ctx.db, &account.email)
        .await
        .unwrap();
    organizations::Entity::find_by_id(user.organization_id)
        .one(&ctx.db)
        .await
        .unwrap()
        .unwrap()
}

/// Moves the account's organization to Professional, as a payment would.
pub async fn make_professional(ctx: &AppContext, account: &Account) -> organizations::Model {
    let org = org_of(ctx, account).await;
    sea_orm::IntoActiveModel::into_active_model(org)
        .set_plan(
            &ctx.db,
            vendorwatch::models::organizations::Plan::Professional,
        )
        .await
        .unwrap()
}

/// Gives the account the admin role, as the `make_admin` task does.
pub async fn make_admin(ctx: &AppContext, account: &Account) {
    let user = users::Model::find_by_email(&ctx.db, &account.email)
        .await
        .unwrap();
    let mut active: users::ActiveModel = user.into();
    active.role = sea_orm::ActiveValue::Set("admin".into());
    sea_orm::ActiveModelTrait::update(active, &ctx.db)
        .await
        .unwrap();
}

pub const PASSWORD: &str = "correct-horse";

/// The value of a service variable the test command sets; `None` (saying so once) when it is
/// absent outside CI. With `CI=true` a missing service is a failure, never a skip.
pub fn service_env(name: &str, what: &str) -> Option<String> {
    match std::env::var(name) {
        Ok(v) if !v.is_empty() => Some(v),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but {name} is not set: {what} must run in CI")
        }
        _ => {
            eprintln!("SKIPPED: {what} ({name} is not set; scripts/test sets it)");
            None
        }
    }
}

/// A unique email for one test.
pub fn email(prefix: &str) -> String {
    format!("{prefix}-{}@example.com", uuid::Uuid::new_v4().simple())
}

pub fn bearer(token: &str) -> (HeaderName, HeaderValue) {
    (
        HeaderName::from_static("authorization"),
        HeaderValue::from_str(&format!("Bearer {token}")).unwrap(),
    )
}

pub struct Account {
    pub token: String,
    pub user: Value,
    pub email: String,
}

/// Registers through the API and returns the session.
pub async fn register(server: &TestServer, name: &str, company: Option<&str>) -> Account {
    let email = email(&name.to_lowercase().replace(' ', "-"));
    let res = server
        .post("/api/auth/register")
        .json(&json!({"name": name, "email": email, "password": PASSWORD, "company": company}))
        .await;
    assert_eq!(res.status_code(), 201, "register failed: {}", res.text());
    let body: Value = res.json();
    Account {
        token: body["token"].as_str().unwrap().to_string(),
        user: body["user"].clone(),
        email,
    }
}

pub async fn count_users(ctx: &AppContext) -> u64 {
    users::Entity::find().count(&ctx.db).await.unwrap()
}

pub async fn count_orgs(ctx: &AppContext) -> u64 {
    organizations::Entity::find().count(&ctx.db).await.unwrap()
}

/// Asserts the error envelope (docs/product.md, "Errors") and returns it.
pub fn assert_envelope(res: &axum_test::TestResponse, status: u16, code: &str) -> Value {
    assert_eq!(res.status_code(), status, "body: {}", res.text());
    assert!(
        res.header("content-type")
            .to_str()
            .unwrap()
            .starts_with("application/json"),
        "error bodies are JSON"
    );
    let body: Value = res.json();
    assert_eq!(body["error"], code, "body: {body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "a human message: {body}"
    );
    body
}

/// Another organization's session, for the "foreign object" cases.
pub async fn other_org(server: &TestServer) -> Account {
    register(server, "Mallory Other", Some("Other Org")).await
}

pub fn vendor_body(name: &str) -> Value {
    json!({
        "name": name,
        "email": "ops@acme-plumbing.example",
        "serviceType": "plumbing",
        "phone": "555-0100",
        "city": "Springfield",
        "state": "IL",
        "zipCode": "62701",
    })
}

/// Creates a vendor through the API; returns its JSON.
pub async fn create_vendor(server: &TestServer, account: &Account, name: &str) -> Value {
    let (h, v) = bearer(&account.token);
    let res = server
        .post("/api/vendors")
        .add_header(h, v)
        .json(&vendor_body(name))
        .await;
    assert_eq!(res.status_code(), 201, "create vendor: {}", res.text());
    res.json()
}

pub struct UploadSpec<'a> {
    pub file_name: &'a str,
    pub bytes: Vec<u8>,
    pub document_type: &'a str,
    pub coi_type: Option<&'a str>,
    pub expiration_date: Option<String>,
    pub notes: Option<&'a str>,
}

impl<'a> UploadSpec<'a> {
    pub fn pdf(document_type: &'a str) -> Self {
        Self {
            file_name: "certificate.pdf",
            bytes: crate::fixtures::pdf(),
            document_type,
            coi_type: None,
            expiration_date: None,
            notes: None,
        }
    }

    pub fn form(&self) -> axum_test::multipart::MultipartForm {
        let mut form = axum_test::multipart::MultipartForm::new()
            .add_text("documentType", self.document_type)
            .add_part(
                "file",
                axum_test::multipart::Part::bytes(self.bytes.clone())
                    .file_name(self.file_name)
                    .mime_type("application/octet-stream"),
            );
        if let Some(c) = self.coi_type {
            form = form.add_text("coiType", c);
        }
        if let Some(d) = &self.expiration_date {
            form = form.add_text("expirationDate", d.clone());
        }
        if let Some(n) = self.notes {
            form = form.add_text("notes", n);
        }
        form
    }
}

/// Uploads to a vendor through the API; returns the response.
pub async fn upload(
    server: &TestServer,
    account: &Account,
    vendor_id: &str,
    spec: &UploadSpec<'_>,
) -> axum_test::TestResponse {
    let (h, v) = bearer(&account.token);
    server
        .post(&format!("/api/vendors/{vendor_id}/documents"))
        .add_header(h, v)
        .multipart(spec.form())
        .await
}

/// A date `days` from today, as the API writes it.
pub fn in_days(days: i64) -> String {
    (chrono::Utc::now().date_naive() + chrono::Duration::days(days)).to_string()
}

/// GET with the account's token.
pub async fn get(server: &TestServer, account: &Account, path: &str) -> axum_test::TestResponse {
    let (h, v) = bearer(&account.token);
    server.get(path).add_header(h, v).await
}

/// The files stored for the account's organization.
pub async fn stored_files(ctx: &AppContext, account: &Account) -> Vec<std::path::PathBuf> {
    let user = vendorwatch::models::users::Model::find_by_email(&ctx.db, &account.email)
        .await
        .unwrap();
    let org = user.organization(&ctx.db).await.unwrap();
    let settings = vendorwatch::settings::Settings::from_context(ctx).unwrap();
    let dir = std::path::Path::new(&settings.storage.local_dir)
        .join("documents")
        .join(org.pid.to_string());
    match std::fs::read_dir(&dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => vec![],
    }
}

/// A message from the stub mailer as its reader sees it: the subject, then the text and the
/// HTML parts, decoded from MIME.
pub fn email_parts(raw: &str) -> String {
    let message = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .expect("a MIME message");
    format!(
        "Subject: {}\n\n--- text ---\n{}\n--- html ---\n{}",
        message.subject().unwrap_or_default(),
        message.body_text(0).unwrap_or_default().trim_end(),
        message.body_html(0).unwrap_or_default().trim_end(),
    )
}

/// A task's `key:value` arguments, as the command line gives them.
pub fn task_vars(pairs: &[(&str, &str)]) -> loco_rs::task::Vars {
    loco_rs::task::Vars::from_cli_args(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect(),
    )
}
