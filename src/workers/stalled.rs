//! Jobs a worker took and never finished, because the worker was killed or its machine lost,
//! put back on their queue so that another worker performs them.
//!
//! Loco's queues leave such a job in hand for good: on Redis its id stays in the queue's
//! `processing:` set and nothing runs it again; on the embedded queue (`SQLite`) and on
//! `PostgreSQL` it stays `processing`. What reminders and keyword chunks hold is recovered
//! from the app's database (claims, chunks to do), but an email queued by the app (a password
//! reset, a portal notification) exists only in the queue.
//!
//! A job counts as stalled once it has been in hand for `stalled` at least:
//! - `SQLite` and `PostgreSQL`: Loco stamps `updated_at` when a worker takes a job, so Loco's
//!   own `requeue` (also `cargo loco jobs requeue --from-age`) tells exactly;
//! - Redis: Loco records nothing when a worker takes a job (the job's `updated_at` is still its
//!   enqueue time, so `requeue` there would also take a job that waited long and is being
//!   performed right now). This module notes when it first sees each id in a `processing:` set
//!   (a hash of its own per queue) and requeues an id seen in hand on a later run at least
//!   `stalled` after. A job taken back in the meantime by a worker that finished it is not
//!   touched: the move back is one script, done only if the id is still in hand.
//!
//! A job is performed at least once, not exactly once: a worker killed after its job's effect
//! (an email accepted by the SMTP server) and before marking it done has it performed again.
//! Every job here takes seconds; `stalled` is far longer than any of them.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use loco_rs::{
    app::AppContext,
    bgworker::{Job, JobStatus},
    config::QueueConfig,
    Error, Result,
};
use redis::AsyncCommands;

/// Loco's Redis layout (`loco_rs::bgworker::redis`): a queue's waiting ids in the sorted set
/// `queue:<name>` (score: minus the priority), its ids in hand in the set `processing:<name>`,
/// each job's JSON under `job:<id>`.
const QUEUE_PREFIX: &str = "queue:";
const PROCESSING_PREFIX: &str = "processing:";
const JOB_PREFIX: &str = "job:";
/// When this module first saw each id in hand, per queue: `vendorwatch:in-hand:<name>`.
const SEEN_PREFIX: &str = "vendorwatch:in-hand:";

/// Moves the id back to its queue with the job's new JSON, only if it is still in hand.
const REQUEUE_SCRIPT: &str = r"
if redis.call('SREM', KEYS[1], ARGV[1]) == 1 then
    redis.call('SET', KEYS[2], ARGV[2])
    redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
    return 1
end
return 0
";

/// Puts back on their queues the jobs in hand for `stalled` or longer (see the module).
/// Returns how many moved on Redis; `None` on the other queues, whose provider does not say.
///
/// # Errors
/// When the queue cannot be reached.
pub async fn requeue_stalled(ctx: &AppContext, stalled: chrono::Duration) -> Result<Option<u64>> {
    let Some(queue) = ctx.queue_provider.as_ref() else {
        return Ok(Some(0));
    };
    if let Some(QueueConfig::Redis(config)) = &ctx.config.queue {
        return requeue_redis(&config.uri, stalled, Utc::now())
            .await
            .map(Some);
    }
    queue.requeue(&stalled.num_minutes()).await?;
    Ok(None)
}

fn redis_error(e: &redis::RedisError) -> Error {
    Error::string(&format!("queue: {e}"))
}

/// The Redis half of [`requeue_stalled`], at `now`.
///
/// # Errors
/// When Redis cannot be reached, or holds a job that is not Loco's JSON.
pub async fn requeue_redis(
    uri: &str,
    stalled: chrono::Duration,
    now: DateTime<Utc>,
) -> Result<u64> {
    let client = redis::Client::open(uri).map_err(|e| redis_error(&e))?;
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .map_err(|e| redis_error(&e))?;
    let processing_keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{PROCESSING_PREFIX}*"))
        .query_async(&mut conn)
        .await
        .map_err(|e| redis_error(&e))?;
    let script = redis::Script::new(REQUEUE_SCRIPT);
    let mut moved = 0;
    for processing_key in processing_keys {
        let queue = &processing_key[PROCESSING_PREFIX.len()..];
        let seen_key = format!("{SEEN_PREFIX}{queue}");
        let in_hand: HashSet<String> = conn
            .smembers(&processing_key)
            .await
            .map_err(|e| redis_error(&e))?;
        let seen: HashMap<String, i64> =
            conn.hgetall(&seen_key).await.map_err(|e| redis_error(&e))?;
        // Ids finished (or moved back) since the last run are forgotten.
        let done: Vec<&String> = seen.keys().filter(|id| !in_hand.contains(*id)).collect();
        if !done.is_empty() {
            let () = conn
                .hdel(&seen_key, done)
                .await
                .map_err(|e| redis_error(&e))?;
        }
        for id in &in_hand {
            let Some(first_seen) = seen.get(id) else {
                let () = conn
                    .hset(&seen_key, id, now.timestamp())
                    .await
                    .map_err(|e| redis_error(&e))?;
                continue;
            };
            if now.timestamp() - first_seen < stalled.num_seconds() {
                continue;
            }
            let job_key = format!("{JOB_PREFIX}{id}");
            let json: Option<String> = conn.get(&job_key).await.map_err(|e| redis_error(&e))?;
            let Some(json) = json else {
                // An id without its job: nothing to perform.
                let () = conn
                    .srem(&processing_key, id)
                    .await
                    .map_err(|e| redis_error(&e))?;
                continue;
            };
            let mut job: Job = serde_json::from_str(&json)?;
            job.status = JobStatus::Queued;
            job.updated_at = Some(now);
            let back: i64 = script
                .key(&processing_key)
                .key(&job_key)
                .key(format!("{QUEUE_PREFIX}{queue}"))
                .arg(id)
                .arg(serde_json::to_string(&job)?)
                .arg(-f64::from(job.priority))
                .invoke_async(&mut conn)
                .await
                .map_err(|e| redis_error(&e))?;
            let () = conn
                .hdel(&seen_key, id)
                .await
                .map_err(|e| redis_error(&e))?;
            if back == 1 {
                tracing::warn!(queue, job = %id, name = %job.name, "stalled job queued again");
                moved += 1;
            }
        }
    }
    Ok(moved)
}
