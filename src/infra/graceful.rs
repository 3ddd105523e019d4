//! The server's stop on SIGTERM (or Ctrl-C): it stops accepting connections at once, lets the
//! requests in flight finish, and gives them `shutdown_grace_seconds` (`SHUTDOWN_GRACE_SECONDS`,
//! 30 by default) to do so; what is still running then (a client that stalled mid-upload) is cut
//! off and the process exits. Loco's own `serve` waits for every connection without a limit, so
//! one stalled client kept a stopping server alive until the supervisor killed it.

use std::{future::IntoFuture, net::SocketAddr, sync::Arc, time::Duration};

use axum::Router;
use loco_rs::{
    boot::{shutdown_signal, ServeParams},
    Result,
};
use tokio::sync::Notify;

/// Serves `app` on the address of `params` until a stop signal, then for at most `grace` while
/// requests finish. `on_stop` runs once the signal came (Loco's `Hooks::on_shutdown`).
///
/// # Errors
/// The address cannot be bound, or the server fails.
pub async fn serve<F>(app: Router, params: &ServeParams, grace: Duration, on_stop: F) -> Result<()>
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let listener =
        tokio::net::TcpListener::bind(format!("{}:{}", params.binding, params.port)).await?;
    let stopping = Arc::new(Notify::new());
    let signal = {
        let stopping = stopping.clone();
        async move {
            shutdown_signal().await;
            tracing::info!(
                grace_seconds = grace.as_secs(),
                "stopping: no new connections, finishing the requests in flight"
            );
            // A permit is stored when nobody waits yet: the grace timer below cannot miss it.
            stopping.notify_one();
            on_stop.await;
        }
    };
    let server = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(signal)
    .into_future();
    tokio::select! {
        finished = server => finished?,
        () = async {
            stopping.notified().await;
            tokio::time::sleep(grace).await;
        } => {
            tracing::warn!(
                grace_seconds = grace.as_secs(),
                "stopped with requests still in flight: they did not finish within the grace period"
            );
        }
    }
    Ok(())
}
