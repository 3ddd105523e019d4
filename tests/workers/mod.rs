mod keyword_ingest;
mod outgoing_emails;
mod redis_queue;
