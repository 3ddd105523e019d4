//! The weekly summary emails sent, one a week per organization (see `models::reports`).

use sea_orm::entity::prelude::*;

pub use super::_entities::weekly_summaries::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
