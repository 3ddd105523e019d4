//! Where a delivery may go (the SSRF guard): an `http` or `https` URL whose host resolves only
//! to public addresses. Private, loopback, link-local, shared (carrier-grade NAT),
//! documentation, multicast and unspecified addresses are refused, unless the settings allow
//! private targets (tests, a private network). The check is made when an endpoint is added and
//! again before every attempt, and the attempt connects to the addresses that were checked
//! (a name that resolves elsewhere a second later does not move it).

use std::net::{IpAddr, SocketAddr};

use ipnet::IpNet;
use url::Url;

/// The networks no delivery goes to.
const BLOCKED: [&str; 17] = [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "224.0.0.0/3",
    "::/127",
    "::ffff:0:0/96",
    "64:ff9b::/96",
    "fc00::/7",
    "fe80::/10",
    "ff00::/8",
];

/// Whether `ip` is an address no delivery goes to.
#[must_use]
pub fn is_private(ip: IpAddr) -> bool {
    // An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address.
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    };
    BLOCKED
        .iter()
        .filter_map(|net| net.parse::<IpNet>().ok())
        .any(|net| net.contains(&ip))
}

/// A checked target: the URL, and the addresses its host resolved to.
#[derive(Debug, Clone)]
pub struct Target {
    pub url: Url,
    pub host: String,
    pub addrs: Vec<SocketAddr>,
}

/// Checks `url`; the target, or why it is refused, in a sentence for the person adding it.
///
/// # Errors
/// The sentence.
pub async fn check(url: &str, allow_private: bool) -> Result<Target, String> {
    let parsed = Url::parse(url)
        .map_err(|_| "Enter a full URL, such as https://example.com/webhooks.".to_string())?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("The URL must start with https:// or http://.".to_string());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("The URL cannot hold a user name or password.".to_string());
    }
    let Some(host) = parsed.host_str().map(str::to_string) else {
        return Err("Enter a full URL, such as https://example.com/webhooks.".to_string());
    };
    let port = parsed.port_or_known_default().unwrap_or(443);
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = match bare.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::net::lookup_host((bare, port))
            .await
            .map(Iterator::collect)
            .unwrap_or_default(),
    };
    if addrs.is_empty() {
        return Err(format!("We could not find {bare}. Check the URL."));
    }
    if !allow_private && addrs.iter().any(|a| is_private(a.ip())) {
        return Err("This address is private: webhooks go only to public addresses.".to_string());
    }
    Ok(Target {
        url: parsed,
        host: bare.to_string(),
        addrs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_loopback_and_link_local_addresses_are_refused() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.20.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
        ] {
            assert!(is_private(ip.parse().unwrap()), "{ip} is private");
        }
        for ip in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1"] {
            assert!(!is_private(ip.parse().unwrap()), "{ip} is public");
        }
    }

    #[tokio::test]
    async fn urls_are_refused_for_their_scheme_credentials_and_private_hosts() {
        assert!(check("ftp://example.com/x", true).await.is_err());
        assert!(check("not a url", true).await.is_err());
        assert!(check("http://user:pw@127.0.0.1/x", true).await.is_err());
        let refused = check("http://127.0.0.1:9/hook", false).await.unwrap_err();
        assert!(refused.contains("private"), "{refused}");
        assert!(check("http://[::1]:9/hook", false).await.is_err());
        assert!(check("http://localhost:9/hook", false).await.is_err());
        let allowed = check("http://127.0.0.1:9/hook", true).await.unwrap();
        assert_eq!(allowed.addrs, vec!["127.0.0.1:9".parse().unwrap()]);
    }
}
