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
use super::{Opening, OpeningError, System, table};
use crate::engine::Color;
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

/// What a director chose about drawing openings. Fields missing when read take their default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
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
        }
    }
}

/// One card drawn or die rolled, as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawStep {
    /// Who draws for what, e.g. "Red removes", "White moves", "Ballot", "Redraw".
    pub what: String,
    /// The card or die face drawn (for "Redraw": the rejected opening's number).
    pub card: u32,
    /// What it means, e.g. "remove the man on 11", "11-15 (man on 11 removed: 8-11 instead)",
    /// "blank card: redraw".
    pub meaning: String,
}

impl DrawStep {
    fn new(what: &str, card: u32, meaning: String) -> DrawStep {
        DrawStep {
            what: what.to_string(),
            card,
            meaning,
        }
    }
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
) -> Option<String> {
    if settings.system == System::ThreeMove && !settings.three_move_deck.contains(o.number) {
        return Some(format!(
            "not in the {} deck",
            settings.three_move_deck.key()
        ));
    }
    if settings.exclude_man_down
        && let Some(side) = o.loses_man
    {
        return Some(format!("{} loses a man at once", side.name()));
    }
    if settings.exclude_kingsrow_lost && o.kingsrow_lost {
        return Some("KingsRow classes the position lost".to_string());
    }
    if settings.no_repeat && settings.system != System::Gayp && played.contains(&o.position) {
        return Some("position already played in this match".to_string());
    }
    None
}

fn played_positions(already_drawn: &[Opening]) -> HashSet<crate::engine::Position> {
    already_drawn.iter().map(|o| o.position).collect()
}

/// The openings the settings allow now (deck, exclusions, no-repeat), in number order.
pub fn eligible(settings: &DrawSettings, already_drawn: &[Opening]) -> Vec<&'static Opening> {
    let played = played_positions(already_drawn);
    table(settings.system)
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
    /// One card out of `cards` for the section `what`.
    fn pick(&mut self, what: &str, cards: &[u32]) -> Result<u32, OpeningError>;
}

struct RngSource<'a, R: ?Sized>(&'a mut R);

impl<R: rand::Rng + ?Sized> Source for RngSource<'_, R> {
    fn pick(&mut self, _what: &str, cards: &[u32]) -> Result<u32, OpeningError> {
        Ok(cards[roll(self.0, cards.len() as u32) as usize - 1])
    }
}

/// Reads the cards back from recorded steps ("Redraw" steps are outcomes, not cards: skipped).
struct Recorded<'a> {
    steps: &'a [DrawStep],
    next: usize,
}

impl Source for Recorded<'_> {
    fn pick(&mut self, what: &str, cards: &[u32]) -> Result<u32, OpeningError> {
        loop {
            let Some(s) = self.steps.get(self.next) else {
                return Err(bad_record(format!("it ends before a card for {what:?}")));
            };
            self.next += 1;
            if s.what == REDRAW {
                continue;
            }
            if s.what != what {
                return Err(bad_record(format!(
                    "step {} is {:?} where {what:?} was due",
                    self.next, s.what
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

const REDRAW: &str = "Redraw";

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
    let t = table(settings.system);
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
            steps: vec![DrawStep::new("GAYP", 1, "the standard start".to_string())],
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
                    Some(why) => steps.push(DrawStep::new(
                        REDRAW,
                        o.number,
                        format!("{} {}: {why}", o.system.title(), o.number),
                    )),
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
    let what = if system == System::ElevenMan {
        "Position"
    } else {
        "Opening"
    };
    let card = source.pick(what, &cards)?;
    let o = positions
        .iter()
        .find(|o| card_of(o) == card)
        .ok_or_else(|| bad_record(format!("no allowed position has card {card}")))?;
    Ok(Draw {
        opening: (*o).clone(),
        steps: vec![DrawStep::new(
            what,
            card,
            format!(
                "drawn uniformly among {} positions: {} ({} {})",
                positions.len(),
                o.name,
                system.title(),
                o.number
            ),
        )],
    })
}

/// One faithful draw, before exclusions; records its steps.
fn draw_once(
    settings: &DrawSettings,
    source: &mut dyn Source,
    steps: &mut Vec<DrawStep>,
) -> Result<&'static Opening, OpeningError> {
    let t = table(settings.system);
    let pick = |n: u32| &t.openings[n as usize - 1];
    Ok(match settings.system {
        System::Gayp => pick(1),
        System::TwoMove => {
            let n = source.pick("Ballot", &faces(49))?;
            steps.push(DrawStep::new("Ballot", n, pick(n).name.clone()));
            pick(n)
        }
        System::ThreeMove => {
            let deck: Vec<u32> = (1..=174)
                .filter(|&n| settings.three_move_deck.contains(n))
                .collect();
            let n = source.pick("Ballot", &deck)?;
            steps.push(DrawStep::new("Ballot", n, pick(n).name.clone()));
            pick(n)
        }
        System::ElevenMan => {
            let deck = faces(DECK_CARDS);
            let red_removal = source.pick("Red removes", &deck)?;
            let red_sq = RED_REMOVAL_SQUARES[red_removal as usize - 1];
            steps.push(DrawStep::new(
                "Red removes",
                red_removal,
                format!("remove the man on {red_sq}"),
            ));
            let red_move = draw_move_card(source, steps, "Red moves", &RED_MOVE_CARDS, red_sq)?;
            let white_removal = source.pick("White removes", &deck)?;
            let white_sq = WHITE_REMOVAL_SQUARES[white_removal as usize - 1];
            steps.push(DrawStep::new(
                "White removes",
                white_removal,
                format!("remove the man on {white_sq}"),
            ));
            let white_move =
                draw_move_card(source, steps, "White moves", &WHITE_MOVE_CARDS, white_sq)?;
            let ballot = Ballot {
                red_removal: red_removal as u8,
                white_removal: white_removal as u8,
                red_move: red_move as u8,
                white_move: white_move as u8,
            };
            pick(ballot.number())
        }
        System::RollYourOwn => {
            let rr = source.pick("Red removes", &faces(12))?;
            steps.push(DrawStep::new(
                "Red removes",
                rr,
                format!("take up the man on {rr}"),
            ));
            let rp = source.pick("Red places", &faces(4))?;
            steps.push(DrawStep::new(
                "Red places",
                rp,
                format!("put it on {}", 12 + rp),
            ));
            let wr = source.pick("White removes", &faces(12))?;
            steps.push(DrawStep::new(
                "White removes",
                wr,
                format!("take up the man on {}", 33 - wr),
            ));
            let wp = source.pick("White places", &faces(4))?;
            steps.push(DrawStep::new(
                "White places",
                wp,
                format!("put it on {}", 21 - wp),
            ));
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
    what: &str,
    cards: &[(u8, u8, u8); 7],
    removed: u8,
) -> Result<u32, OpeningError> {
    let deck = faces(DECK_CARDS);
    loop {
        let c = source.pick(what, &deck)?;
        match cards.get(c as usize - 1) {
            Some(&card) => {
                steps.push(DrawStep::new(what, c, move_card_meaning(card, removed)));
                return Ok(c);
            }
            None => steps.push(DrawStep::new(what, c, "blank card: redraw".to_string())),
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
        let whats: Vec<&str> = d
            .steps
            .iter()
            .filter(|s| !s.meaning.starts_with("blank"))
            .map(|s| s.what.as_str())
            .collect();
        assert_eq!(
            whats,
            ["Red removes", "Red moves", "White removes", "White moves"]
        );
        assert_eq!(d.opening.system, System::ElevenMan);
    }
}
