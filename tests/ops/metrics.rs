//! The metrics of a production server stay the same size whatever clients send: every label
//! value comes from a bounded set (the method, the route template, the status), so invented
//! methods and made-up paths add no series. Each label set of a counter or a histogram is kept
//! for good; before, 40,000 requests with invented methods made a 57 MB scrape.

use std::collections::BTreeSet;

use super::production::{free_port, production_env, spawn_server, wait_until_up};

/// The label sets (`{...}`) of `metric`'s lines in `scrape`.
fn label_sets<'a>(scrape: &'a str, metric: &str) -> BTreeSet<&'a str> {
    scrape
        .lines()
        .filter_map(|l| l.strip_prefix(metric)?.strip_prefix('{'))
        .filter_map(|l| l.rsplit_once('}').map(|(labels, _)| labels))
        .collect()
}

#[tokio::test]
async fn invented_methods_and_made_up_paths_add_no_metric_series() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let metrics_port = free_port();
    let mut env = production_env(dir.path(), port);
    env.insert("METRICS_LISTEN", format!("127.0.0.1:{metrics_port}"));
    let mut server = spawn_server(dir.path(), &env, "server.log");
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_until_up(&client, &base).await;

    for n in 0..60 {
        let method = reqwest::Method::from_bytes(format!("MABC{n}X").as_bytes()).unwrap();
        for path in ["/x", "/api/vendors", &format!("/nowhere-{n}")] {
            client
                .request(method.clone(), format!("{base}{path}"))
                .send()
                .await
                .unwrap();
        }
        for path in [
            format!("/made-up-{n}/page"),
            format!("/api/made-up-{n}"),
            format!("/api/vendors/made-up-{n}"),
            format!("/assets/made-up-{n}.js"),
        ] {
            client.get(format!("{base}{path}")).send().await.unwrap();
        }
    }

    let scrape = client
        .get(format!("http://127.0.0.1:{metrics_port}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let requests = label_sets(&scrape, "http_requests_total");
    let durations = label_sets(&scrape, "http_request_duration_seconds_count");
    // 60 × 7 requests: a handful of (method, route, status) sets, not hundreds.
    assert!(
        (3..=12).contains(&requests.len()),
        "{} label sets of http_requests_total: {requests:#?}",
        requests.len()
    );
    assert!(durations.len() <= 8, "{durations:#?}");
    assert!(
        requests.iter().any(|l| l.contains(r#"method="other""#)),
        "{requests:#?}"
    );
    assert!(
        requests.iter().any(|l| l.contains(r#"route="unmatched""#)),
        "{requests:#?}"
    );
    for made_up in ["MABC", "made-up", "nowhere"] {
        assert!(
            !scrape.contains(made_up),
            "`{made_up}` in a label:\n{scrape}"
        );
    }
    for labels in &requests {
        let status = labels
            .split(',')
            .find_map(|l| l.strip_prefix("status=\""))
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or_else(|| panic!("no status in {labels}"));
        assert!(status.parse::<u16>().is_ok(), "{labels}");
    }

    let status = crate::support::process::terminate(&mut server, 30).await;
    assert!(status.success(), "exit on SIGTERM: {status}");
}
