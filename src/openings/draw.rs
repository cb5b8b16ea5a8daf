//! Drawing an opening with an injected random number generator.
//!
//! Two modes. **Faithful** reproduces the physical ballot: the 11-man deck's four card draws
//! (cards returned, the eighth move card redrawn), Roll Your Own's four dice, one card from a
//! 2-move or 3-move ballot deck; an opening the settings exclude is redrawn from scratch, as a
//! director would, and every card or roll is recorded in [`Draw::steps`]. **Uniform** draws
//! uniformly over the distinct positions the settings allow (for 11-man: over the 2,500 positions,
//! not the 3,136 ballots).
//!
//! Random numbers come from `next_u32` with rejection sampling, so a given generator and seed
//! give the same draw whatever the `rand` version; [`replay`] reads a recorded draw back from
//! its steps.

use super::eleven_man::{
    Ballot, DECK_CARDS, RED_MOVE_CARDS, RED_REMOVAL_SQUARES, WHITE_MOVE_CARDS,
    WHITE_REMOVAL_SQUARES, move_card_meaning,
};
use super::restriction::{ThreeMoveClass, three_move_flags};
use super::roll_your_own::Roll;
use super::{Opening, OpeningError, System, table_in};
use crate::engine::{Color, Rules};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Which 3-move ballot deck a director draws from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThreeMoveDeck {
    /// The current ACF deck: the 144 crossboard ballots and the 12 later additions (156).
    #[default]
    Current156,
    /// The 144-ballot crossboard deck.
    Crossboard144,
    /// The 50-ballot "computer tough deck".
    Tough50,
    /// All 174 openings, barred ones included.
    All174,
}

impl ThreeMoveDeck {
    /// Every deck.
    pub const ALL: [ThreeMoveDeck; 4] = [
        ThreeMoveDeck::Current156,
        ThreeMoveDeck::Crossboard144,
        ThreeMoveDeck::Tough50,
        ThreeMoveDeck::All174,
    ];

    /// The name used on the command line and in files: `current156`, ...
    pub fn key(self) -> &'static str {
        match self {
            ThreeMoveDeck::Current156 => "current156",
            ThreeMoveDeck::Crossboard144 => "crossboard144",
            ThreeMoveDeck::Tough50 => "tough50",
            ThreeMoveDeck::All174 => "all174",
        }
    }

    /// True when 3-move opening `number` is in this deck.
    pub fn contains(self, number: u32) -> bool {
        let Some(f) = three_move_flags(number) else {
            return false;
        };
        match self {
            ThreeMoveDeck::Current156 => f.class != ThreeMoveClass::Barred,
            ThreeMoveDeck::Crossboard144 => f.class == ThreeMoveClass::Crossboard,
            ThreeMoveDeck::Tough50 => f.tough,
            ThreeMoveDeck::All174 => true,
        }
    }
}

impl std::str::FromStr for ThreeMoveDeck {
    type Err = OpeningError;
    fn from_str(s: &str) -> Result<ThreeMoveDeck, OpeningError> {
        let k = s.trim().to_ascii_lowercase().replace(['-', '_'], "");
        ThreeMoveDeck::ALL
            .into_iter()
            .find(|d| d.key() == k)
            .ok_or_else(|| {
                OpeningError::UnknownSetting(format!(
                    "unknown 3-move deck {s:?}: use current156, crossboard144, tough50 or all174"
                ))
            })
    }
}

/// How openings are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawMode {
    /// As the physical deck or dice do it; some positions come up more often than others.
    #[default]
    Faithful,
    /// Uniformly over the distinct positions allowed.
    Uniform,
}

impl DrawMode {
    /// The name used on the command line and in files: `faithful` or `uniform`.
    pub fn key(self) -> &'static str {
        match self {
            DrawMode::Faithful => "faithful",
            DrawMode::Uniform => "uniform",
        }
    }
}

