//! `SQLite`'s memory from jemalloc, the allocator of the rest of the process, and without its
//! memory statistics.
//!
//! By default `SQLite` allocates through the C library's `malloc`, and counts every allocation
//! in statistics kept under one mutex for the whole process. The profile of the vendor list
//! without the answer cache had glibc's `malloc` and `free` under `sqlite3Malloc` on every
//! connection's thread (docs/benchmarks/api.md), and the memory `SQLite` had freed stayed with
//! glibc's per-thread arenas, out of jemalloc's reach and out of its statistics
//! (docs/benchmarks/lists.md, "Memory"). [`install`] hands `SQLite` jemalloc's functions and
//! turns the statistics off; the app never reads them (`sqlite3_memory_used`).
//!
//! `SQLite` takes this only before it is first initialized, that is before the process opens
//! its first database: the server's `main` calls [`install`] first thing. Anywhere else (the
//! tests) `SQLite` keeps its defaults, which behave the same but for speed.

use std::ffi::{c_int, c_void};

use libsqlite3_sys as ffi;
use tikv_jemalloc_sys as jemalloc;

/// What [`install`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Installed {
    /// `SQLite` allocates through jemalloc, without statistics.
    Jemalloc,
    /// `SQLite` was initialized already (a database was opened first): it keeps its defaults.
    TooLate,
}

/// Gives `SQLite` jemalloc and turns its memory statistics off, if no database was opened yet.
#[must_use]
pub fn install() -> Installed {
    /// The methods, never changed; the only pointer among them is null.
    struct Methods(ffi::sqlite3_mem_methods);
    // SAFETY: nothing writes to them, and `SQLite` only reads them.
    unsafe impl Sync for Methods {}
    // SQLite keeps the pointer to the methods, so they live as long as the process.
    static METHODS: Methods = Methods(ffi::sqlite3_mem_methods {
        xMalloc: Some(allocate),
        xFree: Some(release),
        xRealloc: Some(reallocate),
        xSize: Some(allocated_size),
        xRoundup: Some(round_up),
        xInit: Some(init),
        xShutdown: Some(shutdown),
        pAppData: std::ptr::null_mut(),
    });
    // SAFETY: `sqlite3_config` takes these options only before `SQLite` is initialized and
    // answers `SQLITE_MISUSE` otherwise, changing nothing. The methods are static and each
    // keeps jemalloc's contract below.
    let (malloc, stats) = unsafe {
        (
            ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_MALLOC,
                std::ptr::from_ref(&METHODS.0).cast::<c_void>(),
            ),
            ffi::sqlite3_config(ffi::SQLITE_CONFIG_MEMSTATUS, c_int::from(false)),
        )
    };
    if malloc == ffi::SQLITE_OK && stats == ffi::SQLITE_OK {
        Installed::Jemalloc
    } else {
        Installed::TooLate
    }
}

fn size(n: c_int) -> usize {
    usize::try_from(n).unwrap_or(0)
}

// SQLite asks for at least one byte, frees only what it allocated here, and reallocates only
// its own non-null pointers (it handles null and zero itself): jemalloc's functions take those.

unsafe extern "C" fn allocate(n: c_int) -> *mut c_void {
    // SAFETY: a size of at least one byte.
    unsafe { jemalloc::malloc(size(n).max(1)) }
}

unsafe extern "C" fn release(p: *mut c_void) {
    // SAFETY: a pointer `allocate` or `reallocate` returned, or null.
    unsafe { jemalloc::free(p) }
}

unsafe extern "C" fn reallocate(p: *mut c_void, n: c_int) -> *mut c_void {
    // SAFETY: a pointer jemalloc allocated and a size of at least one byte.
    unsafe { jemalloc::realloc(p, size(n).max(1)) }
}

unsafe extern "C" fn allocated_size(p: *mut c_void) -> c_int {
    if p.is_null() {
        return 0;
    }
    // SAFETY: a live pointer jemalloc allocated.
    c_int::try_from(unsafe { jemalloc::sallocx(p, 0) }).unwrap_or(c_int::MAX)
}

unsafe extern "C" fn round_up(n: c_int) -> c_int {
    // SAFETY: `nallocx` only computes a size; it takes any size above zero.
    c_int::try_from(unsafe { jemalloc::nallocx(size(n).max(1), 0) }).unwrap_or(n)
}

unsafe extern "C" fn init(_: *mut c_void) -> c_int {
    ffi::SQLITE_OK
}

unsafe extern "C" fn shutdown(_: *mut c_void) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Set in the child process of [`sqlite_allocates_from_jemalloc_once_installed`].
    const CHILD: &str = "VENDORWATCH_SQLITE_MEMORY_CHILD";

    #[test]
    fn the_methods_keep_what_sqlite_asks_of_them() {
        // SAFETY: the same calls SQLite makes, on pointers these methods returned.
        unsafe {
            let p = allocate(100);
            assert!(!p.is_null());
            let held = allocated_size(p);
            assert!(held >= 100, "{held}");
            assert_eq!(round_up(100), held);
            p.cast::<u8>().write_bytes(7, 100);
            let q = reallocate(p, 5000);
            assert!(allocated_size(q) >= 5000);
            assert_eq!(*q.cast::<u8>().add(99), 7, "reallocation keeps the bytes");
            release(q);
            assert_eq!(allocated_size(std::ptr::null_mut()), 0);
        }
    }

    /// `install` works only before `SQLite` is first used, so it is tried in a process of its
    /// own: this test binary again, running only [`in_a_fresh_process`].
    #[test]
    fn sqlite_allocates_from_jemalloc_once_installed() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "infra::sqlite_memory::tests::in_a_fresh_process",
                "--nocapture",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && printed.contains("1 passed"),
            "{printed}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// jemalloc's count of the bytes this thread has allocated through it.
    fn allocated_here() -> u64 {
        let mut value: u64 = 0;
        let mut len = std::mem::size_of::<u64>();
        // SAFETY: "thread.allocated" is a `uint64_t`, read into one.
        let rc = unsafe {
            jemalloc::mallctl(
                c"thread.allocated".as_ptr(),
                std::ptr::from_mut(&mut value).cast(),
                &raw mut len,
                std::ptr::null_mut(),
                0,
            )
        };
        assert_eq!(rc, 0);
        value
    }

    #[test]
    fn in_a_fresh_process() {
        if std::env::var_os(CHILD).is_none() {
            return;
        }
        assert_eq!(install(), Installed::Jemalloc);
        let before = allocated_here();
        // SAFETY: an in-memory database opened, used and closed on this thread.
        unsafe {
            let mut db = std::ptr::null_mut();
            assert_eq!(
                ffi::sqlite3_open(c":memory:".as_ptr(), &raw mut db),
                ffi::SQLITE_OK
            );
            let sql = c"CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(200000));";
            let rc = ffi::sqlite3_exec(
                db,
                sql.as_ptr(),
                None,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            assert_eq!(rc, ffi::SQLITE_OK);
            // Statistics off: SQLite no longer counts what it holds.
            assert_eq!(ffi::sqlite3_memory_used(), 0);
            ffi::sqlite3_close(db);
        }
        let through_jemalloc = allocated_here() - before;
        assert!(through_jemalloc >= 200_000, "{through_jemalloc} bytes");
        assert_eq!(install(), Installed::TooLate);
    }
}
