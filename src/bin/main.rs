use std::path::Path;

use loco_rs::{cli, environment};
use migration::Migrator;
use vendorwatch::{app::App, infra::sqlite_entities::Snapshot};

/// jemalloc for every allocation of the process (Cargo.toml says why).
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings, read when it starts (`vendorwatch::infra::JEMALLOC_CONF` says why).
#[allow(non_upper_case_globals)]
#[export_name = "_rjem_malloc_conf"]
pub static malloc_conf: &[u8] = vendorwatch::infra::JEMALLOC_CONF;

#[tokio::main]
async fn main() -> loco_rs::Result<()> {
    // Before any database is opened (`vendorwatch::infra::sqlite_memory` says why).
    let _ = vendorwatch::infra::sqlite_memory::install();
    let kept = entities_on_sqlite()?;
    let mut ended = cli::main::<App, Migrator>().await;
    if let (Ok(()), Some(snapshot)) = (&ended, kept) {
        ended = snapshot
            .reapply()
            .map(|changed| {
                if !changed.is_empty() {
                    println!(
                        "SQLite: kept the committed column types and relations of {} \
                         existing entities (src/sqlite_entities.rs says why)",
                        changed.len()
                    );
                }
            })
            .map_err(Into::into);
    }
    vendorwatch::infra::observability::flush_log();
    ended
}

/// For `db entities` on a `SQLite` database, the entities before sea-orm-cli rewrites them
/// (`vendorwatch::infra::sqlite_entities`); `None` for any other command or database.
fn entities_on_sqlite() -> loco_rs::Result<Option<Snapshot>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !words.windows(2).any(|w| w == ["db", "entities"]) {
        return Ok(None);
    }
    let named = args.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--environment=")
            .map(str::to_string)
            .or_else(|| {
                (a == "-e" || a == "--environment")
                    .then(|| args.get(i + 1).cloned())
                    .flatten()
            })
    });
    let env: environment::Environment = named.unwrap_or_else(environment::resolve_from_env).into();
    // A configuration that does not load is loco's to report, as it would without this.
    let Ok(config) = env.load() else {
        return Ok(None);
    };
    if !config.database.uri.starts_with("sqlite") {
        return Ok(None);
    }
    Ok(Some(Snapshot::take(Path::new("src/models/_entities"))?))
}
