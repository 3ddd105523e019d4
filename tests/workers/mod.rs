mod redis_queue;
