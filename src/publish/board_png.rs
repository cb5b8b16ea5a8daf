//! The board picture as PNG: [`board_svg`](mod@super::board_svg)'s drawing rasterised by resvg.
//!
//! Pure: a string in, bytes out. The text is drawn with fonts compiled into crossboard
//! (a subset of DejaVu Sans, regular and bold: Latin, Greek and Cyrillic letters, digits and
//! punctuation; see `assets/fonts/README.md`), never with the fonts of the machine, so a
//! picture is the same wherever it is made. A letter outside the subset is left out.

use std::sync::Arc;
use thiserror::Error;

/// DejaVu Sans, the letters crossboard draws with.
const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold.
const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The largest picture drawn, in pixels a side (a 4096 x 4096 picture takes 64 MB).
pub const PNG_MAX_SIDE: u32 = 4096;

/// Why a picture could not be made.
#[derive(Debug, Error)]
pub enum PngError {
    /// The SVG did not parse (a picture not made by crossboard).
    #[error("the picture does not read as SVG: {0}")]
    Svg(String),
    /// Zero or over [`PNG_MAX_SIDE`] pixels on a side.
    #[error("a picture of {width}x{height} pixels cannot be made (at most {PNG_MAX_SIDE} a side)")]
    Size {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// The PNG encoder failed.
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

/// `svg` rasterised at the size of its `width` and `height`, as PNG bytes. External
/// references (images, fonts) are not followed.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, PngError> {
    let options = usvg_options();
    let tree =
        resvg::usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let too_big = width > PNG_MAX_SIDE || height > PNG_MAX_SIDE;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)
        .filter(|_| !too_big)
        .ok_or(PngError::Size { width, height })?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// The rasteriser's options: the compiled-in fonts only, every family falling back to them,
/// and no image or file loaded from outside.
fn usvg_options() -> resvg::usvg::Options<'static> {
    let mut fonts = resvg::usvg::fontdb::Database::new();
    fonts.load_font_data(REGULAR.to_vec());
    fonts.load_font_data(BOLD.to_vec());
    fonts.set_sans_serif_family("DejaVu Sans");
    fonts.set_serif_family("DejaVu Sans");
    fonts.set_monospace_family("DejaVu Sans");
    let mut options = resvg::usvg::Options {
        font_family: "DejaVu Sans".into(),
        fontdb: Arc::new(fonts),
        ..resvg::usvg::Options::default()
    };
    options.image_href_resolver = resvg::usvg::ImageHrefResolver {
        resolve_data: Box::new(|_, _, _| None),
        resolve_string: Box::new(|_, _| None),
    };
    options
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Position;
    use crate::publish::{BoardSvgOptions, board_svg};

    #[test]
    fn the_start_position_rasterises_at_the_size_asked() {
        let svg = board_svg(
            &Position::start(),
            &BoardSvgOptions {
                size: 256,
                ..BoardSvgOptions::default()
            },
        );
        let png = svg_to_png(&svg).unwrap();
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (256, 301));
        // The same picture twice is the same bytes.
        assert_eq!(png, svg_to_png(&svg).unwrap());
    }

    #[test]
    fn the_fonts_draw_the_words() {
        // Text drawn with the compiled-in fonts: the caption's area has dark pixels.
        let with = |caption: Option<&str>| {
            let svg = board_svg(
                &Position::start(),
                &BoardSvgOptions {
                    caption: caption.map(str::to_string),
                    show_turn: false,
                    side_labels: false,
                    ..BoardSvgOptions::default()
                },
            );
            resvg::tiny_skia::Pixmap::decode_png(&svg_to_png(&svg).unwrap()).unwrap()
        };
        // Below the board (its frame ends at 499 of 512 units, 390 of 400 pixels).
        let ink_below_board = |p: &resvg::tiny_skia::Pixmap| {
            p.pixels()[p.width() as usize * 395..]
                .iter()
                .filter(|c| c.red() < 100)
                .count()
        };
        assert_eq!(ink_below_board(&with(None)), 0);
        let ink = ink_below_board(&with(Some("Anderson v Wyllie")));
        assert!(
            ink > 100,
            "the caption's letters are drawn ({ink} dark pixels)"
        );
    }

    #[test]
    fn an_oversized_picture_is_refused() {
        let svg = board_svg(
            &Position::start(),
            &BoardSvgOptions {
                size: PNG_MAX_SIDE + 1,
                ..BoardSvgOptions::default()
            },
        );
        assert!(matches!(svg_to_png(&svg), Err(PngError::Size { .. })));
        assert!(matches!(svg_to_png("not svg"), Err(PngError::Svg(_))));
    }
}
