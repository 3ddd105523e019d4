//! The organization's plan as Stripe decides it: a paid checkout makes it Professional, a
//! subscription that ends returns it to Free (nothing is deleted), a failed payment is kept
//! to be shown (docs/product.md, "Plans and limits"). Each Stripe event is applied once: its
//! id is written to `stripe_events` in the same transaction as the change it makes. Each
//! checkout session upgrades at most once (`checkout_sessions`), so an old paid session
//! cannot undo a later downgrade.

use chrono::{DateTime, Utc};
use loco_rs::prelude::*;
use sea_orm::sea_query::OnConflict;

use super::{
    activities::{self, Subject},
    checkout_sessions,
    organizations::{self, Plan},
    stripe_events,
};
use crate::services::billing::{
    webhook::{BillingEvent, EventKind, SubscriptionFacts, CHECKOUT_COMPLETED},
    PaidCheckout,
};

pub const PAYMENT_FAILED: &str =
    "Your last payment failed. Update your card in Manage billing to keep Professional.";

/// A plan change that happened, for the email to the owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanChanged {
    pub org: organizations::Model,
    pub from: Plan,
}

/// Whether the event with this id was handled already (a delivery Stripe repeats), so that it
/// is not confirmed with Stripe again.
///
/// # Errors
/// Database errors.
pub async fn event_seen(db: &DatabaseConnection, event_id: &str) -> Result<bool> {
    Ok(stripe_events::Entity::find()
        .filter(stripe_events::stripe_events::Column::EventId.eq(event_id))
        .count(db)
        .await?
        > 0)
}

