use loco_rs::cli;
use migration::Migrator;
use vendorwatch::app::App;

/// mimalloc for every allocation of the process (Cargo.toml says why).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> loco_rs::Result<()> {
    cli::main::<App, Migrator>().await
}
