//! Who read which post on which day (a digest, not a person): a reader adds one view a day
//! (`blog_posts::views`).

use sea_orm::entity::prelude::*;

pub use super::_entities::blog_post_readers::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl ActiveModelBehavior for ActiveModel {}
