//! The slugs a blog post used to have; each answers with a permanent redirect to its current
//! one.

use sea_orm::entity::prelude::*;

pub use super::_entities::blog_slug_redirects::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
