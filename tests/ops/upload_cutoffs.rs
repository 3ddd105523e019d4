//! Uploads cut off mid-body, 100 on each upload route (the signed-in upload and the vendor
//! portal's), against the built binary in production mode with a temporary directory of its
//! own: a client that goes away leaves nothing, a client that stops sending (its half of the
//! connection closed) gets a 4xx envelope, and afterwards there is no document row, no stored
//! file and no temporary file.

use std::{path::Path, time::Duration};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::production::{free_port, production_env, spawn_server, wait_until_up};

const BOUNDARY: &str = "CUTOFFBOUNDARY";

/// A multipart body: the text fields, then a 256 KiB PDF as `file`.
fn body(fields: &[(&str, &str)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"w9.pdf\"\r\n\
             Content-Type: application/pdf\r\n\r\n"
        )
        .as_bytes(),
    );
    let mut pdf = crate::fixtures::pdf();
    pdf.resize(256 * 1024, b' ');
    body.extend_from_slice(&pdf);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// Sends `head` and the first `cut` bytes of `body` (declaring all of it), then either goes
/// away or closes its sending half and returns what the server answered.
async fn cut_off(port: u16, head: &str, body: &[u8], cut: usize, wait_for_answer: bool) -> String {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    // The server may answer and close early (a refused field): a write error is fine then.
    let _ = stream.write_all(&body[..cut]).await;
    let _ = stream.flush().await;
    if !wait_for_answer {
        return String::new();
    }
    let _ = stream.shutdown().await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_in(&path));
        } else {
            found.push(path.display().to_string());
        }
    }
    found
}

/// A production server of its own in `dir` (temporary files in `dir/tmp`), an account, and a
/// vendor with the company key `CutOff42`: the server, its port, the token and the vendor's id.
async fn server_with_a_vendor(dir: &Path) -> (std::process::Child, u16, String, String) {
    let port = free_port();
    let mut env = production_env(dir, port);
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    env.insert("TMPDIR", tmp.display().to_string());
    let server = spawn_server(dir, &env, "server.log");
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_until_up(&client, &base).await;

    let registered: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(
            &json!({"name": "Cut Off", "email": "cut@example.com", "password": "cut-off-password"}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = registered["token"].as_str().unwrap().to_string();
    let vendor: Value = client
        .post(format!("{base}/api/vendors"))
        .bearer_auth(&token)
        .json(
            &json!({"name": "Cut Co", "email": "ops@cut.example", "serviceType": "plumbing",
            "companyKey": "CutOff42"}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = vendor["id"]
        .as_str()
        .expect("the vendor is created")
        .to_string();

    (server, port, token, id)
}

#[tokio::test]
async fn a_hundred_uploads_cut_off_on_each_route_leave_no_row_no_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, port, token, id) = server_with_a_vendor(dir.path()).await;
    let tmp = dir.path().join("tmp");
    let (base, client) = (format!("http://127.0.0.1:{port}"), reqwest::Client::new());
    let user_body = body(&[("documentType", "w9")]);
    let portal_body = body(&[("companyKey", "CutOff42"), ("documentType", "w9")]);
    let routes = [
        (
            format!("/api/vendors/{id}/documents"),
            Some(token.as_str()),
            &user_body,
        ),
        (
            "/api/vendor-upload-document".to_string(),
            None,
            &portal_body,
        ),
    ];
    // The server's temporary files are in `tmp`: one appears while an upload is under way.
    let stalled_head = format!(
        "POST /api/vendors/{id}/documents HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Authorization: Bearer {token}\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\
         Content-Length: {}\r\n\r\n",
        user_body.len()
    );
    let mut stalled = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    stalled.write_all(stalled_head.as_bytes()).await.unwrap();
    stalled
        .write_all(&user_body[..user_body.len() / 2])
        .await
        .unwrap();
    let mut seen = false;
    for _ in 0..100 {
        if !files_in(&tmp).is_empty() {
            seen = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(seen, "no temporary file while an upload is under way");
    drop(stalled);

    for (path, bearer, body) in routes {
        for i in 0..100_usize {
            let auth = bearer.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
            // Each portal upload from an address of its own (behind a proxy, as production
            // runs): the portal's rate limit is per address.
            let head = format!(
                "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{auth}\
                 X-Forwarded-For: 10.9.{}.{}\r\n\
                 Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\
                 Content-Length: {}\r\n\r\n",
                i / 200,
                i % 200 + 1,
                body.len()
            );
            // From nothing sent to the closing delimiter short of its last dash, spread over
            // the whole body. (Only the CRLF after `--BOUNDARY--` is optional: a body cut
            // there is complete, and stored.)
            let cut = (body.len() - 3) * i / 99;
            let answer = cut_off(port, &head, body, cut, i % 2 == 1).await;
            if i % 2 == 1 {
                let status = answer.get(9..12).unwrap_or_default();
                assert!(
                    status.starts_with('4') && answer.contains("\"error\""),
                    "{path}, {cut} of {} bytes sent: answered {answer:?}",
                    body.len()
                );
            }
        }
    }

    // What the server still does with connections that went away, then nothing is left.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let documents: Vec<Value> = client
        .get(format!("{base}/api/documents"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(documents.is_empty(), "{documents:?}");
    assert_eq!(files_in(&dir.path().join("storage")), Vec::<String>::new());
    assert_eq!(files_in(&tmp), Vec::<String>::new(), "temporary files left");

    let status = crate::support::process::terminate(&mut server, 30).await;
    assert!(status.success(), "exit on SIGTERM: {status}");
}
