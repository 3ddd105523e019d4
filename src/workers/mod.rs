pub mod keyword_chunk;
pub mod reminders;
pub mod weekly_summary;
