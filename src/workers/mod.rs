pub mod reminders;
pub mod weekly_summary;
