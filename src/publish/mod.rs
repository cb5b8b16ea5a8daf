//! Publishing: what the desk and the command line show and write about an event, as text,
//! CSV, HTML, FIDE TRF and PDN; the record a federation rates (ACF, WCDF); the prize list; the
//! round's sheets to print (pairings, result slips, score sheets, crosstable) and a lone match's
//! (score sheets, result slip, report); a file's games analysed by the engine; the board as an
//! SVG or PNG picture; and the desk's sentences (a result, why a board is paired so).
//! Between the store and the front ends: it reads events and PDN, never a terminal or a file.

mod analysis_report;
mod board_png;
mod board_svg;
mod export;
mod federation;
pub mod hall;
mod match_log;
mod match_sheets;
mod prizes;
pub mod sentences;
mod sheets;
pub use analysis_report::{AnalysedGame, analysis_report};
pub use board_png::{PNG_MAX_SIDE, PngError, svg_to_png};
pub use board_svg::{BOARD_SVG_FONT, BoardSvgOptions, SvgPart, board_svg, board_svg_parts};
pub use export::{EventPdn, Published, ascii_halves, board_pdn, pdn, pdn_with, trf};
pub use federation::{
    Federation, federation_csv, federation_gaps, federation_id, federation_report, is_full_name,
};
pub use match_log::{coin_side, format_clock, match_log_words, tie_block};
pub use match_sheets::{MatchSheets, match_sheets};
pub use prizes::{prizes_html, prizes_text};
pub use sheets::{Paper, SheetCodes, SheetKind, crosstable_table, sheet};
