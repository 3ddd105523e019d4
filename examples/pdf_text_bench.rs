//! Benchmark of the text step of reading a certificate with AI (`services::certificates::
//! pdf_text`): how long the PDF's own text layer takes to come out, for a typical one-page ACORD
//! 25 certificate and for a ten-page one (a certificate with its endorsements attached), both
//! made in memory as the tests make them. (A measurement, not a test: scripts/test does not run
//! it.) Each size is read `--runs` times (200 by default) after 10 warm-up reads; it reports the
//! median and the 95th percentile, and the ten-page median against the one-page median.
//! Results: docs/benchmarks/certificates.md.
//!
//! ```sh
//! cargo run --release --example pdf_text_bench
//! ```

// Sizes in KB with one decimal: a float of a byte count is exact enough.
#![allow(clippy::cast_precision_loss)]

use std::time::{Duration, Instant};

use vendorwatch::services::certificates::{pdf_text, text_pdf};

/// One page of an ACORD 25 certificate as text lines: about 60 lines, as a real one has.
fn certificate_page(page: usize) -> Vec<String> {
    let mut lines = vec![
        format!("CERTIFICATE OF LIABILITY INSURANCE DATE (MM/DD/YYYY) 03/15/2026 PAGE {page}"),
        "THIS CERTIFICATE IS ISSUED AS A MATTER OF INFORMATION ONLY AND CONFERS NO RIGHTS".into(),
        "PRODUCER: Keystone Insurance Agency, 100 Market Street, Philadelphia PA 19106".into(),
        "INSURED: Granite Builders LLC, 2200 Quarry Road, Allentown PA 18101".into(),
    ];
    for (letter, insurer) in ["A", "B", "C", "D", "E", "F"].iter().zip([
        "Hartford Fire Insurance Co NAIC # 19682",
        "Travelers Indemnity Co NAIC # 25658",
        "Zurich American Insurance Co NAIC # 16535",
        "Liberty Mutual Fire Insurance Co NAIC # 23035",
        "Chubb Indemnity Insurance Co NAIC # 12777",
        "Erie Insurance Exchange NAIC # 26263",
    ]) {
        lines.push(format!("INSURER {letter}: {insurer}"));
    }
    for (heading, limits) in [
        (
            "COMMERCIAL GENERAL LIABILITY",
            vec![
                "EACH OCCURRENCE",
                "DAMAGE TO RENTED PREMISES",
                "MED EXP (Any one person)",
                "PERSONAL & ADV INJURY",
                "GENERAL AGGREGATE",
                "PRODUCTS - COMP/OP AGG",
            ],
        ),
        (
            "AUTOMOBILE LIABILITY",
            vec!["COMBINED SINGLE LIMIT", "BODILY INJURY (Per person)"],
        ),
        ("UMBRELLA LIAB", vec!["EACH OCCURRENCE", "AGGREGATE"]),
        (
            "WORKERS COMPENSATION",
            vec![
                "E.L. EACH ACCIDENT",
                "E.L. DISEASE - EA EMPLOYEE",
                "E.L. DISEASE - POLICY LIMIT",
            ],
        ),
        ("PROFESSIONAL LIABILITY", vec!["EACH CLAIM", "AGGREGATE"]),
    ] {
        lines.push(format!(
            "{heading} | INSR A | ADDL INSD Y | SUBR WVD Y | POLICY GL-4431-{page:02} | EFF 01/01/2026 | EXP 01/01/2027"
        ));
        for limit in limits {
            lines.push(format!("{limit} $ 1,000,000"));
        }
    }
    for i in 0..20 {
        lines.push(format!(
            "DESCRIPTION OF OPERATIONS / LOCATIONS / VEHICLES line {i}: the certificate holder is an additional insured as required by written contract."
        ));
    }
    lines.push("CERTIFICATE HOLDER: Harbor Property Group, 1 Harbor Way, Camden NJ 08101".into());
    lines.push("AUTHORIZED REPRESENTATIVE ACORD 25 (2016/03) The ACORD name and logo are registered marks of ACORD".into());
    lines
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

fn measure(pdf: &[u8], runs: usize) -> (Duration, Duration, usize) {
    let mut chars = 0;
    for _ in 0..10 {
        chars = pdf_text(pdf).expect("the PDF reads").len();
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let text = pdf_text(pdf).expect("the PDF reads");
            let took = start.elapsed();
            assert_eq!(text.len(), chars);
            took
        })
        .collect();
    times.sort_unstable();
    (percentile(&times, 0.5), percentile(&times, 0.95), chars)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let one = text_pdf(&[certificate_page(1)]);
    let ten = text_pdf(&(1..=10).map(certificate_page).collect::<Vec<_>>());
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("| certificate | PDF size | text | median | p95 |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let mut medians = Vec::new();
    for (name, pdf) in [("1 page", &one), ("10 pages", &ten)] {
        let (median, p95, chars) = measure(pdf, runs);
        medians.push(median);
        println!(
            "| {name} | {:.1} KB | {chars} characters | {:.2} ms | {:.2} ms |",
            pdf.len() as f64 / 1024.0,
            ms(median),
            ms(p95)
        );
    }
    println!(
        "\n10 pages / 1 page (medians): {:.1}x ({runs} runs each)",
        medians[1].as_secs_f64() / medians[0].as_secs_f64()
    );
}
