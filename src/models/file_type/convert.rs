//! HEIC and TIFF turned into something a browser shows: a browser has no decoder for either,
//! so the view answers with a JPEG (an iPhone photo) or a PNG (a scan, kept lossless), upright
//! as the file says it is meant to be seen. The download keeps the original bytes.

use std::io::Cursor;

use image::{
    codecs::jpeg::JpegEncoder, imageops::FilterType, DynamicImage, ImageDecoder, ImageFormat,
    ImageReader, Limits, RgbImage,
};
use libheif_rs::{ColorSpace, HeifContext, LibHeif, RgbChroma};

use super::FileKind;

/// Larger pictures are refused before they are decoded: 64 million pixels (a 48 MP phone photo
/// fits; a decompression bomb does not).
const MAX_PIXELS: u64 = 64 * 1024 * 1024;
/// Memory the TIFF decoder may take for one picture.
const MAX_DECODE_BYTES: u64 = 512 * 1024 * 1024;
/// The longest side shown: more than a screen, less than a 600 dpi letter scan.
const MAX_SIDE: u32 = 4096;
const JPEG_QUALITY: u8 = 85;

/// A picture ready for the browser: its bytes and their content type.
pub struct Converted {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
}

/// Why a picture could not be converted (a broken file, a codec libheif or `image` lacks, a
/// picture over the size limit); the view then offers the original as a download.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConvertError(String);

fn error(err: impl std::fmt::Display) -> ConvertError {
    ConvertError(err.to_string())
}

/// The bytes of a file of `kind`, as a browser-ready picture; `None` for kinds a browser shows
/// as they are. Slow (a full decode): run it off the async threads.
///
/// # Errors
/// A `ConvertError` when the picture cannot be decoded or is too large.
pub fn for_browser(kind: FileKind, bytes: &[u8]) -> Result<Option<Converted>, ConvertError> {
    match kind {
        FileKind::Heic => {
            let picture = fit(heic_upright(bytes)?);
            Ok(Some(Converted {
                bytes: jpeg(&picture)?,
                content_type: "image/jpeg",
            }))
        }
        FileKind::Tiff => {
            let picture = fit(tiff_upright(bytes)?);
            let mut png = Vec::new();
            picture
                .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
                .map_err(error)?;
            Ok(Some(Converted {
                bytes: png,
                content_type: "image/png",
            }))
        }
        _ => Ok(None),
    }
}

/// A HEIC's primary picture, decoded by libheif with its rotation and mirroring (`irot`,
/// `imir`) applied: in HEIF those, not the EXIF orientation, say which way is up (an iPhone
/// writes both, and viewers follow `irot`).
fn heic_upright(bytes: &[u8]) -> Result<DynamicImage, ConvertError> {
    let context = HeifContext::read_from_bytes(bytes).map_err(error)?;
    let handle = context.primary_image_handle().map_err(error)?;
    if u64::from(handle.width()) * u64::from(handle.height()) > MAX_PIXELS {
        return Err(error("the picture is too large"));
    }
    let decoded = LibHeif::new()
        .decode(&handle, ColorSpace::Rgb(RgbChroma::Rgb), None)
        .map_err(error)?;
    let (width, height, pixels) = {
        let planes = decoded.planes();
        let plane = planes
            .interleaved
            .ok_or_else(|| error("no interleaved plane"))?;
        let row = plane.width as usize * 3;
        let mut pixels = Vec::with_capacity(row * plane.height as usize);
        for line in plane.data.chunks(plane.stride).take(plane.height as usize) {
            pixels.extend_from_slice(line.get(..row).ok_or_else(|| error("a short row"))?);
        }
        (plane.width, plane.height, pixels)
    };
    // libheif's copy goes before anything else is made of ours.
    drop(decoded);
    RgbImage::from_raw(width, height, pixels)
        .map(DynamicImage::ImageRgb8)
        .ok_or_else(|| error("the pixels do not fill the picture"))
}

/// A TIFF's first page, turned by its Orientation tag as a JPEG's EXIF orientation turns it
/// in the browser.
fn tiff_upright(bytes: &[u8]) -> Result<DynamicImage, ConvertError> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), ImageFormat::Tiff);
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(error)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(error("the picture is too large"));
    }
    let orientation = decoder.orientation().map_err(error)?;
    let mut picture = DynamicImage::from_decoder(decoder).map_err(error)?;
    picture.apply_orientation(orientation);
    // PNG holds 8- and 16-bit grey and colour; anything else (floats, CMYK read as RGB) is
    // brought to 8-bit colour.
    Ok(match picture {
        DynamicImage::ImageLuma8(_)
        | DynamicImage::ImageLumaA8(_)
        | DynamicImage::ImageRgb8(_)
        | DynamicImage::ImageRgba8(_)
        | DynamicImage::ImageLuma16(_)
        | DynamicImage::ImageRgb16(_)
        | DynamicImage::ImageRgba16(_) => picture,
        other if other.color().has_alpha() => DynamicImage::ImageRgba8(other.to_rgba8()),
        other => DynamicImage::ImageRgb8(other.to_rgb8()),
    })
}

/// At most `MAX_SIDE` pixels on the longest side, proportions kept.
fn fit(picture: DynamicImage) -> DynamicImage {
    if picture.width().max(picture.height()) <= MAX_SIDE {
        return picture;
    }
    picture.resize(MAX_SIDE, MAX_SIDE, FilterType::Triangle)
}

fn jpeg(picture: &DynamicImage) -> Result<Vec<u8>, ConvertError> {
    let mut bytes = Vec::new();
    let rgb = picture.to_rgb8();
    JpegEncoder::new_with_quality(&mut bytes, JPEG_QUALITY)
        .encode_image(&rgb)
        .map_err(error)?;
    Ok(bytes)
}
