pub mod reminders;
