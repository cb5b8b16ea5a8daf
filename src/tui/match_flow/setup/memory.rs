//! What the set-up form starts from and can be filled with in one key: the last match's
//! settings (kept in the data folder when a match starts), and the config file's named
//! presets, chosen from a list.

use super::{FieldId, MatchSetupScreen, idx};
use crate::director::{
    BallotDraw, ColourMethod, GamePoints, MatchSettings, Player, RejectionPolicy, StrengthRule,
    TieRule,
};
use crate::engine::Rules;
use crate::openings::{DrawMode, System, ThreeMoveDeck};
use crate::tui::keys::{Binding, ESC, Key, help, lookup};
use crate::tui::theme::Appearance;
use crate::tui::widgets::menu::{KeyHelp, MENU_KEYS, Menu, MenuItem, MenuOutcome};
use crate::tui::widgets::{fit_line, fit_text};
use ratatui::crossterm::event::KeyEvent;
use ratatui::text::{Line, Span};

/// What the memory keys of the form do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemoryAct {
    /// Open the list of presets.
    Presets,
    /// Fill in the last match's players.
    LastPlayers,
}

/// The keys that fill the form from a preset or from the last match.
pub(crate) static MEMORY_KEYS: &[Binding<MemoryAct>] = &[
    Binding::new(
        &[Key::Ctrl('p')],
        MemoryAct::Presets,
        "choose one of the config file's presets (a list)",
    ),
    Binding::new(
        &[Key::Ctrl('l')],
        MemoryAct::LastPlayers,
        "fill in the last match's players",
    ),
];

/// The key that closes the list of presets.
pub(crate) static PRESET_CLOSE_KEYS: &[Binding<()>] =
    &[Binding::new(&[ESC], (), "close the list, nothing changed")];

/// Where the form's values came from, named in its title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// The config file's defaults (or the built-in ones).
    Defaults,
    /// The last match started on the form.
    LastMatch,
    /// A preset, by name.
    Preset(String),
}

impl Origin {
    /// The words in the form's title (empty for the defaults).
    pub(super) fn words(&self) -> String {
        match self {
            Origin::Defaults => String::new(),
            Origin::LastMatch => "the last match's settings".into(),
            Origin::Preset(name) => format!("preset {name}"),
        }
    }
}

impl MatchSetupScreen {
    /// Put `d` in the form: every setting, and the players' names when `names`.
    pub(super) fn fill(&mut self, d: &MatchSettings, names: bool) {
        let mut set = |id: FieldId, v: String| self.texts[idx(id)].value = v;
        if names {
            set(FieldId::Name1, d.players[0].clone());
            set(FieldId::Name2, d.players[1].clone());
        }
        set(FieldId::Event, d.event.clone());
        set(FieldId::Ballots, d.ballots.to_string());
        set(FieldId::Time, d.time_control.to_string());
        let blocks = match d.tie {
            TieRule::ContinueInBlocks {
                max_blocks: Some(n),
            } => n.to_string(),
            _ => String::new(),
        };
        set(FieldId::MaxBlocks, blocks);
        for (id, choice) in choices_of(d) {
            self.choices[idx(id)] = choice;
        }
        self.before_pool = None;
    }

    /// Start from the last match's settings when there are some (its players' names only if
    /// the config says so); a damaged file is named and the defaults stay.
    pub(super) fn recall_last(&mut self) {
        let Some(path) = self.options.last_settings.clone() else {
            return;
        };
        match crate::store::load_last_settings(&path) {
            Ok(Some(last)) => {
                self.fill(&last, self.options.remember_names);
                self.origin = Origin::LastMatch;
                self.last = Some(Box::new(last));
            }
            Ok(None) => {}
            Err(e) => {
                self.note = Some(format!(
                    "The last match's settings were not read ({e}): the defaults are filled in."
                ));
            }
        }
    }

    /// Keep the settings of the match just started for the next set-up. A failure costs only
    /// the convenience, and the match is already saved in its own file.
    pub(super) fn remember(&self, settings: &MatchSettings) {
        if let Some(path) = &self.options.last_settings {
            let _ = crate::store::save_last_settings(path, settings);
        }
    }

    /// Handle a memory key.
    pub(super) fn memory_key(&mut self, act: MemoryAct) {
        match act {
            MemoryAct::Presets if self.options.presets.is_empty() => {
                self.note = Some(
                    "No presets: add [preset.\"NAME\"] tables to the config file \
                     (crossboard config names it)."
                        .into(),
                );
            }
            MemoryAct::Presets => {
                let presets = &self.options.presets;
                let name_w = presets.iter().map(|(n, _)| n.chars().count()).max();
                // The list fits 80 columns: a long detail is shortened with the marker.
                let room = 70usize.saturating_sub(name_w.unwrap_or(0));
                let items = presets
                    .iter()
                    .enumerate()
                    .map(|(i, (name, s))| {
                        let key = char::from_digit(i as u32 + 1, 10).unwrap_or(' ');
                        MenuItem::new(key, name.clone(), fit_text(&preset_detail(s), room))
                    })
                    .collect();
                self.presets = Some(Menu::new("Presets", items));
            }
            MemoryAct::LastPlayers => match self.last.as_ref().map(|l| l.players.clone()) {
                Some(players) => {
                    for (id, name) in [FieldId::Name1, FieldId::Name2].iter().zip(players) {
                        self.texts[idx(*id)].value = name;
                    }
                }
                None => self.note = Some("No match has been started on this machine yet.".into()),
            },
        }
    }

