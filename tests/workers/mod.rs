mod keyword_ingest;
mod redis_queue;
