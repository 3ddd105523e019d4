//! Keyword uploads and their chunks (see `models::keywords`).

use sea_orm::entity::prelude::*;

pub use super::_entities::keyword_ingests::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
