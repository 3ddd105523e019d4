//! Keep-alive clients whose body the server does not read (an unknown route, a refused upload):
//! each gets its whole answer, and then either the connection serves the next request or the
//! answer said `Connection: close`. No request is answered by a dropped connection.

use std::time::Duration;

use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::support::{create_vendor, register, with_app};

/// Reads one HTTP/1.1 answer (head and `Content-Length` body) from the stream: its status, its
/// head, and whether it came whole.
async fn read_answer<R: AsyncRead + Unpin>(
    stream: &mut R,
    buffer: &mut Vec<u8>,
) -> Option<(u16, String)> {
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).to_string();
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().ok())?
                })
                .unwrap_or(0);
            while buffer.len() < end + 4 + length {
                let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
                    .await
                    .ok()?
                    .ok()?;
                if n == 0 {
                    return None;
                }
                buffer.extend_from_slice(&chunk[..n]);
            }
            buffer.drain(..end + 4 + length);
            let status = head.split_whitespace().nth(1)?.parse().ok()?;
            return Some((status, head));
        }
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
}

/// Sends `head` and `body` (still writing while the answer is read, as a streaming client
/// does), reads the whole answer, then sends a `GET /_ping` on the same connection unless the
/// answer said it closes. Returns the first status, whether it closed, and the second status.
async fn unread_body_then_ping(
    addr: &str,
    head: String,
    body: Vec<u8>,
) -> (u16, bool, Option<u16>) {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let sender = tokio::spawn(async move {
        let _ = writer.write_all(head.as_bytes()).await;
        let _ = writer.write_all(&body).await;
        let _ = writer.flush().await;
        writer
    });
    let mut buffer = Vec::new();
    let (status, head) = read_answer(&mut reader, &mut buffer)
        .await
        .expect("the whole answer, not a dropped connection");
    if head.to_lowercase().contains("connection: close") {
        sender.abort();
        return (status, true, None);
    }
    let writer = tokio::time::timeout(Duration::from_secs(20), sender)
        .await
        .expect("a kept-alive connection reads the rest of the body")
        .unwrap();
    let mut stream = reader.reunite(writer).unwrap();
    stream
        .write_all(format!("GET /_ping HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let second = read_answer(&mut stream, &mut buffer).await.map(|(s, _)| s);
    (status, false, second)
}

#[tokio::test]
async fn an_unread_body_still_gets_its_answer_and_the_connection_is_reused_or_closed() {
    with_app(|server, _ctx| async move {
        let ann = register(&server, "Ann Lee", None).await;
        let id = create_vendor(&server, &ann, "Keep Co").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let url = server.server_address().expect("a real port");
        let addr = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());

        // An unknown route with a 2 MB JSON body.
        let body = format!("{{\"junk\":\"{}\"}}", "x".repeat(2 * 1024 * 1024)).into_bytes();
        let head = format!(
            "POST /api/no-such-route HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let (status, closed, second) = unread_body_then_ping(&addr, head, body).await;
        assert_eq!(status, 404);
        assert!(closed || second == Some(200), "reused: {second:?}");

        // An upload over the 10 MB limit, refused before its body is read.
        let boundary = "XKEEPALIVEX";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"documentType\"\r\n\r\nw9\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\n\
             Content-Type: application/pdf\r\n\r\n%PDF-1.4\n"
        )
        .into_bytes();
        body.resize(body.len() + 12 * 1024 * 1024, b' ');
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let head = format!(
            "POST /api/vendors/{id}/documents HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {}\r\n\r\n",
            ann.token,
            body.len()
        );
        let (status, closed, second) = unread_body_then_ping(&addr, head, body).await;
        assert_eq!(status, 413);
        assert!(closed || second == Some(200), "reused: {second:?}");

        // A body read whole (a refused sign-in): the connection stays open and serves the next.
        let body = br#"{"email":"nobody@example.com","password":"wrong-password"}"#.to_vec();
        let head = format!(
            "POST /api/auth/login HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let (status, closed, second) = unread_body_then_ping(&addr, head, body).await;
        assert_eq!(status, 401);
        assert!(!closed, "a body read to its end keeps the connection");
        assert_eq!(second, Some(200));
    })
    .await;
}
