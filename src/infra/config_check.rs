//! What a production process refuses to start with: a configuration that would only fail later,
//! or fail open (a missing or public JWT secret; SMTP, S3 or Stripe half set up). Each problem
//! names the environment variable to set (config/production.yaml reads them).

use loco_rs::{config::Config, environment::Environment, Error, Result};

use crate::settings::Settings;

/// The JWT secrets committed in config/development.yaml and config/test.yaml: anyone can read
/// them, so a token signed with one proves nothing.
const PUBLIC_SECRETS: [&str; 2] = [
    "8a48a8c27ef51ec1c56302af3f8f4455a7ca614fce205974934ea04ca892483e",
    "7d7fe28f535587adede2f832bf2c256065c4348e96fcd2de6da9dc309075f4be",
];
/// 32 characters: 128 bits even as hex.
pub const MIN_SECRET_CHARS: usize = 32;

/// Stops a production start on the first problems found, all named in one message.
///
/// # Errors
/// When the environment is production and [`problems`] finds any.
pub fn check(environment: &Environment, config: &Config, settings: &Settings) -> Result<()> {
    if *environment != Environment::Production {
        return Ok(());
    }
    let found = problems(config, settings);
    if found.is_empty() {
        return Ok(());
    }
    Err(Error::string(&format!(
        "the production configuration is incomplete:\n  - {}",
        found.join("\n  - ")
    )))
}

/// Every problem of a configuration, as a sentence naming its environment variable.
#[must_use]
pub fn problems(config: &Config, settings: &Settings) -> Vec<String> {
    let mut found = Vec::new();
    jwt(config, &mut found);
    smtp(config, &mut found);
    storage(settings, &mut found);
    billing(settings, &mut found);
    if !(settings.app_url.starts_with("https://") || settings.app_url.starts_with("http://")) {
        found.push("APP_URL must be the app's public address, starting with https://".into());
    }
    found
}

fn blank(value: &str) -> bool {
    value.trim().is_empty()
}

fn jwt(config: &Config, found: &mut Vec<String>) {
    let secret = config
        .auth
        .as_ref()
        .and_then(|a| a.jwt.as_ref())
        .map_or("", |j| j.secret.as_str());
    if blank(secret) {
        found.push("JWT_SECRET is not set".into());
    } else if PUBLIC_SECRETS.contains(&secret) {
        found.push(
            "JWT_SECRET is the development default, which is public: set a secret of your own"
                .into(),
        );
    } else if secret.chars().count() < MIN_SECRET_CHARS {
        found.push(format!(
            "JWT_SECRET is too short: at least {MIN_SECRET_CHARS} characters"
        ));
    } else if loco_rs::auth::jwt::JWT::new(secret)
        .generate_token(60, "check".into(), serde_json::Map::new())
        .is_err()
    {
        // Loco reads the secret as base64: any other one fails at the first sign-in.
        found.push(
            "JWT_SECRET is not base64: make one with `openssl rand -base64 48` (or -hex 32)".into(),
        );
    }
}

fn smtp(config: &Config, found: &mut Vec<String>) {
    let Some(smtp) = config.mailer.as_ref().and_then(|m| m.smtp.as_ref()) else {
        return;
    };
    if !smtp.enable {
        return;
    }
    if blank(&smtp.host) {
        found.push("SMTP_HOST is not set (SMTP_ENABLED is true)".into());
    }
    if let Some(auth) = &smtp.auth {
        match (blank(&auth.user), blank(&auth.password)) {
            (false, true) => found.push("SMTP_PASSWORD is not set while SMTP_USER is".into()),
            (true, false) => found.push("SMTP_USER is not set while SMTP_PASSWORD is".into()),
            _ => {}
        }
    }
}

fn storage(settings: &Settings, found: &mut Vec<String>) {
    let s3 = settings.storage.s3.as_ref();
    match settings.storage.kind.as_str() {
        "s3" => {
            let Some(s3) = s3 else {
                found.push("STORAGE_KIND is s3, but there are no S3 settings".into());
                return;
            };
            if blank(&s3.bucket) {
                found.push("S3_BUCKET is not set (STORAGE_KIND is s3)".into());
            }
            if blank(&s3.access_key_id) {
                found.push("S3_ACCESS_KEY_ID is not set (STORAGE_KIND is s3)".into());
            }
            if blank(&s3.secret_access_key) {
                found.push("S3_SECRET_ACCESS_KEY is not set (STORAGE_KIND is s3)".into());
            }
        }
        "local" => {
            // Keys given but the files would go to a local folder: a deployment that meant S3.
            if s3.is_some_and(|s3| !blank(&s3.access_key_id) || !blank(&s3.secret_access_key)) {
                found.push(
                    "STORAGE_KIND is local while S3 keys are set: set STORAGE_KIND=s3, or unset \
                     S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY"
                        .into(),
                );
            }
        }
        other => found.push(format!(
            "STORAGE_KIND `{other}` is unknown: use local or s3"
        )),
    }
}

fn billing(settings: &Settings, found: &mut Vec<String>) {
    let billing = &settings.billing;
    if !billing.is_enabled() {
        if !blank(&billing.webhook_secret) || !blank(&billing.professional_price_id) {
            found.push(
                "STRIPE_SECRET_KEY is not set while other STRIPE_ variables are: billing is off"
                    .into(),
            );
        }
        return;
    }
    if blank(&billing.webhook_secret) {
        found.push("STRIPE_WEBHOOK_SECRET is not set (STRIPE_SECRET_KEY is)".into());
    }
    if blank(&billing.professional_price_id) {
        found.push("STRIPE_PROFESSIONAL_PRICE_ID is not set (STRIPE_SECRET_KEY is)".into());
    }
}
