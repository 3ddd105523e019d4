//! The daily compliance snapshot of each organization (see `models::reports`).

use sea_orm::entity::prelude::*;

pub use super::_entities::report_snapshots::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
