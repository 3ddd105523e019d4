pub mod account;
pub mod activity;
pub mod auth;
pub mod blog;
pub mod documents;
pub mod portal;
pub mod reminders;
pub mod vendors;
