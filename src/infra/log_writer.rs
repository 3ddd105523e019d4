//! Production's log writer. A request's line is appended to a buffer in memory, under a lock
//! held for the copy; a thread of its own writes the buffer to stdout in one call, at most
//! `EVERY` after the first line of a batch (sooner once `SOON` bytes wait). So a request
//! neither waits for a write nor wakes a thread for each line: under load a batch of hundreds
//! of lines is one wake and one write. Nothing is dropped: past `MAX` bytes waiting, a line
//! waits for the writer. `BatchLog::stop` writes what is left (the process's last lines); a
//! process killed with SIGKILL loses the lines of its last batch, at most `EVERY` of them.
//!
//! tracing-appender's `non_blocking` was tried first: it wakes its thread for nearly every
//! line under load (docs/benchmarks/api.md).

use std::{
    io::{self, Write},
    sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError},
    thread::JoinHandle,
    time::{Duration, Instant},
};

use tracing_subscriber::fmt::MakeWriter;

/// How long the first line of a batch waits at most.
const EVERY: Duration = Duration::from_millis(50);
/// A batch this large is written at once.
const SOON: usize = 256 * 1024;
/// Past this many bytes waiting, a line waits for the writer instead.
const MAX: usize = 8 * 1024 * 1024;

#[derive(Default)]
struct State {
    waiting: Vec<u8>,
    stopped: bool,
}

#[derive(Default)]
pub struct Shared {
    state: Mutex<State>,
    /// The writer thread: a first line, a full batch, or the stop.
    wake: Condvar,
    /// The lines waiting for room.
    room: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The `MakeWriter` of the log layer.
#[derive(Clone)]
pub struct BatchLog {
    shared: Arc<Shared>,
}

/// The writer thread; `stop` writes what waits and ends it.
pub struct BatchLogThread {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl BatchLog {
    /// Starts the writer thread, writing to `out`.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn start<W: Write + Send + 'static>(mut out: W) -> io::Result<(Self, BatchLogThread)> {
        let shared = Arc::new(Shared::default());
        let thread = std::thread::Builder::new()
            .name("log-writer".into())
            .spawn({
                let shared = shared.clone();
                move || {
                    let mut batch = Vec::new();
                    loop {
                        let stopped = {
                            let mut state = shared.lock();
                            while state.waiting.is_empty() && !state.stopped {
                                state = shared
                                    .wake
                                    .wait(state)
                                    .unwrap_or_else(PoisonError::into_inner);
                            }
                            let deadline = Instant::now() + EVERY;
                            while !state.stopped && state.waiting.len() < SOON {
                                let Some(left) = deadline.checked_duration_since(Instant::now())
                                else {
                                    break;
                                };
                                state = shared
                                    .wake
                                    .wait_timeout(state, left)
                                    .unwrap_or_else(PoisonError::into_inner)
                                    .0;
                            }
                            std::mem::swap(&mut batch, &mut state.waiting);
                            state.stopped
                        };
                        shared.room.notify_all();
                        // A log that cannot be written has nowhere to say so.
                        let _ = out.write_all(&batch).and_then(|()| out.flush());
                        batch.clear();
                        if stopped {
                            return;
                        }
                    }
                }
            })?;
        Ok((
            Self {
                shared: shared.clone(),
            },
            BatchLogThread {
                shared,
                thread: Some(thread),
            },
        ))
    }
}

impl BatchLogThread {
    /// Writes every line waiting and ends the thread. Lines logged afterwards go to stdout
    /// directly.
    pub fn stop(mut self) {
        self.shared.lock().stopped = true;
        self.shared.wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Write for &Shared {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        let mut state = self.lock();
        while state.waiting.len() > MAX && !state.stopped {
            state = self
                .room
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.stopped {
            drop(state);
            io::stdout().write_all(line)?;
            return Ok(line.len());
        }
        let first = state.waiting.is_empty();
        state.waiting.extend_from_slice(line);
        let full = state.waiting.len() >= SOON;
        drop(state);
        if first || full {
            self.wake.notify_one();
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for BatchLog {
    type Writer = &'a Shared;

    fn make_writer(&'a self) -> Self::Writer {
        &self.shared
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the writer thread wrote, and how many writes it took.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<(Vec<u8>, usize)>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut sink = self.0.lock().unwrap();
            sink.0.extend_from_slice(buf);
            sink.1 += 1;
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_arrive_in_order_in_few_writes_and_stop_writes_the_rest() {
        let sink = Sink::default();
        let (log, thread) = BatchLog::start(sink.clone()).unwrap();
        let mut expected = Vec::new();
        for n in 0..1000 {
            let line = format!("{{\"n\":{n}}}\n");
            log.make_writer().write_all(line.as_bytes()).unwrap();
            expected.extend_from_slice(line.as_bytes());
        }
        thread.stop();
        let (written, writes) = sink.0.lock().unwrap().clone();
        assert_eq!(written, expected, "every line, in order");
        assert!(writes < 10, "batched: {writes} writes for 1000 lines");
    }

    #[test]
    fn a_quiet_line_is_written_within_the_batch_time() {
        let sink = Sink::default();
        let (log, thread) = BatchLog::start(sink.clone()).unwrap();
        log.make_writer().write_all(b"alone\n").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while sink.0.lock().unwrap().0.is_empty() {
            assert!(Instant::now() < deadline, "the line was never written");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(sink.0.lock().unwrap().0, b"alone\n");
        thread.stop();
    }
}