impl std::str::FromStr for DrawMode {
    type Err = OpeningError;
    fn from_str(s: &str) -> Result<DrawMode, OpeningError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "faithful" => Ok(DrawMode::Faithful),
            "uniform" => Ok(DrawMode::Uniform),
            _ => Err(OpeningError::UnknownSetting(format!(
                "unknown draw mode {s:?}: use faithful or uniform"
            ))),
        }
    }
}

/// What a director chose about drawing openings. Fields missing when read take their default;
/// keys are kebab-case (`three-move-deck`, `exclude-man-down`), unknown keys refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct DrawSettings {
    /// The system drawn from.
    pub system: System,
    /// For 3-move: the ballot deck.
    pub three_move_deck: ThreeMoveDeck,
    /// Faithful or uniform.
    pub mode: DrawMode,
    /// Redraw openings in which a side loses a man at once.
    pub exclude_man_down: bool,
    /// 11-man: redraw positions KingsRow classes "lost".
    pub exclude_kingsrow_lost: bool,
    /// Never draw a position already drawn in the match (ignored for GAYP, which has one).
    pub no_repeat: bool,
    /// The game the openings are played in (set from the match's game, never stored here):
    /// set moves replayed and the man-down check made under its rules.
    #[serde(skip)]
    pub rules: Rules,
}

impl Default for DrawSettings {
    /// 11-man, faithful, the current 156-ballot 3-move deck, nothing excluded.
    fn default() -> Self {
        DrawSettings {
            system: System::ElevenMan,
            three_move_deck: ThreeMoveDeck::Current156,
            mode: DrawMode::Faithful,
            exclude_man_down: false,
            exclude_kingsrow_lost: false,
            no_repeat: false,
            rules: Rules::English,
        }
    }
}

/// Which draw a step is: who draws for what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// GAYP: the standard start, nothing drawn.
    Gayp,
    /// One card from a 2-move or 3-move ballot deck.
    Ballot,
    /// Uniform 11-man: a public position id.
    Position,
    /// Uniform, other systems: an opening number.
    Opening,
    /// 11-man: the Red removal card; Roll Your Own: Red's d12.
    RedRemoves,
    /// 11-man: a Red move card (the eighth is blank: drawn again).
    RedMoves,
    /// 11-man: the White removal card; Roll Your Own: White's d12.
    WhiteRemoves,
    /// 11-man: a White move card.
    WhiteMoves,
    /// Roll Your Own: Red's d4.
    RedPlaces,
    /// Roll Your Own: White's d4.
    WhitePlaces,
    /// The opening drawn is refused by the settings and drawn again (the card is its number).
    Redraw,
}

impl StepKind {
    /// "Red removes", "Ballot", "Redraw", ...
    pub fn label(self) -> &'static str {
        match self {
            StepKind::Gayp => "GAYP",
            StepKind::Ballot => "Ballot",
            StepKind::Position => "Position",
            StepKind::Opening => "Opening",
            StepKind::RedRemoves => "Red removes",
            StepKind::RedMoves => "Red moves",
            StepKind::WhiteRemoves => "White removes",
            StepKind::WhiteMoves => "White moves",
            StepKind::RedPlaces => "Red places",
            StepKind::WhitePlaces => "White places",
            StepKind::Redraw => "Redraw",
        }
    }
}

/// Why the settings refuse a drawn opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Refusal {
    /// 3-move: not in the chosen deck.
    NotInDeck,
    /// Red loses a man at once.
    RedLosesMan,
    /// White loses a man at once.
    WhiteLosesMan,
    /// 11-man: KingsRow classes the position lost.
    KingsRowLost,
    /// The position was already drawn in the match.
    AlreadyPlayed,
    /// A set move is not legal in the match's game.
    NotInGame,
}

impl Refusal {
    /// The reason in words.
    pub fn text(self, settings: &DrawSettings) -> String {
        match self {
            Refusal::NotInDeck => format!("not in the {} deck", settings.three_move_deck.key()),
            Refusal::RedLosesMan => "Red loses a man at once".into(),
            Refusal::WhiteLosesMan => "White loses a man at once".into(),
            Refusal::KingsRowLost => "KingsRow classes the position lost".into(),
            Refusal::AlreadyPlayed => "position already played in this match".into(),
            Refusal::NotInGame => format!("a set move is not legal in {}", settings.rules.name()),
        }
    }
}

