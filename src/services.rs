//! The outside services the product talks to: Stripe for billing and an OpenAI-compatible API
//! for the blog's drafts and for reading certificates of insurance. Each is off unless configured, and answers 503 then.

pub mod ai;
pub mod billing;
pub mod certificates;
