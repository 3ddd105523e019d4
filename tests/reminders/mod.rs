//! The daily reminder sweep and its emails: date logic, claims, the stub mailer, a real SMTP
//! server, and worker processes on the Redis queue.

mod claims;
mod emails;
mod grouped;
mod retake;
mod smtp;
mod smtp_headers;
mod support;
mod sweep;
mod time_zones;
mod worker_process;
