//! A match being run: the director's [`Match`], where it is saved, and the mapping from the
//! TUI's injected monotonic time to the director's [`Now`].
//!
//! Every command goes through [`MatchSession::apply`], which appends its events to the match
//! file (synced, through the store) before the screen shows them, so the file on disk is never
//! behind the screen.

use super::persist::Saver;
use crate::director::{
    ClockReading, Command, FlagKind, GameRecord, LogEntry, Match, MatchError, Now, Player,
};
use crate::engine::Color;
use crate::tui::widgets::{ClockPanelView, MoveEntry, MoveListView, format_clock};
use chrono::{DateTime, Utc};
use std::time::Instant;

/// A match with its save target and time base.
#[derive(Debug)]
pub struct MatchSession {
    /// The match (the director's state machine).
    pub m: Match,
    /// Where every change is written.
    pub saver: Saver,
    /// The instant `mono_ms` counts from.
    base: Instant,
    /// The wall-clock time at `base`.
    base_wall: DateTime<Utc>,
    /// Why the last save failed, if it did (shown until a save succeeds).
    pub save_error: Option<String>,
    /// What the last save did to the file that the director should know (a version 1 file
    /// rewritten), with the length of the log then: shown until the next event.
    file_note: Option<(String, usize)>,
}

impl MatchSession {
    /// Run `m`, saving to `saver`; `now` is the TUI's current instant and `wall` the wall-clock
    /// time at that instant.
    pub fn new(m: Match, saver: Saver, now: Instant, wall: DateTime<Utc>) -> MatchSession {
        MatchSession {
            m,
            saver,
            base: now,
            base_wall: wall,
            save_error: None,
            file_note: None,
        }
    }

    /// The director's time for the TUI instant `at`.
    pub fn now(&self, at: Instant) -> Now {
        let d = at.saturating_duration_since(self.base);
        Now {
            mono_ms: d.as_millis() as u64,
            wall: self.base_wall + chrono::Duration::from_std(d).unwrap_or_default(),
        }
    }

    /// Apply a command at `at`; save when something happened. On error nothing changed.
    pub fn apply(
        &mut self,
        cmd: Command,
        at: Instant,
        rng: &mut dyn rand::Rng,
    ) -> Result<Vec<LogEntry>, MatchError> {
        let now = self.now(at);
        let entries = self.m.apply(cmd, now, rng)?;
        if !entries.is_empty() {
            self.save();
        }
        Ok(entries)
    }

    /// Write what is new in the match now.
    pub fn save(&mut self) {
        let was_migrated = self.saver.migrated().is_some();
        self.save_error = self.saver.save(&self.m).err();
        if let Some(kept) = self.saver.migrated().filter(|_| !was_migrated) {
            let name = kept.file_name().unwrap_or_default().to_string_lossy();
            let note = format!("file rewritten as version 2, the original kept as {name}");
            self.file_note = Some((note, self.m.log().len()));
        }
    }

    /// What the last save did to the file that the director should know ("file rewritten as
    /// version 2, the original kept as NAME.v1.toml"), until the next event.
    pub fn file_note(&self) -> Option<&str> {
        self.file_note
            .as_ref()
            .filter(|(_, at)| *at == self.m.log().len())
            .map(|(note, _)| note.as_str())
    }

    /// What became of the match when crossboard stops: where it is saved, or that it is not.
    /// `None` when it has no file.
    pub fn exit_note(&self) -> Option<String> {
        let path = self.saver.path()?;
        Some(match (&self.saver, &self.save_error) {
            (Saver::ReadOnly { .. }, _) => {
                format!("nothing was written to {} (read-only)", path.display())
            }
            (_, Some(why)) => format!("the match is NOT SAVED in {}: {why}", path.display()),
            (_, None) => format!("the match is saved in {}", path.display()),
        })
    }

    /// Why no command is taken, when the match is only looked at (another crossboard has it).
    pub fn read_only(&self) -> Option<&str> {
        match &self.saver {
            Saver::ReadOnly { why, .. } => Some(why),
            _ => None,
        }
    }

    /// The status line with the mark of a match not being saved in front: READ-ONLY while it is
    /// only looked at, NOT SAVED ([`super::persist::not_saved`]) while the last save failed;
    /// `None` when neither.
    pub fn status_mark(&self, message: &str) -> Option<String> {
        if self.read_only().is_some() {
            return Some(format!("READ-ONLY (nothing is written) · {message}"));
        }
        super::persist::not_saved(self.save_error.as_deref(), message)
    }

    /// Check the clock (a tick): ends the game when a flag has fallen. Returns the entries.
    pub fn tick(&mut self, at: Instant, rng: &mut dyn rand::Rng) -> Vec<LogEntry> {
        if self.m.playing().is_none() || self.read_only().is_some() {
            return Vec::new();
        }
        self.apply(Command::Tick, at, rng).unwrap_or_default()
    }

    /// A player's name.
    pub fn name(&self, p: Player) -> &str {
        self.m.name(p)
    }

    /// The clock reading of the game shown, at `at` (a finished game: its final state).
    pub fn reading(&self, at: Instant) -> Option<ClockReading> {
        let g = self.m.current_game()?;
        Some(g.clock.reading(self.now(at).mono_ms))
    }

    /// The clock panel of the game shown, at `at`; `None` when the match has no clock.
    pub fn clock_view(&self, at: Instant) -> Option<ClockPanelView> {
        let g = self.m.current_game()?;
        ClockPanelView::of_clock(
            &g.clock,
            self.now(at).mono_ms,
            [&g.red_name, &g.white_name],
            g.result.as_ref(),
        )
    }
}

/// The moves of a game with the mover's clock reading after each.
pub(crate) fn move_list(g: &GameRecord) -> MoveListView {
    let moves: Vec<MoveEntry> = g
        .moves
        .iter()
        .map(|r| MoveEntry {
            text: r.mv.to_string(),
            clock: r.remaining_ms.map(format_clock),
        })
        .collect();
    MoveListView {
        title: "Moves".into(),
        first: g.opening.position.turn(),
        first_number: 1,
        current: moves.len().checked_sub(1),
        moves,
    }
}

/// "Red's flag fell", "Red exceeded the move limit": how a time loss reads.
pub(crate) fn flag_text(kind: FlagKind, side: Color) -> String {
    match kind {
        FlagKind::GameTime => format!("{side}'s flag fell"),
        FlagKind::MoveTime => format!("{side} exceeded the move limit"),
    }
}
