//! Emails the app queues, kept in the database from the moment they are asked for until the mail
//! server has accepted them (migration `m20261125_000001_outgoing_emails`). The queue job
//! carries only a row's id (`workers::outgoing_email`); the `outgoing_emails` task queues again
//! whatever a lost job or a dead worker left unsent, and deletes sent and given-up rows after a
//! week.

use chrono::Duration;
use loco_rs::prelude::*;
use sea_orm::{
    sea_query::{Expr, ExprTrait},
    Condition,
};

pub use super::_entities::outgoing_emails::{ActiveModel, Column, Entity, Model};
use super::reminders::now;
use crate::mailers::{Content, Headers};

impl ActiveModelBehavior for ActiveModel {}

/// How long a worker holds an email it took before another may take it (a worker that died
/// with it). Sending one email takes seconds at most.
pub const TAKEN_FOR: Duration = Duration::minutes(10);

/// Attempts before an email is given up on (each refused by the mail server); the task says
/// how many there are.
pub const MAX_ATTEMPTS: i32 = 10;

/// Keeps an email to send to `to` under `message_id`, with its `headers`; returns its id.
///
/// # Errors
/// Database errors.
pub async fn keep(
    db: &DatabaseConnection,
    message_id: &str,
    to: &str,
    content: &Content,
    headers: &Headers,
) -> Result<i64> {
    // Stamped here rather than by the column's default: `SQLite`'s `CURRENT_TIMESTAMP` is text
    // of another shape, which would not compare with the task's cut-off.
    let at = now();
    let row = ActiveModel {
        created_at: ActiveValue::Set(at),
        updated_at: ActiveValue::Set(at),
        message_id: ActiveValue::Set(message_id.to_string()),
        recipient: ActiveValue::Set(to.to_string()),
        subject: ActiveValue::Set(content.subject.clone()),
        text_body: ActiveValue::Set(content.text.clone()),
        html_body: ActiveValue::Set(content.html.clone()),
        attempts: ActiveValue::Set(0),
        reply_to: ActiveValue::Set(headers.reply_to.clone()),
        list_unsubscribe: ActiveValue::Set(headers.list_unsubscribe.clone()),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(row.id)
}

/// Takes email `id` for sending: `None` when it was sent, is gone, or another worker took it
/// less than `stale` ago. One statement, so two workers given the same id cannot both take it.
///
/// # Errors
/// Database errors.
pub async fn take(db: &DatabaseConnection, id: i64, stale: Duration) -> Result<Option<Model>> {
    let at = now();
    let taken = Entity::update_many()
        .col_expr(Column::ClaimedAt, Expr::val(at))
        .col_expr(Column::Attempts, Expr::col(Column::Attempts).add(1))
        .col_expr(Column::UpdatedAt, Expr::val(at))
        .filter(Column::Id.eq(id))
        .filter(Column::SentAt.is_null())
        .filter(free_since(at - stale))
        .exec(db)
        .await?;
    if taken.rows_affected == 0 {
        return Ok(None);
    }
    Ok(Entity::find_by_id(id).one(db).await?)
}

/// Not taken, or taken before `before` (its worker died or lost it).
fn free_since(before: DateTimeWithTimeZone) -> Condition {
    Condition::any()
        .add(Column::ClaimedAt.is_null())
        .add(Column::ClaimedAt.lt(before))
}

/// Records that the mail server accepted email `id`, and forgets its text: a reset link is a
/// secret, and the row is kept only to say it went.
///
/// # Errors
/// Database errors.
pub async fn mark_sent(db: &DatabaseConnection, id: i64) -> Result<()> {
    let at = now();
    Entity::update_many()
        .col_expr(Column::SentAt, Expr::val(at))
        .col_expr(Column::UpdatedAt, Expr::val(at))
        .col_expr(Column::TextBody, Expr::val(""))
        .col_expr(Column::HtmlBody, Expr::val(""))
        .col_expr(Column::LastError, Expr::val(Option::<String>::None))
        .filter(Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// Gives email `id` back after the mail server refused it or could not be reached: the next
/// run of the `outgoing_emails` task queues it again.
///
/// # Errors
/// Database errors.
pub async fn give_back(db: &DatabaseConnection, id: i64, error: &str) -> Result<()> {
    let at = now();
    Entity::update_many()
        .col_expr(
            Column::ClaimedAt,
            Expr::val(Option::<DateTimeWithTimeZone>::None),
        )
        .col_expr(Column::UpdatedAt, Expr::val(at))
        .col_expr(Column::LastError, Expr::val(error))
        .filter(Column::Id.eq(id))
        .filter(Column::SentAt.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// Unsent emails asked for more than `age` ago and not taken within `age`, oldest first, at most
/// `limit`, and with fewer than `max_attempts` attempts: the ones to queue again.
///
/// # Errors
/// Database errors.
pub async fn unsent(
    db: &DatabaseConnection,
    age: Duration,
    max_attempts: i32,
    limit: u64,
) -> Result<Vec<i64>> {
    let before = now() - age;
    Ok(Entity::find()
        .select_only()
        .column(Column::Id)
        .filter(Column::SentAt.is_null())
        .filter(Column::CreatedAt.lt(before))
        .filter(free_since(before))
        .filter(Column::Attempts.lt(max_attempts))
        .order_by_asc(Column::Id)
        .limit(limit)
        .into_tuple()
        .all(db)
        .await?)
}

/// Unsent emails given up on (`max_attempts` attempts, each refused), for the operator.
///
/// # Errors
/// Database errors.
pub async fn given_up(db: &DatabaseConnection, max_attempts: i32) -> Result<u64> {
    Ok(Entity::find()
        .filter(Column::SentAt.is_null())
        .filter(Column::Attempts.gte(max_attempts))
        .count(db)
        .await?)
}

/// Deletes what no run will send any more, once older than `keep`: emails sent before then,
/// and emails given up on (`max_attempts` attempts) that were asked for before then, which the
/// task reports at every run until they go. Returns how many.
///
/// # Errors
/// Database errors.
pub async fn prune(db: &DatabaseConnection, keep: Duration, max_attempts: i32) -> Result<u64> {
    let before = now() - keep;
    Ok(Entity::delete_many()
        .filter(
            Condition::any().add(Column::SentAt.lt(before)).add(
                Condition::all()
                    .add(Column::SentAt.is_null())
                    .add(Column::Attempts.gte(max_attempts))
                    .add(Column::CreatedAt.lt(before)),
            ),
        )
        .exec(db)
        .await?
        .rows_affected)
}
