//! Waivers of gaps (docs/product.md, "Requirements and gaps"): made and withdrawn by
//! `models::gaps::waive` and `unwaive`, read with the gaps they mark.

use sea_orm::entity::prelude::*;

pub use super::_entities::waivers::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
