//! The Stripe events already handled, one row each (see `models::billing`).

use sea_orm::entity::prelude::*;

pub use super::_entities::stripe_events::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
