//! The emails of a reminder that the mail server accepted, one row each (see
//! `reminders::delivery`).

pub use super::_entities::reminder_deliveries::{self, ActiveModel, Entity, Model};

#[async_trait::async_trait]
impl sea_orm::ActiveModelBehavior for ActiveModel {}
