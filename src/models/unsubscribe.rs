//! The weekly summary's unsubscribe link (RFC 8058), which works without signing in:
//! `{app_url}/unsubscribe/{token}`, the token being the user's pid and a signature of it
//! (HMAC-SHA256, its first 16 bytes, under a key made from the JWT secret for this one use).
//! No other user's link can be made without the secret, and a token with an altered pid or
//! signature is refused. The link does not expire: an old summary's link keeps working, as mail
//! providers expect of it.

use hmac::{Hmac, Mac};
use loco_rs::prelude::*;
use sea_orm::sea_query::Expr;
use sha2::Sha256;

use super::{_entities::users, reminders::now};

/// Names the key's one use, so that no other signature made from the JWT secret is one of these.
const PURPOSE: &[u8] = b"vendorwatch/unsubscribe/weekly_summary/v1:";
const SIGNATURE_BYTES: usize = 16;

fn mac(secret: &str, pid: &Uuid) -> Hmac<Sha256> {
    let mut mac = super::secret_tokens::purpose_mac(PURPOSE, secret);
    mac.update(pid.simple().to_string().as_bytes());
    mac
}

/// The token of `pid`'s link: `<pid, 32 hex digits>.<signature, 32 hex digits>`.
#[must_use]
pub fn token(secret: &str, pid: &Uuid) -> String {
    let signature = mac(secret, pid).finalize().into_bytes();
    format!(
        "{}.{}",
        pid.simple(),
        hex::encode(&signature[..SIGNATURE_BYTES])
    )
}

/// The user's pid when `token` is one [`token`] made, `None` otherwise (compared in constant
/// time).
#[must_use]
pub fn verify(secret: &str, token: &str) -> Option<Uuid> {
    let (pid, signature) = token.split_once('.')?;
    if pid.len() != 32 || signature.len() != SIGNATURE_BYTES * 2 {
        return None;
    }
    let given = pid;
    let pid = Uuid::try_parse(given).ok()?;
    // One spelling per user (lowercase, no dashes), as [`token`] writes it.
    if pid.simple().to_string() != given {
        return None;
    }
    let signature = hex::decode(signature).ok()?;
    mac(secret, &pid).verify_truncated_left(&signature).ok()?;
    Some(pid)
}

/// The unsubscribe link of `user`'s weekly summary.
///
/// # Errors
/// When the JWT settings are missing.
pub fn link(ctx: &AppContext, app_url: &str, user: &users::Model) -> Result<String> {
    let secret = &ctx.config.get_jwt_config()?.secret;
    Ok(format!(
        "{}/unsubscribe/{}",
        app_url.trim_end_matches('/'),
        token(secret, &user.pid)
    ))
}

/// The user whose valid link `token` is, `None` for a token that is not one or a user who is
/// gone.
///
/// # Errors
/// When the JWT settings are missing; database errors.
pub async fn user_of(ctx: &AppContext, token: &str) -> Result<Option<users::Model>> {
    let secret = &ctx.config.get_jwt_config()?.secret;
    let Some(pid) = verify(secret, token) else {
        return Ok(None);
    };
    Ok(users::Entity::find()
        .filter(users::Column::Pid.eq(pid))
        .one(&ctx.db)
        .await?)
}

/// Turns `user`'s weekly summary off: the next sweeps skip them, and the Reports page's
/// "Email me a weekly summary" turns it back on.
///
/// # Errors
/// Database errors.
pub async fn stop_weekly_summary(db: &DatabaseConnection, user: &users::Model) -> Result<()> {
    users::Entity::update_many()
        .col_expr(users::Column::WeeklySummary, Expr::val(false))
        .col_expr(users::Column::UpdatedAt, Expr::val(now()))
        .filter(users::Column::Id.eq(user.id))
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "a secret for the tests";

    #[test]
    fn a_token_names_its_user_and_nothing_else_passes() {
        let pid = Uuid::new_v4();
        let good = token(SECRET, &pid);
        assert_eq!(verify(SECRET, &good), Some(pid));
        assert_eq!(verify("another secret", &good), None, "another key");
        let other = Uuid::new_v4();
        let (_, signature) = good.split_once('.').unwrap();
        assert_eq!(
            verify(SECRET, &format!("{}.{signature}", other.simple())),
            None,
            "another user's pid under this signature"
        );
        let mut altered = good.clone().into_bytes();
        let last = altered.len() - 1;
        altered[last] = if altered[last] == b'0' { b'1' } else { b'0' };
        assert_eq!(verify(SECRET, &String::from_utf8(altered).unwrap()), None);
        for bad in [
            "",
            ".",
            "x.y",
            &good[..40],
            &format!("{good}0"),
            &pid.to_string(),
        ] {
            assert_eq!(verify(SECRET, bad), None, "{bad}");
        }
    }
}