/// One card drawn or die rolled: typed data only (its meaning is [`describe_steps`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct DrawStep {
    /// Who draws for what.
    pub kind: StepKind,
    /// The card or die face drawn (for a redraw: the refused opening's number; uniform: the
    /// 11-man public id or the opening number).
    pub card: u32,
    /// For a redraw: why the opening was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<Refusal>,
}

impl DrawStep {
    fn new(kind: StepKind, card: u32) -> DrawStep {
        DrawStep {
            kind,
            card,
            why: None,
        }
    }

    /// True for the eighth (blank) 11-man move card, which is drawn again.
    pub fn is_blank(&self) -> bool {
        matches!(self.kind, StepKind::RedMoves | StepKind::WhiteMoves)
            && self.card as usize > RED_MOVE_CARDS.len()
    }
}

/// What each step of a draw under `settings` means, in order, e.g. "remove the man on 11",
/// "11-15 (man on 11 removed: 8-11 instead)", "blank card: redraw".
pub fn describe_steps(settings: &DrawSettings, steps: &[DrawStep]) -> Vec<String> {
    let system = settings.system;
    let name = |n: u32| {
        super::opening(system, n)
            .map(|o| o.name)
            .unwrap_or_else(|_| format!("no opening {n}"))
    };
    let (mut red_sq, mut white_sq) = (0u8, 0u8);
    let square = |table: &[u8], card: u32| {
        (card as usize)
            .checked_sub(1)
            .and_then(|i| table.get(i).copied())
            .unwrap_or(0)
    };
    steps
        .iter()
        .map(|s| match (s.kind, system) {
            (StepKind::Gayp, _) => "the standard start".to_string(),
            (StepKind::Ballot, _) => name(s.card),
            (StepKind::Position, _) => match super::opening_by_public_id(s.card) {
                Ok(o) => format!("drawn uniformly: position {}, {}", s.card, o.name),
                Err(e) => e.to_string(),
            },
            (StepKind::Opening, _) => format!("drawn uniformly: {}", name(s.card)),
            (StepKind::RedRemoves, System::RollYourOwn) => {
                format!("take up the man on {}", s.card)
            }
            (StepKind::WhiteRemoves, System::RollYourOwn) => {
                format!("take up the man on {}", 33u32.saturating_sub(s.card))
            }
            (StepKind::RedRemoves, _) => {
                red_sq = square(&RED_REMOVAL_SQUARES, s.card);
                format!("remove the man on {red_sq}")
            }
            (StepKind::WhiteRemoves, _) => {
                white_sq = square(&WHITE_REMOVAL_SQUARES, s.card);
                format!("remove the man on {white_sq}")
            }
            (StepKind::RedMoves | StepKind::WhiteMoves, _) if s.is_blank() => {
                "blank card: redraw".to_string()
            }
            (StepKind::RedMoves, _) => (s.card as usize)
                .checked_sub(1)
                .and_then(|i| RED_MOVE_CARDS.get(i))
                .map_or_else(String::new, |&c| move_card_meaning(c, red_sq)),
            (StepKind::WhiteMoves, _) => (s.card as usize)
                .checked_sub(1)
                .and_then(|i| WHITE_MOVE_CARDS.get(i))
                .map_or_else(String::new, |&c| move_card_meaning(c, white_sq)),
            (StepKind::RedPlaces, _) => format!("put it on {}", 12 + s.card),
            (StepKind::WhitePlaces, _) => format!("put it on {}", 21u32.saturating_sub(s.card)),
            (StepKind::Redraw, _) => {
                let why = s.why.map(|w| w.text(settings)).unwrap_or_default();
                format!("{} {}: {why}", system.title(), s.card)
            }
        })
        .collect()
}

