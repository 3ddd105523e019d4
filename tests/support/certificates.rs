//! ACORD-25-like certificates as PDFs: the text lines of a certificate (producer, insured,
//! insurers, one row per line of insurance with its limits below, the certificate holder), made
//! a PDF by the library's `text_pdf`; and a scan, made here with lopdf: one page that is only a
//! JPEG image, with no text at all.

use lopdf::{
    content::{Content, Operation},
    dictionary, Document, Object, Stream,
};

/// One line of insurance on a certificate.
pub struct CertLine<'a> {
    /// As ACORD 25 prints it: "COMMERCIAL GENERAL LIABILITY", "AUTOMOBILE LIABILITY", ...
    pub heading: &'a str,
    pub policy: &'a str,
    pub additional_insured: bool,
    pub waiver: bool,
    /// MM/DD/YYYY.
    pub effective: &'a str,
    pub expiration: &'a str,
    /// ("EACH OCCURRENCE", "1,000,000").
    pub limits: Vec<(&'a str, &'a str)>,
}

/// A certificate's facts, laid out as text lines.
pub struct Cert<'a> {
    pub date: &'a str,
    pub insured: &'a str,
    pub holder: &'a str,
    pub lines: Vec<CertLine<'a>>,
}

impl Cert<'_> {
    pub fn text_lines(&self) -> Vec<String> {
        let mut out = vec![
            format!(
                "CERTIFICATE OF LIABILITY INSURANCE DATE (MM/DD/YYYY) {}",
                self.date
            ),
            "PRODUCER: Keystone Insurance Agency".to_string(),
            format!("INSURED: {}", self.insured),
            "INSURER A: Hartford Fire Insurance Co NAIC # 19682".to_string(),
        ];
        for line in &self.lines {
            let yn = |b: bool| if b { "Y" } else { "N" };
            out.push(format!(
                "{} | INSR A | ADDL INSD {} | SUBR WVD {} | POLICY {} | EFF {} | EXP {}",
                line.heading,
                yn(line.additional_insured),
                yn(line.waiver),
                line.policy,
                line.effective,
                line.expiration
            ));
            for (label, amount) in &line.limits {
                out.push(format!("{label} $ {amount}"));
            }
        }
        out.push(format!("CERTIFICATE HOLDER: {}", self.holder));
        out
    }

    /// The certificate as a one-page PDF with a text layer.
    pub fn pdf(&self) -> Vec<u8> {
        text_pdf(&[self.text_lines()])
    }
}

/// A PDF with one page per entry, each showing its lines.
pub fn text_pdf(pages: &[Vec<String>]) -> Vec<u8> {
    vendorwatch::services::certificates::text_pdf(pages)
}

/// A scanned certificate: one page drawing one JPEG, no text layer.
pub fn scanned_pdf() -> Vec<u8> {
    let jpeg = crate::fixtures::jpeg();
    let mut doc = Document::with_version("1.5");
    let tree_id = doc.new_object_id();
    let image_id = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 1, "Height" => 1,
            "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8, "Filter" => "DCTDecode",
        },
        jpeg,
    ));
    let content = Content {
        operations: vec![
            Operation::new("q", vec![]),
            Operation::new(
                "cm",
                vec![
                    612.into(),
                    0.into(),
                    0.into(),
                    792.into(),
                    0.into(),
                    0.into(),
                ],
            ),
            Operation::new("Do", vec!["Im1".into()]),
            Operation::new("Q", vec![]),
        ],
    }
    .encode()
    .unwrap();
    let content_id = doc.add_object(Stream::new(dictionary! {}, content));
    let resources_id = doc.add_object(dictionary! {"XObject" => dictionary! {"Im1" => image_id}});
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => tree_id, "Contents" => content_id,
        "Resources" => resources_id,
    });
    doc.objects.insert(
        tree_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => tree_id});
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// Granite Builders' certificate: general liability at $1M/$2M with additional insured and
/// waiver of subrogation, and $1M automobile, for Harbor Property Group.
pub fn granite() -> Cert<'static> {
    Cert {
        date: "03/15/2026",
        insured: "Granite Builders LLC",
        holder: "Harbor Property Group",
        lines: vec![
            CertLine {
                heading: "COMMERCIAL GENERAL LIABILITY",
                policy: "GL-4431-09",
                additional_insured: true,
                waiver: true,
                effective: "01/01/2026",
                expiration: "01/01/2027",
                limits: vec![
                    ("EACH OCCURRENCE", "1,000,000"),
                    ("GENERAL AGGREGATE", "2,000,000"),
                ],
            },
            CertLine {
                heading: "AUTOMOBILE LIABILITY",
                policy: "AU-7781",
                additional_insured: false,
                waiver: false,
                effective: "01/01/2026",
                expiration: "01/01/2027",
                limits: vec![("COMBINED SINGLE LIMIT", "1,000,000")],
            },
        ],
    }
}
