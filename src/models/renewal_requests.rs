//! The renewal requests sent by hand, one a day per vendor at most (see `models::bulk`).

use sea_orm::entity::prelude::*;

pub use super::_entities::renewal_requests::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