/// A drawn opening and how it was drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draw {
    /// The opening to play.
    pub opening: Opening,
    /// Every card or die in order, rejected ballots included.
    pub steps: Vec<DrawStep>,
}

/// Why the settings refuse an opening, if they do.
fn refusal(
    settings: &DrawSettings,
    played: &HashSet<crate::engine::Position>,
    o: &Opening,
) -> Option<Refusal> {
    if table_in(settings.system, settings.rules)
        .unplayable
        .contains(&o.number)
    {
        return Some(Refusal::NotInGame);
    }
    if settings.system == System::ThreeMove && !settings.three_move_deck.contains(o.number) {
        return Some(Refusal::NotInDeck);
    }
    if settings.exclude_man_down
        && let Some(side) = o.loses_man
    {
        return Some(match side {
            Color::Red => Refusal::RedLosesMan,
            Color::White => Refusal::WhiteLosesMan,
        });
    }
    if settings.exclude_kingsrow_lost && o.kingsrow_lost {
        return Some(Refusal::KingsRowLost);
    }
    if settings.no_repeat && settings.system != System::Gayp && played.contains(&o.position) {
        return Some(Refusal::AlreadyPlayed);
    }
    None
}

fn played_positions(already_drawn: &[Opening]) -> HashSet<crate::engine::Position> {
    already_drawn.iter().map(|o| o.position).collect()
}

/// The openings the settings allow now (deck, exclusions, no-repeat), in number order.
pub fn eligible(settings: &DrawSettings, already_drawn: &[Opening]) -> Vec<&'static Opening> {
    let played = played_positions(already_drawn);
    table_in(settings.system, settings.rules)
        .openings
        .iter()
        .filter(|o| refusal(settings, &played, o).is_none())
        .collect()
}

/// A uniform number in 1..=faces from `next_u32`, by rejection (stable across `rand` versions).
fn roll<R: rand::Rng + ?Sized>(rng: &mut R, faces: u32) -> u32 {
    let faces = u64::from(faces.max(1));
    let limit = (1u64 << 32) / faces * faces;
    loop {
        let x = u64::from(rng.next_u32());
        if x < limit {
            return (x % faces) as u32 + 1;
        }
    }
}

/// Where cards and die faces come from: a random number generator, or a recorded draw.
trait Source {
    /// One card out of `cards` for the draw `kind`.
    fn pick(&mut self, kind: StepKind, cards: &[u32]) -> Result<u32, OpeningError>;
}

struct RngSource<'a, R: ?Sized>(&'a mut R);

impl<R: rand::Rng + ?Sized> Source for RngSource<'_, R> {
    fn pick(&mut self, _kind: StepKind, cards: &[u32]) -> Result<u32, OpeningError> {
        Ok(cards[roll(self.0, cards.len() as u32) as usize - 1])
    }
}

/// Reads the cards back from recorded steps ("Redraw" steps are outcomes, not cards: skipped).
struct Recorded<'a> {
    steps: &'a [DrawStep],
    next: usize,
}

impl Source for Recorded<'_> {
    fn pick(&mut self, kind: StepKind, cards: &[u32]) -> Result<u32, OpeningError> {
        let what = kind.label();
        loop {
            let Some(s) = self.steps.get(self.next) else {
                return Err(bad_record(format!("it ends before a card for {what:?}")));
            };
            self.next += 1;
            if s.kind == StepKind::Redraw {
                continue;
            }
            if s.kind != kind {
                return Err(bad_record(format!(
                    "step {} is {:?} where {what:?} was due",
                    self.next,
                    s.kind.label()
                )));
            }
            if !cards.contains(&s.card) {
                return Err(bad_record(format!(
                    "step {} ({what}) shows card {}, which does not exist",
                    self.next, s.card
                )));
            }
            return Ok(s.card);
        }
    }
}

fn bad_record(why: String) -> OpeningError {
    OpeningError::BadRecord(why)
}

/// Cards 1..=n.
fn faces(n: u32) -> Vec<u32> {
    (1..=n).collect()
}

