//! Keeping a practice game: `w` appends it to the practice games file as PDN (with its ballot,
//! result and the engine's marks when it has analysed the game), and leaving a game in progress that is not saved asks first.

use super::practice::BallotInfo;
use super::practice_engine::{Opponent, ReviewMarks};
use super::review_graph::analysis_of;
use crate::engine::{Color, Game, Move};
use crate::store::PdnGame;
use crate::tui::keys::{Binding, ESC, Key};
use crate::tui::theme::Appearance;
use crate::tui::widgets::render_popup;
use ratatui::Frame;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use std::path::Path;

/// What the keys of the question before leaving an unsaved game do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeaveAct {
    /// Save the game, then leave.
    Save,
    /// Leave; the game is not kept.
    Discard,
    /// Stay with the game.
    Stay,
}

/// The keys of the question before leaving an unsaved game.
pub(crate) static LEAVE_KEYS: &[Binding<LeaveAct>] = &[
    Binding::new(
        &[Key::Char('s'), Key::Char('S')],
        LeaveAct::Save,
        "save, then leave",
    ),
    Binding::new(
        &[Key::Char('y'), Key::Char('Y')],
        LeaveAct::Discard,
        "leave without saving",
    ),
    Binding::new(
        &[Key::Char('n'), Key::Char('N'), Key::Char('q'), ESC],
        LeaveAct::Stay,
        "stay (Esc)",
    ),
];

/// What is remembered of the last save: the moves then, so a game changed since is asked about.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    moves: Option<Vec<Move>>,
}

impl Kept {
    /// `game` has moves that are not in the practice games file.
    pub(crate) fn unsaved(&self, game: &Game) -> bool {
        !game.moves().is_empty() && self.moves.as_deref() != Some(game.moves())
    }

    /// Save `game` into the practice games file beside `practice_file`; the message to show.
    pub(crate) fn save(
        &mut self,
        game: &Game,
        record: PdnGame,
        practice_file: Option<&Path>,
    ) -> Result<String, String> {
        let Some(practice_file) = practice_file else {
            return Err("practice games are not saved here (no data folder)".into());
        };
        let path = crate::store::practice::games_file(practice_file);
        let number = crate::store::practice::append_game(&path, &record)
            .map_err(|e| format!("not saved: {e}"))?;
        self.moves = Some(game.moves().to_vec());
        Ok(format!("saved as game {number} of {}", path.display()))
    }
}

/// A practice game as PDN: `Event "Practice"`, the date, the engine's side by its level, the
/// ballot's `Ballot` and `Opening` tags (as a match writes them), the result on the board and,
/// when `review` is the engine's analysis of this game, its marks and better moves as
/// `crossboard analyse` writes them ([`PdnGame::annotate`]).
pub(crate) fn practice_pdn(
    game: &Game,
    ballot: Option<&BallotInfo>,
    opponent: Option<&Opponent>,
    review: Option<&ReviewMarks>,
    date: &str,
) -> PdnGame {
    let player = |c: Color| match opponent {
        Some(o) if o.color == c => match &o.hub {
            Some(h) => h.name.clone(),
            None => format!("crossboard {}", o.level),
        },
        _ => "?".to_string(),
    };
    let mut record = PdnGame::from_game(game);
    if let Some(r) = analysis_of(review, game) {
        record.annotate(&r.reviewed);
    }
    let record = record
        .with_tag("Event", "Practice")
        .with_tag("Date", date)
        .with_tag("Black", player(Color::Red))
        .with_tag("White", player(Color::White));
    match ballot {
        Some(b) => record.with_opening(&b.opening),
        None => record,
    }
}

/// The question before leaving an unsaved game of `plies` plies (each side's turn is one).
pub(crate) fn render_leave(frame: &mut Frame, plies: usize, look: &Appearance) {
    let what = if plies == 1 { "ply" } else { "plies" };
    let mut keys = Vec::new();
    for b in LEAVE_KEYS {
        let key = b.keys.first().map(|k| k.label()).unwrap_or_default();
        keys.push(Span::styled(
            format!(" {key} "),
            look.accent().add_modifier(Modifier::REVERSED),
        ));
        keys.push(Span::raw(format!(" {}  ", b.help)));
    }
    let lines = vec![
        Line::from(format!("This game ({plies} {what}) is not saved.")),
        Line::from("Saved games go to practice-games.pdn in the data folder."),
        Line::from(""),
        Line::from(keys),
    ];
    render_popup(frame, "Leave practice", lines, look);
}
