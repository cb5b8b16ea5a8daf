//! The event, derived from its log: every director action is an [`Action`]; [`Tournament::apply`]
//! checks it against the state and applies it, or refuses it and changes nothing. The store
//! keeps the log; reading an event back replays it ([`Tournament::replay`]), so the state is never
//! stored twice.
//!
//! The records of a round ([`Board`], [`Pairing`], [`Round`], ...) are in `records`, the
//! actions in `action`, a [`Division`] and its queries in `division`, the rules an action must
//! meet in `check`, how it changes the event in `evolve`, what it relies on in `reads`
//! ([`Tournament::reads_same`]), and [`EventError`] in `error`.

mod action;
mod check;
mod division;
mod error;
mod evolve;
mod floor;
mod reads;
mod records;

pub use action::Action;
pub use division::Division;
pub use error::EventError;
pub use floor::{Floor, FloorState};
pub use records::{Board, BoardGameResult, BoardResult, Pairing, Round};

use crate::event::settings::EventInfo;

/// A division's index in the event (divisions are never removed).
pub type DivisionId = usize;

/// The whole event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tournament {
    /// Heading information.
    pub info: EventInfo,
    /// Divisions in the order they were added.
    pub divisions: Vec<Division>,
    /// Actions applied (the log's length).
    pub actions: usize,
}

impl Tournament {
    /// An event with nothing in it.
    pub fn new() -> Tournament {
        Tournament::default()
    }

    /// The event a log describes; the first refused action is an error with its position.
    pub fn replay<'a>(
        actions: impl IntoIterator<Item = &'a Action>,
    ) -> Result<Tournament, (usize, EventError)> {
        let mut e = Tournament::new();
        for (i, a) in actions.into_iter().enumerate() {
            e.apply(a).map_err(|err| (i, err))?;
        }
        Ok(e)
    }

    /// The division called `name` (case-insensitive), or numbered `name` (1-based).
    pub fn find_division(&self, name: &str) -> Result<DivisionId, EventError> {
        let t = name.trim();
        if let Some(i) = self
            .divisions
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(t))
        {
            return Ok(i);
        }
        match t.parse::<usize>() {
            Ok(n) if (1..=self.divisions.len()).contains(&n) => Ok(n - 1),
            _ => Err(EventError::NoDivision(t.to_string())),
        }
    }

    /// Division `id`.
    pub fn division(&self, id: DivisionId) -> Result<&Division, EventError> {
        self.divisions
            .get(id)
            .ok_or_else(|| EventError::NoDivision((id + 1).to_string()))
    }

    /// Check `action` against the state and apply it; a refused action changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<(), EventError> {
        self.check(action)?;
        self.evolve(action);
        self.actions += 1;
        Ok(())
    }
}