/// Draw an opening. `already_drawn` holds the openings drawn earlier in the match (for
/// `no_repeat`). Fails only when the settings leave nothing to draw.
pub fn draw<R: rand::Rng + ?Sized>(
    settings: &DrawSettings,
    already_drawn: &[Opening],
    rng: &mut R,
) -> Result<Draw, OpeningError> {
    draw_from(settings, already_drawn, &mut RngSource(rng))
}

/// Replay a recorded draw: the same settings and earlier openings, and the steps as recorded.
/// Gives the same [`Draw`], or an error saying where the record is wrong (a card that does not
/// exist, sections out of order, a redraw the settings do not call for, steps left over).
pub fn replay(
    settings: &DrawSettings,
    already_drawn: &[Opening],
    steps: &[DrawStep],
) -> Result<Draw, OpeningError> {
    let mut source = Recorded { steps, next: 0 };
    let d = draw_from(settings, already_drawn, &mut source)?;
    if d.steps != steps {
        let at = d
            .steps
            .iter()
            .zip(steps)
            .position(|(a, b)| a != b)
            .unwrap_or(d.steps.len().min(steps.len()));
        return Err(bad_record(format!(
            "it differs from the replay at step {}",
            at + 1
        )));
    }
    Ok(d)
}

fn draw_from(
    settings: &DrawSettings,
    already_drawn: &[Opening],
    source: &mut dyn Source,
) -> Result<Draw, OpeningError> {
    let played = played_positions(already_drawn);
    let t = table_in(settings.system, settings.rules);
    // One opening per distinct position still allowed: the lowest-numbered allowed one.
    let positions: Vec<&'static Opening> = t
        .groups
        .iter()
        .filter_map(|g| {
            g.iter()
                .map(|&n| &t.openings[n as usize - 1])
                .find(|o| refusal(settings, &played, o).is_none())
        })
        .collect();
    if positions.is_empty() {
        return Err(OpeningError::NoneLeft {
            system: settings.system,
            reason: "every opening is excluded or already played".to_string(),
        });
    }
    if settings.system == System::Gayp {
        return Ok(Draw {
            opening: positions[0].clone(),
            steps: vec![DrawStep::new(StepKind::Gayp, 1)],
        });
    }
    match settings.mode {
        DrawMode::Uniform => draw_uniform(settings.system, &positions, source),
        DrawMode::Faithful => {
            let mut steps = Vec::new();
            loop {
                let o = draw_once(settings, source, &mut steps)?;
                match refusal(settings, &played, o) {
                    None => {
                        return Ok(Draw {
                            opening: o.clone(),
                            steps,
                        });
                    }
                    Some(why) => steps.push(DrawStep {
                        kind: StepKind::Redraw,
                        card: o.number,
                        why: Some(why),
                    }),
                }
            }
        }
    }
}

