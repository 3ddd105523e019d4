//! What becomes of a claimed reminder: its worker (holding it with the other reminders it
//! gathered, `gather`) renews the claim before each email, and marks it sent (the claim goes in
//! the same transaction), drops it unsent, or gives it back after a failure. Claims of reminders
//! that are gone are cleaned up here too.

use loco_rs::prelude::*;
use sea_orm::sea_query::{Expr, ExprTrait, Query, SelectStatement};

use super::{claims::now, reminders, Claim, Entity, Model};
use crate::models::_entities::reminder_claims;

impl Model {
    /// Renews the claim just before an email goes out, so a slow worker is not taken for a dead
    /// one. `false`: the claim was lost (taken over, or the reminder is sent or gone); stop.
    ///
    /// # Errors
    /// Database errors.
    pub async fn renew_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<bool> {
        // The reminder is checked too: one deleted with its vendor (a cascade in the database)
        // leaves its claim behind.
        let res = reminder_claims::Entity::update_many()
            .col_expr(reminder_claims::Column::ClaimedAt, Expr::val(now()))
            .filter(held_by(id, token))
            .filter(Expr::exists(unsent(id)))
            .exec(db)
            .await?;
        Ok(res.rows_affected == 1)
    }

    /// Marks the reminder sent, only if `token` still holds it: whoever lost the claim cannot
    /// mark it. The claim goes in the same transaction. `false` when it was not ours (any more).
    ///
    /// # Errors
    /// Database errors.
    pub async fn mark_sent(db: &DatabaseConnection, id: i64, token: &str) -> Result<bool> {
        let at = now();
        let txn = crate::models::begin_write(db).await?;
        if !end_claim(&txn, id, token).await? {
            return Ok(false);
        }
        let res = Entity::update_many()
            .col_expr(reminders::Column::SentAt, Expr::val(at))
            .col_expr(reminders::Column::UpdatedAt, Expr::val(at))
            .filter(reminders::Column::Id.eq(id))
            .filter(reminders::Column::SentAt.is_null())
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(res.rows_affected == 1)
    }

    /// Deletes the claim `token` holds on a reminder that is sent or gone: one a sweep wrote
    /// from a snapshot taken just before another sweep's worker marked the reminder sent (the
    /// claim statement reads the due reminders as they were when it started). Its job sends
    /// nothing and leaves nothing behind.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_claim_of_sent<C: ConnectionTrait>(
        db: &C,
        id: i64,
        token: &str,
    ) -> Result<()> {
        reminder_claims::Entity::delete_many()
            .filter(held_by(id, token))
            .filter(Expr::exists(unsent(id)).not())
            .exec(db)
            .await?;
        Ok(())
    }

    /// Deletes the claimed reminder unsent (its document is no longer current), if `token`
    /// still holds it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_claimed(db: &DatabaseConnection, id: i64, token: &str) -> Result<()> {
        let txn = crate::models::begin_write(db).await?;
        if end_claim(&txn, id, token).await? {
            Entity::delete_many()
                .filter(reminders::Column::Id.eq(id))
                .filter(reminders::Column::SentAt.is_null())
                .exec(&txn)
                .await?;
        }
        txn.commit().await?;
        Ok(())
    }

    /// Gives the reminder back after a failed send, so the next sweep claims it at once instead
    /// of waiting for the claim to go stale. The claim keeps its attempts.
    ///
    /// # Errors
    /// Database errors.
    pub async fn release_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<()> {
        release(db, held_by(id, token)).await
    }

    /// Gives back every reminder of a claim (its jobs could not be enqueued).
    ///
    /// # Errors
    /// Database errors.
    pub async fn release_all<C: ConnectionTrait>(db: &C, claim: &Claim) -> Result<()> {
        release(
            db,
            Condition::all()
                .add(
                    reminder_claims::Column::ReminderId.is_in(claim.reminders.iter().map(|r| r.id)),
                )
                .add(reminder_claims::Column::Token.eq(&claim.token)),
        )
        .await
    }

    /// Deletes the claims of the document's unsent reminders, before the reminders go.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_claims_of_document<C: ConnectionTrait>(
        db: &C,
        document_id: i64,
    ) -> Result<()> {
        let mut unsent = Query::select();
        unsent
            .column(reminders::Column::Id)
            .from(Entity)
            .and_where(reminders::Column::DocumentId.eq(document_id))
            .and_where(reminders::Column::SentAt.is_null());
        reminder_claims::Entity::delete_many()
            .filter(reminder_claims::Column::ReminderId.in_subquery(unsent))
            .exec(db)
            .await?;
        Ok(())
    }

    /// Deletes claims whose reminder is gone or sent: reminders deleted with their document or
    /// vendor (the claims table has no foreign key to cascade from), and a claim written just
    /// before its reminder was marked sent whose job never ran (`drop_claim_of_sent`). The
    /// claims table holds only what is in flight, so this reads a few rows. Returns how many
    /// went.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_orphan_claims<C: ConnectionTrait>(db: &C) -> Result<u64> {
        let mut unsent = Query::select();
        unsent
            .expr(Expr::val(1))
            .from(Entity)
            .and_where(
                Expr::col((Entity, reminders::Column::Id))
                    .equals((reminder_claims::Entity, reminder_claims::Column::ReminderId)),
            )
            .and_where(reminders::Column::SentAt.is_null());
        let res = reminder_claims::Entity::delete_many()
            .filter(Expr::exists(unsent).not())
            .exec(db)
            .await?;
        Ok(res.rows_affected)
    }
}

/// Deletes the claim if `token` holds it; `true` when it did (the row is then locked until the
/// transaction ends, so no sweep takes it over meanwhile).
async fn end_claim<C: ConnectionTrait>(db: &C, id: i64, token: &str) -> Result<bool> {
    let res = reminder_claims::Entity::delete_many()
        .filter(held_by(id, token))
        .exec(db)
        .await?;
    Ok(res.rows_affected == 1)
}

async fn release<C: ConnectionTrait>(db: &C, which: Condition) -> Result<()> {
    reminder_claims::Entity::update_many()
        .col_expr(
            reminder_claims::Column::ClaimedAt,
            Expr::val(Option::<DateTimeWithTimeZone>::None),
        )
        .filter(which)
        .exec(db)
        .await?;
    Ok(())
}

/// The reminder `id`, if it exists unsent (for `EXISTS`).
fn unsent(id: i64) -> SelectStatement {
    let mut unsent = Query::select();
    unsent
        .expr(Expr::val(1))
        .from(Entity)
        .and_where(reminders::Column::Id.eq(id))
        .and_where(reminders::Column::SentAt.is_null());
    unsent
}

fn held_by(id: i64, token: &str) -> Condition {
    Condition::all()
        .add(reminder_claims::Column::ReminderId.eq(id))
        .add(reminder_claims::Column::Token.eq(token))
}
