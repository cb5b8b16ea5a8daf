//! Storage: PDN reading and writing, atomic saves, the config file, the match file and the
//! endgame database files.
//!
//! This layer knows about files and text formats; the layers below it (engine, openings,
//! director) stay pure.

mod atomic;
mod attach;
mod bench;
mod codes;
mod config;
pub mod egdb;
mod egdb_file;
mod event_bench;
mod eventdb;
mod export;
mod hall;
mod hub_engines;
mod import;
mod last_settings;
pub mod library;
mod lockfile;
mod matchfile;
mod matchlog;
mod pdn;
pub mod practice;
mod tokens;
mod tomlfile;
pub(crate) use atomic::open_regular;
pub use atomic::{
    Fault, OutputIsInput, Step, check_output, same_file, write_atomic, write_atomic_with,
    write_outputs,
};
pub use attach::{AttachMismatch, Attachment, check_board_games, read_attachment};
pub use bench::bench_lines;
pub use codes::{BoardCodes, CODE_LEN, FloorSeat, codes_path, read_code};
pub use config::parse_config;
pub use config::read_config;
pub use config::{
    Colour, Colours, Config, Display, EngineSettings, Named, SetUp, default_config_path,
    default_data_dir, load_config,
};
pub use egdb::default_egdb_dir;
pub use event_bench::bench_event;
pub use eventdb::{Desk, Entrant, EventSummary, OpenEvent, default_db_path};
pub use eventdb::{DeskError, SCHEMA_VERSION};
pub use export::{ExportError, Exported, default_export_path, export_match, match_pdn, notes};
pub use export::{NoteAt, comments, linked_games, match_to_pdn};
pub use hall::{
    BoardHall, BoardRefusal, Stand, board_hall, board_refusal, clear_refusal, keep_refusal,
    refusal_path,
};
pub use hub_engines::{HubEngineConfig, ParamValue};
pub use import::read_entry_file;
pub use last_settings::{default_last_settings_file, load_last_settings, save_last_settings};
pub use matchfile::END_MARKER;
pub use matchfile::v1_text;
pub use matchfile::{
    EXTENSION, MatchFile, MatchStore, StoreError, WriterLock, default_match_dir, latest_unfinished,
    list_matches, load_match, slug,
};
pub use pdn::PdnErrorKind;
pub use pdn::{PdnError, PdnGame, PdnResult, decode, move_label, read_pdn, write_pdn};
pub use practice::default_practice_file;
pub use tokens::{
    BoardPairing, archive_copy, board_of_token, copy_path, director_key, keep_board_token,
    tokens_path,
};
pub use tomlfile::{Format, LoadError, load_toml, save_toml, to_toml};
