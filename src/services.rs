//! The outside services the product talks to: Stripe for billing, an OpenAI-compatible API
//! for the blog's drafts and for reading certificates of insurance, and the customers' own
//! webhook endpoints. Stripe and the AI are off unless configured, and answer 503 then.

pub mod ai;
pub mod billing;
pub mod certificates;
pub mod webhooks;