/// Uniform over `positions` (one allowed opening per distinct position). The card is the 11-man
/// public id, or the opening number in the other systems.
fn draw_uniform(
    system: System,
    positions: &[&'static Opening],
    source: &mut dyn Source,
) -> Result<Draw, OpeningError> {
    let card_of = |o: &Opening| o.public_id.unwrap_or(o.number);
    let cards: Vec<u32> = positions.iter().map(|o| card_of(o)).collect();
    let kind = if system == System::ElevenMan {
        StepKind::Position
    } else {
        StepKind::Opening
    };
    let card = source.pick(kind, &cards)?;
    let o = positions
        .iter()
        .find(|o| card_of(o) == card)
        .ok_or_else(|| bad_record(format!("no allowed position has card {card}")))?;
    Ok(Draw {
        opening: (*o).clone(),
        steps: vec![DrawStep::new(kind, card)],
    })
}

/// One faithful draw, before exclusions; records its steps.
fn draw_once(
    settings: &DrawSettings,
    source: &mut dyn Source,
    steps: &mut Vec<DrawStep>,
) -> Result<&'static Opening, OpeningError> {
    let t = table_in(settings.system, settings.rules);
    let pick = |n: u32| &t.openings[n as usize - 1];
    Ok(match settings.system {
        System::Gayp => pick(1),
        System::TwoMove => {
            let n = source.pick(StepKind::Ballot, &faces(49))?;
            steps.push(DrawStep::new(StepKind::Ballot, n));
            pick(n)
        }
        System::ThreeMove => {
            let deck: Vec<u32> = (1..=174)
                .filter(|&n| settings.three_move_deck.contains(n))
                .collect();
            let n = source.pick(StepKind::Ballot, &deck)?;
            steps.push(DrawStep::new(StepKind::Ballot, n));
            pick(n)
        }
        System::ElevenMan => {
            let deck = faces(DECK_CARDS);
            let red_removal = source.pick(StepKind::RedRemoves, &deck)?;
            steps.push(DrawStep::new(StepKind::RedRemoves, red_removal));
            let red_move = draw_move_card(source, steps, StepKind::RedMoves)?;
            let white_removal = source.pick(StepKind::WhiteRemoves, &deck)?;
            steps.push(DrawStep::new(StepKind::WhiteRemoves, white_removal));
            let white_move = draw_move_card(source, steps, StepKind::WhiteMoves)?;
            let ballot = Ballot {
                red_removal: red_removal as u8,
                white_removal: white_removal as u8,
                red_move: red_move as u8,
                white_move: white_move as u8,
            };
            pick(ballot.number())
        }
        System::RollYourOwn => {
            let rr = source.pick(StepKind::RedRemoves, &faces(12))?;
            steps.push(DrawStep::new(StepKind::RedRemoves, rr));
            let rp = source.pick(StepKind::RedPlaces, &faces(4))?;
            steps.push(DrawStep::new(StepKind::RedPlaces, rp));
            let wr = source.pick(StepKind::WhiteRemoves, &faces(12))?;
            steps.push(DrawStep::new(StepKind::WhiteRemoves, wr));
            let wp = source.pick(StepKind::WhitePlaces, &faces(4))?;
            steps.push(DrawStep::new(StepKind::WhitePlaces, wp));
            let r = Roll {
                red_removal: rr as u8,
                red_place: rp as u8,
                white_removal: wr as u8,
                white_place: wp as u8,
            };
            pick(r.number())
        }
    })
}

/// Draw move cards until one names a move (the eighth card is blank); returns the card 1-7.
fn draw_move_card(
    source: &mut dyn Source,
    steps: &mut Vec<DrawStep>,
    kind: StepKind,
) -> Result<u32, OpeningError> {
    let deck = faces(DECK_CARDS);
    loop {
        let c = source.pick(kind, &deck)?;
        let step = DrawStep::new(kind, c);
        let blank = step.is_blank();
        steps.push(step);
        if !blank {
            return Ok(c);
        }
    }
}

/// The side an opening's man-down check names, as text ("Red", "White", "-").
pub fn loses_man_text(side: Option<Color>) -> &'static str {
    side.map_or("-", Color::name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn roll_stays_in_range_and_hits_every_face() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = [false; 8];
        for _ in 0..400 {
            let r = roll(&mut rng, 8);
            assert!((1..=8).contains(&r));
            seen[r as usize - 1] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn faithful_eleven_man_draw_shows_four_sections() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let d = draw(&DrawSettings::default(), &[], &mut rng).unwrap();
        let kinds: Vec<StepKind> = d
            .steps
            .iter()
            .filter(|s| !s.is_blank())
            .map(|s| s.kind)
            .collect();
        assert_eq!(
            kinds,
            [
                StepKind::RedRemoves,
                StepKind::RedMoves,
                StepKind::WhiteRemoves,
                StepKind::WhiteMoves
            ]
        );
        let text = describe_steps(&DrawSettings::default(), &d.steps);
        assert!(text[0].starts_with("remove the man on "), "{text:?}");
        assert_eq!(d.opening.system, System::ElevenMan);
    }
}
