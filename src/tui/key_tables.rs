//! The registry of every key-binding table of the app (screens, stages, popups, dialogs, the
//! desk, the help overlay), by its path. `tests/tui/keys.rs` checks that every
//! `static NAME: &[Binding<..>]` in `src/tui/` is listed here (so a new table cannot be
//! forgotten), that each is consistent ([`keys::check_table`]), and that each is in force on
//! some screen reached with the real keys, where every key is handled and in the help.
//!
//! A new table: add its path to [`all`].

use super::keys::{self, Erased};

/// One registered table, its action type erased.
pub struct Table {
    /// Its path, as written in the source: `crate::tui::desk::keys::KEYS`.
    pub name: String,
    /// [`keys::check_table`] on it: every key reaches its binding and is in its help.
    pub check: fn() -> Result<(), String>,
    /// The table without its actions, as a screen's `chain` lists it.
    pub erased: fn() -> Erased,
}

macro_rules! registry {
    ($($path:path),* $(,)?) => {
        vec![$(Table {
            name: stringify!($path).replace(' ', ""),
            check: || keys::check_table($path),
            erased: || keys::erase($path),
        }),*]
    };
}

/// Every binding table of the app.
pub fn all() -> Vec<Table> {
    registry![
        crate::tui::analysis_pane::KEYS,
        crate::tui::desk::keys::ASK_KEYS,
        crate::tui::desk::keys::KEYS,
        crate::tui::desk::keys::LIST_KEYS,
        crate::tui::egdb_offer::KEYS,
        crate::tui::egdb_offer::TROUBLE_CLOSE_KEYS,
        crate::tui::egdb_offer::TROUBLE_KEYS,
        crate::tui::match_flow::director_menu::CHOICE_KEYS,
        crate::tui::match_flow::director_menu::FORM_KEYS,
        crate::tui::match_flow::director_menu::MENU_CLOSE_KEYS,
        crate::tui::match_flow::join::KEYS,
        crate::tui::match_flow::log_view::KEYS,
        crate::tui::match_flow::results::FINAL_KEYS,
        crate::tui::match_flow::results::KEYS,
        crate::tui::match_flow::resume::DAMAGED_KEYS,
        crate::tui::match_flow::resume::KEYS,
        crate::tui::match_flow::resume::LOCKED_KEYS,
        crate::tui::match_flow::resume::PATH_KEYS,
        crate::tui::match_flow::screen::keys::BOARD_KEYS,
        crate::tui::match_flow::screen::keys::KEYS,
        crate::tui::match_flow::screen::keys::RESIGN_KEYS,
        crate::tui::match_flow::screen::keys::SERVE_KEYS,
        crate::tui::match_flow::screen::keys::SERVING_KEYS,
        crate::tui::match_flow::screen::keys::SHEET_KEYS,
        crate::tui::match_flow::setup::ARROW_KEYS,
        crate::tui::match_flow::setup::CHOICE_KEYS,
        crate::tui::match_flow::setup::existing::FILE_KEYS,
        crate::tui::match_flow::setup::memory::MEMORY_KEYS,
        crate::tui::match_flow::setup::memory::PRESET_CLOSE_KEYS,
        crate::tui::match_flow::setup::KEYS,
        crate::tui::match_flow::stages::decide::ACCEPTED_KEYS,
        crate::tui::match_flow::stages::decide::DECIDE_KEYS,
        crate::tui::match_flow::stages::draw::AUTO_KEYS,
        crate::tui::match_flow::stages::draw::CARD_KEYS,
        crate::tui::match_flow::stages::draw::WAIT_KEYS,
        crate::tui::match_flow::stages::draw::WAIT_BY_KEY_KEYS,
        crate::tui::match_flow::stages::game::KEYS,
        crate::tui::match_flow::stages::game::PAUSED_KEYS,
        crate::tui::match_flow::stages::game::POOL_KEYS,
        crate::tui::match_flow::stages::game::RULES_KEYS,
        crate::tui::match_flow::stages::over::KEYS,
        crate::tui::match_flow::stages::pre_game::KEYS,
        crate::tui::match_flow::stages::toss::ASSIGN_KEYS,
        crate::tui::match_flow::stages::toss::BAG_KEYS,
        crate::tui::match_flow::stages::toss::CHOOSE_KEYS,
        crate::tui::match_flow::stages::toss::COIN_KEYS,
        crate::tui::match_flow::stages::toss::DONE_KEYS,
        crate::tui::match_flow::stages::toss::HANDS_KEYS,
        crate::tui::move_input::CHOICE_KEYS,
        crate::tui::move_input::MOVE_KEYS,
        crate::tui::screens::atlas::FIELD_KEYS,
        crate::tui::screens::atlas::KEYS,
        crate::tui::screens::engines::KEYS,
        crate::tui::screens::library::FIELD_KEYS,
        crate::tui::screens::library::KEYS,
        crate::tui::screens::open_pdn::LIST_KEYS,
        crate::tui::screens::open_pdn::PATH_KEYS,
        crate::tui::screens::position_setup::FEN_KEYS,
        crate::tui::screens::position_setup::KEYS,
        crate::tui::screens::practice::KEYS,
        crate::tui::screens::practice_keep::LEAVE_KEYS,
        crate::tui::screens::practice_setup::KEYS,
        crate::tui::rules_text::HUFF_KEYS,
        crate::tui::screens::review::ANALYSING_KEYS,
        crate::tui::screens::review::CLOSE_KEYS,
        crate::tui::screens::review::KEYS,
        crate::tui::widgets::form::CONFIRM_KEYS,
        crate::tui::widgets::form::TEXT_KEYS,
        crate::tui::widgets::menu::GLOBAL_KEYS,
        crate::tui::widgets::menu::HELP_KEYS,
        crate::tui::widgets::menu::MENU_KEYS,
    ]
}
