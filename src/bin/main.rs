use loco_rs::cli;
use migration::Migrator;
use vendorwatch::app::App;

/// jemalloc for every allocation of the process (Cargo.toml says why).
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[tokio::main]
async fn main() -> loco_rs::Result<()> {
    let ended = cli::main::<App, Migrator>().await;
    vendorwatch::observability::flush_log();
    ended
}