/// Applies a verified Stripe event once; `None` when it changed no plan (or was seen before).
/// A completed checkout must have been confirmed with Stripe first (`Stripe::confirm`).
///
/// # Errors
/// Database errors (the event is then not marked handled, and Stripe sends it again), or a
/// checkout event that was not confirmed.
pub async fn apply_event(
    db: &DatabaseConnection,
    event: &BillingEvent,
) -> Result<Option<PlanChanged>> {
    if matches!(event.kind, EventKind::CheckoutCompleted { .. }) {
        return Err(Error::string(
            "a completed checkout must be confirmed with Stripe before it is applied",
        ));
    }
    let txn = crate::models::begin_write(db).await?;
    let now = Utc::now();
    let first_time = stripe_events::Entity::insert(stripe_events::ActiveModel {
        event_id: ActiveValue::Set(event.id.clone()),
        event_type: ActiveValue::Set(kind_name(&event.kind).to_string()),
        created_at: ActiveValue::Set(now.into()),
        updated_at: ActiveValue::Set(now.into()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(stripe_events::stripe_events::Column::EventId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?
        > 0;
    if !first_time {
        return Ok(None);
    }
    let changed = match &event.kind {
        EventKind::CheckoutPaid(paid) => match org_of_checkout(&txn, paid).await? {
            Some(org) => upgrade(&txn, org, paid).await?,
            None => None,
        },
        EventKind::Subscription(facts) => match by_customer(&txn, &facts.customer_id).await? {
            Some(org) => follow_subscription(&txn, org, facts).await?,
            None => None,
        },
        EventKind::PaymentFailed { customer_id } => {
            if let Some(org) = by_customer(&txn, customer_id).await? {
                let mut active = org.into_active_model();
                active.payment_problem = ActiveValue::Set(Some(PAYMENT_FAILED.to_string()));
                active.update(&txn).await?;
            }
            None
        }
        EventKind::Ignored(_) | EventKind::CheckoutCompleted { .. } => None,
    };
    txn.commit().await?;
    Ok(changed)
}

/// Upgrades after the browser came back from a checkout that Stripe confirmed paid for this
/// organization. Racing the webhook, only one of the two changes the plan.
///
/// # Errors
/// Database errors.
pub async fn upgrade_after_checkout(
    db: &DatabaseConnection,
    org: organizations::Model,
    paid: &PaidCheckout,
) -> Result<Option<PlanChanged>> {
    let txn = crate::models::begin_write(db).await?;
    let changed = upgrade(&txn, org, paid).await?;
    txn.commit().await?;
    Ok(changed)
}

/// Moves the organization to `plan` by hand (the operator's `set_plan` task), with its
/// activity entry; `None` when it was already on it.
///
/// # Errors
/// Database errors.
pub async fn change_plan(
    db: &DatabaseConnection,
    org: &organizations::Model,
    plan: Plan,
) -> Result<Option<PlanChanged>> {
    let txn = crate::models::begin_write(db).await?;
    let changed = set_plan(&txn, org, plan).await?;
    txn.commit().await?;
    Ok(changed)
}

fn kind_name(kind: &EventKind) -> &str {
    match kind {
        EventKind::CheckoutPaid(_) | EventKind::CheckoutCompleted { .. } => CHECKOUT_COMPLETED,
        EventKind::Subscription(_) => "customer.subscription",
        EventKind::PaymentFailed { .. } => "invoice.payment_failed",
        EventKind::Ignored(name) => name,
    }
}

async fn org_of_checkout<C: ConnectionTrait>(
    db: &C,
    paid: &PaidCheckout,
) -> Result<Option<organizations::Model>> {
    if let Some(pid) = paid
        .organization_pid
        .as_deref()
        .and_then(|p| uuid::Uuid::parse_str(p).ok())
    {
        return Ok(organizations::Entity::find()
            .filter(organizations::organizations::Column::Pid.eq(pid))
            .one(db)
            .await?);
    }
    match &paid.customer_id {
        Some(customer) => by_customer(db, customer).await,
        None => Ok(None),
    }
}

async fn by_customer<C: ConnectionTrait>(
    db: &C,
    customer_id: &str,
) -> Result<Option<organizations::Model>> {
    Ok(organizations::Entity::find()
        .filter(organizations::organizations::Column::StripeCustomerId.eq(customer_id))
        .one(db)
        .await?)
}

/// Sets Professional unless this subscription is already known to have ended (its
/// `deleted` event came first) or this session has upgraded the organization before (a
/// session id stays in the browser's history, and replayed after a downgrade it must not
/// undo it).
async fn upgrade<C: ConnectionTrait>(
    db: &C,
    org: organizations::Model,
    paid: &PaidCheckout,
) -> Result<Option<PlanChanged>> {
    let ended = paid.subscription_id.is_some()
        && org.stripe_subscription_id == paid.subscription_id
        && org.subscription_status.as_deref() == Some("canceled");
    if ended
        || !checkout_sessions::mark_upgraded(db, org.id, &paid.session_id, &paid.price_id).await?
    {
        return Ok(None);
    }
    let mut active = org.clone().into_active_model();
    if let Some(customer) = &paid.customer_id {
        active.stripe_customer_id = ActiveValue::Set(Some(customer.clone()));
    }
    if paid.subscription_id.is_some() {
        active.stripe_subscription_id = ActiveValue::Set(paid.subscription_id.clone());
        active.subscription_status = ActiveValue::Set(Some("active".to_string()));
    }
    active.payment_problem = ActiveValue::Set(None);
    active.update(db).await?;
    set_plan(db, &org, Plan::Professional).await
}

/// Keeps the plan in step with the subscription: renewal and cancellation dates, and Free
/// once it has ended. An event about a subscription other than the organization's current
/// one changes nothing but never upgrades.
async fn follow_subscription<C: ConnectionTrait>(
    db: &C,
    org: organizations::Model,
    facts: &SubscriptionFacts,
) -> Result<Option<PlanChanged>> {
    let current = org.stripe_subscription_id.as_deref();
    if current.is_some_and(|id| id != facts.subscription_id) {
        return Ok(None);
    }
    let at = |d: Option<DateTime<Utc>>| d.map(Into::into);
    let mut active = org.clone().into_active_model();
    active.stripe_subscription_id = ActiveValue::Set(Some(facts.subscription_id.clone()));
    active.subscription_status = ActiveValue::Set(Some(facts.status.clone()));
    active.plan_renews_at = ActiveValue::Set(at(facts.renews_at));
    active.plan_cancel_at = ActiveValue::Set(at(facts.cancel_at));
    if !facts.live || facts.status != "past_due" {
        active.payment_problem = ActiveValue::Set(None);
    }
    active.update(db).await?;
    if facts.live || org.plan() == Plan::Free {
        // A live subscription never upgrades by itself: only a paid checkout does.
        return Ok(None);
    }
    set_plan(db, &org, Plan::Free).await
}

/// Moves the organization to `plan` if it is on another one, with an activity entry; the
/// conditional update makes two writers at once change it once.
async fn set_plan<C: ConnectionTrait>(
    db: &C,
    org: &organizations::Model,
    plan: Plan,
) -> Result<Option<PlanChanged>> {
    let moved = organizations::Entity::update_many()
        .col_expr(
            organizations::organizations::Column::Plan,
            sea_orm::sea_query::Expr::value(plan),
        )
        .filter(organizations::organizations::Column::Id.eq(org.id))
        .filter(organizations::organizations::Column::Plan.ne(plan))
        .exec(db)
        .await?
        .rows_affected
        > 0;
    if !moved {
        return Ok(None);
    }
    let description = match plan {
        Plan::Professional => "The plan changed to Professional".to_string(),
        Plan::Free => "The plan changed to Free".to_string(),
    };
    activities::Model::record(
        db,
        org.id,
        &activities::Actor::system(),
        activities::ActivityType::PlanChanged,
        description,
        Subject::default(),
    )
    .await?;
    let org = organizations::Model::find_by_id(db, org.id).await?;
    Ok(Some(PlanChanged {
        org,
        from: match plan {
            Plan::Professional => Plan::Free,
            Plan::Free => Plan::Professional,
        },
    }))
}
