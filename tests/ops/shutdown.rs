//! A production server stopped with SIGTERM: it stops accepting connections, finishes the
//! request in flight, and exits; a request that stalls is cut off after the grace period
//! (`SHUTDOWN_GRACE_SECONDS`) instead of keeping the process alive.

use std::{
    path::Path,
    process::{Child, Command, ExitStatus},
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use super::production::{cli, free_port, production_env, wait_until_up};

const BODY: &str = r#"{"email":"nobody@example.com","password":"not-the-password-1"}"#;

/// A production server on a port of its own, up and answering; with `grace` in seconds.
async fn start_server(dir: &Path, grace: u64) -> (Child, u16) {
    let port = free_port();
    let mut env = production_env(dir, port);
    env.insert("SHUTDOWN_GRACE_SECONDS", grace.to_string());
    let log = std::fs::File::create(dir.join("server.log")).unwrap();
    let server = cli(dir, &env, &["start"])
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    wait_until_up(&reqwest::Client::new(), &format!("http://127.0.0.1:{port}")).await;
    (server, port)
}

/// A sign-in whose headers and first half of the body are sent: the server is reading it.
async fn request_half_sent(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let head = format!(
        "POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{}",
        BODY.len(),
        &BODY[..BODY.len() / 2]
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // Time for the server to accept the connection and start the handler on it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    stream
}

fn sigterm(server: &Child) {
    assert!(Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap()
        .success());
}

/// The server's exit status, waiting up to `secs` seconds.
async fn exit_within(server: &mut Child, secs: u64, dir: &Path) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = server.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = server.kill();
            panic!(
                "the server did not exit within {secs} s of SIGTERM:\n{}",
                std::fs::read_to_string(dir.join("server.log")).unwrap()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_stopping_server_refuses_new_connections_and_finishes_the_request_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, port) = start_server(dir.path(), 30).await;
    let mut in_flight = request_half_sent(port).await;

    sigterm(&server);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        server.try_wait().unwrap().is_none(),
        "the server waits for the request in flight"
    );
    assert!(
        TcpStream::connect(("127.0.0.1", port)).await.is_err(),
        "a stopping server accepts no new connection"
    );

    // The rest of the body: the request is answered in full (an unknown user: 401).
    in_flight
        .write_all(&BODY.as_bytes()[BODY.len() / 2..])
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), in_flight.read_to_end(&mut answer))
        .await
        .expect("the answer comes")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    assert!(answer.contains(r#""error""#), "{answer}");

    let status = exit_within(&mut server, 10, dir.path()).await;
    assert!(status.success(), "exit on SIGTERM: {status}");
}

#[tokio::test]
async fn a_request_that_stalls_is_cut_off_after_the_grace_period() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, port) = start_server(dir.path(), 1).await;
    let mut stalled = request_half_sent(port).await;

    let stopped = Instant::now();
    let status = crate::support::process::terminate(&mut server, 10).await;
    assert!(status.success(), "exit on SIGTERM: {status}");
    assert!(
        stopped.elapsed() >= Duration::from_millis(900),
        "the grace period was given: {:?}",
        stopped.elapsed()
    );
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap();
    assert!(
        log.contains("did not finish within the grace period"),
        "{log}"
    );
    // The connection was closed without an answer.
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stalled.read_to_end(&mut rest)).await;
    assert!(
        matches!(read, Ok(Ok(0) | Err(_))),
        "closed, nothing answered: {:?}",
        String::from_utf8_lossy(&rest)
    );
}
