//! A drawn ballot's cards as the stages show them: revealed one by one, one line each, and
//! the ballots both players rejected.

use crate::director::Match;
use crate::openings::{DrawSettings, DrawStep, Opening, StepKind};
use crate::tui::theme::Appearance;
use crate::tui::widgets::{GameLayout, wrap};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// A drawn ballot being shown card by card.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawShown {
    /// Ballot number.
    pub ballot: u32,
    /// The opening.
    pub opening: Opening,
    /// The cards, in order.
    pub steps: Vec<DrawStep>,
    /// Cards shown so far.
    pub revealed: usize,
    /// Ticks until the next card.
    pub wait: u8,
    /// The cards turn by themselves, a card every [`super::CARD_TICKS`]; else each waits
    /// for a key (drawn with `c`: a player may turn each card).
    pub auto: bool,
}

impl DrawShown {
    /// A drawn ballot; `animate`: its cards are shown one by one, else all at once.
    pub fn new(ballot: u32, opening: Opening, steps: Vec<DrawStep>, animate: bool) -> DrawShown {
        let revealed = if animate { 0 } else { steps.len() };
        DrawShown {
            ballot,
            opening,
            steps,
            revealed,
            wait: 1,
            auto: animate,
        }
    }

    /// Every card is shown.
    pub fn done(&self) -> bool {
        self.revealed >= self.steps.len()
    }
}

/// Width of the side panel's text.
pub(crate) fn side_width(area: Rect) -> usize {
    GameLayout::new(area).side.width.saturating_sub(1) as usize
}

/// The cards shown so far, one per line (wrapped), redraws marked.
pub(crate) fn card_lines(
    d: &DrawShown,
    settings: &DrawSettings,
    width: usize,
    look: &Appearance,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let meanings = crate::openings::describe_steps(settings, &d.steps);
    for (i, (s, meaning)) in d.steps.iter().zip(&meanings).enumerate().take(d.revealed) {
        let text = format!("{}. {} {}: {meaning}", i + 1, s.kind.label(), s.card);
        let style = if s.kind == StepKind::Redraw || meaning.contains("instead") {
            look.accent()
        } else {
            Style::new()
        };
        for (j, part) in wrap(&text, width).into_iter().enumerate() {
            out.push(Line::from(Span::styled(
                if j == 0 { part } else { format!("   {part}") },
                style,
            )));
        }
    }
    out
}

/// "Rejected: 12, 845" (the ballots both players rejected), wrapped.
pub(crate) fn rejected_lines(m: &Match, width: usize, look: &Appearance) -> Vec<Line<'static>> {
    if m.rejected().is_empty() {
        return Vec::new();
    }
    let list: Vec<String> = m
        .rejected()
        .iter()
        .map(|r| r.opening.number.to_string())
        .collect();
    wrap(&format!("Rejected: {}", list.join(", ")), width)
        .into_iter()
        .map(|part| Line::from(Span::styled(part, look.dim())))
        .collect()
}
