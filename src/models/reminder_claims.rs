//! Claims of reminders in flight: one row per reminder a sweep handed to a worker, deleted when
//! the reminder is sent. Taking and releasing claims is `reminders::claims`' work. The table has
//! no foreign key to `reminders`, on purpose (migration `m20260301_000001_reminder_claims`), so
//! its entity has no relation.

pub use super::_entities::reminder_claims::{ActiveModel, Entity, Model};
use sea_orm::ActiveModelBehavior;

impl ActiveModelBehavior for ActiveModel {}