    /// A key while the list of presets is open.
    pub(super) fn preset_key(&mut self, key: &KeyEvent) {
        let Some(menu) = self.presets.as_mut() else {
            return;
        };
        if lookup(PRESET_CLOSE_KEYS, key).is_some() {
            self.presets = None;
            return;
        }
        if let MenuOutcome::Chosen(i) = menu.key(key) {
            self.presets = None;
            if let Some((name, preset)) = self.options.presets.get(i).cloned() {
                self.apply_preset(&name, &preset);
            }
        }
    }

    /// Fill the form with a preset: every setting but the players' names, and the event's
    /// name only when the preset gives one.
    fn apply_preset(&mut self, name: &str, preset: &MatchSettings) {
        let mut s = preset.clone();
        if s.event.is_empty() {
            s.event = self.texts[idx(FieldId::Event)].value.clone();
        }
        self.fill(&s, false);
        self.origin = Origin::Preset(name.to_string());
    }

    /// The form's title: what it is, where its values came from, and the presets key when
    /// there are presets.
    pub(super) fn title_line(&self, look: &Appearance, width: u16) -> Line<'static> {
        let mut spans = vec![Span::styled(" New match: set-up ", look.accent())];
        let origin = self.origin.words();
        if !origin.is_empty() {
            spans.push(Span::styled(format!("· {origin} "), look.accent()));
        }
        let n = self.options.presets.len();
        if n > 0 {
            let plural = if n == 1 { "" } else { "s" };
            spans.push(Span::styled(
                format!("· Ctrl-P: {n} preset{plural}"),
                look.dim(),
            ));
        }
        fit_line(Line::from(spans), usize::from(width))
    }

    /// The help lines of the open list of presets.
    pub(super) fn preset_help(menu: &Menu) -> Vec<KeyHelp> {
        let mut lines = help(PRESET_CLOSE_KEYS);
        lines.extend(menu.help());
        lines
    }

    /// The key tables of the open list, in the order its keys are looked up.
    pub(super) fn preset_chain(menu: &Menu) -> Vec<crate::tui::keys::Erased> {
        use crate::tui::keys::erase;
        vec![erase(PRESET_CLOSE_KEYS), erase(MENU_KEYS), menu.item_keys()]
    }
}

/// A preset in a few words: the game unless English, the openings, ballots, clock, points.
fn preset_detail(s: &MatchSettings) -> String {
    let game = if s.game == Rules::English {
        String::new()
    } else {
        format!("{}, ", s.game.name())
    };
    let points = match s.scoring.game {
        GamePoints::OneHalfZero => "1/½/0",
        GamePoints::TwoOneZero => "2/1/0",
        GamePoints::Apca => "4/2/0",
    };
    format!(
        "{game}{}, {} ballots, {}, {points}",
        s.openings.system.title(),
        s.ballots,
        s.time_control
    )
}

/// The form's choice rows as `d` sets them.
fn choices_of(d: &MatchSettings) -> [(FieldId, usize); 14] {
    let o = &d.openings;
    [
        (
            FieldId::Game,
            Rules::ALL.iter().position(|&r| r == d.game).unwrap_or(0),
        ),
        (
            FieldId::Strength,
            usize::from(d.strength_rule == StrengthRule::ThirtyPlusEight),
        ),
        (
            FieldId::System,
            System::ALL.iter().position(|&s| s == o.system).unwrap_or(3),
        ),
        (
            FieldId::Deck,
            ThreeMoveDeck::ALL
                .iter()
                .position(|&x| x == o.three_move_deck)
                .unwrap_or(0),
        ),
        (FieldId::Mode, usize::from(o.mode == DrawMode::Uniform)),
        (FieldId::ExcludeManDown, usize::from(o.exclude_man_down)),
        (FieldId::ExcludeLost, usize::from(o.exclude_kingsrow_lost)),
        (FieldId::NoRepeat, usize::from(o.no_repeat)),
        (
            FieldId::Points,
            match d.scoring.game {
                GamePoints::OneHalfZero => 0,
                GamePoints::TwoOneZero => 1,
                GamePoints::Apca => 2,
            },
        ),
        (FieldId::PerBallot, usize::from(d.scoring.per_ballot)),
        (
            FieldId::Rejection,
            match d.rejection {
                RejectionPolicy::PlayersMayReject => 0,
                RejectionPolicy::AllExceptManDown => 1,
                RejectionPolicy::AllPlayed => 2,
            },
        ),
        (
            FieldId::Tie,
            match d.tie {
                TieRule::StaysTied => 0,
                TieRule::HolderRetains {
                    holder: Player::First,
                } => 1,
                TieRule::HolderRetains {
                    holder: Player::Second,
                } => 2,
                TieRule::ContinueInBlocks { .. } => 3,
            },
        ),
        (
            FieldId::Colours,
            match d.colour_method {
                ColourMethod::CoinFlip => 0,
                ColourMethod::Bag => 1,
                ColourMethod::ConcealedHands => 2,
                ColourMethod::DirectorAssigns => 3,
            },
        ),
        (
            FieldId::BallotDraw,
            usize::from(d.ballot_draw == BallotDraw::Automatic),
        ),
    ]
}
