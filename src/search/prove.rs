//! Proof of material won by force beyond the full-width horizon: a threat search.
//!
//! In checkers captures are compulsory, so a shot (a man given away to set up a multiple jump,
//! or a threat to take a man that cannot be met) is a long and narrow forcing line. The
//! search below asks a yes-or-no question: can `attacker` end up at least
//! [`GAIN`] ahead in material (men 100, kings 140) by force? It is an AND-OR search:
//!
//! - the first `full` plies are full width for both sides;
//! - then, for `threat` more plies, the attacker plays only *forcing* quiet moves (one after
//!   which the defender must capture, or after which the attacker could capture if it moved
//!   again) while the defender still answers with every move; captures are compulsory and cost
//!   no ply (capture extension);
//! - when the attacker is at least [`GAIN`] ahead in a position without a capture to make, the
//!   gain must hold through `verify` more full-width plies (and their captures), so that a man
//!   won back at once by a counter-shot does not count.
//!
//! Restricting the attacker's moves can only miss wins, never invent one: every defender move
//! is answered, so a proof is a proof of the gain. Repetitions are not looked for: the lines
//! are short and start from opening positions, and a draw by repetition needs the same position
//! three times. The node budget bounds the cost; an exhausted budget is "not proved".

use super::eval::{KING, MAN, evaluate};
use super::zobrist;
use crate::engine::generate;
use crate::engine::{Color, MoveList, Position};
use std::ops::ControlFlow;

/// The material a proof must win: a man, less what a crowning by the loser gives back (a king
/// counts 140, so a man lost and a king made is still 0.6 men down).
pub(super) const GAIN: i32 = MAN - 40;

/// How far and how wide the proof search looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofLimits {
    /// Full-width plies from the root.
    pub full: u32,
    /// Forcing plies after the full-width ones (the attacker's quiet moves must force).
    pub threat: u32,
    /// Full-width plies the gain must hold for once made.
    pub verify: u32,
    /// Quiet moves that do not force the attacker may still play in the forcing plies: the
    /// `width` best by the static evaluation (0: forcing moves only).
    pub width: u32,
    /// Nodes per attacker before giving up.
    pub nodes: u64,
}

/// What the proof search found for one attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProofResult {
    /// The attacker wins at least [`GAIN`] by force within `plies` nominal plies (full plus
    /// forcing plies; captures come on top).
    Proved { plies: u32 },
    /// No such win within the limits.
    Refuted,
    /// The node budget ran out first.
    Unknown,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    generation: u32,
    /// Smallest remaining depth proved at, plus one (0: never proved).
    proved: u8,
    /// Largest remaining depth refuted at, plus one (0: never refuted).
    refuted: u8,
    /// The move that proved (attacker) or held (defender), plus one (0: none).
    best: u8,
}

/// The proof searcher; its table is reused (by generation) from one search to the next.
pub struct Prover {
    table: Vec<Entry>,
    mask: usize,
    generation: u32,
    attacker: Color,
    nodes: u64,
    budget: u64,
    width: u32,
    aborted: bool,
}

/// Modes of a node, mixed into the table key.
#[derive(Clone, Copy)]
enum Mode {
    /// Full width with this many plies left before the forcing plies.
    Full(u32),
    /// Forcing plies.
    Threat,
    /// Verifying a gain, this many plies left.
    Verify(u32),
}

impl Mode {
    fn tag(self) -> u64 {
        let t = match self {
            Mode::Threat => 1,
            Mode::Full(d) => 2 + u64::from(d),
            Mode::Verify(v) => 200 + u64::from(v),
        };
        t.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

fn material(pos: &Position, side: Color) -> i32 {
    let value = |c: Color| {
        pos.men(c).count_ones() as i32 * MAN + pos.kings_of(c).count_ones() as i32 * KING
    };
    value(side) - value(side.opponent())
}

/// Legal moves with capture routes that end alike removed.
fn moves_of(pos: &Position) -> MoveList {
    let mut moves = MoveList::with_capacity(16);
    generate(pos, &mut moves);
    if moves.len() > 1 && moves[0].is_capture() {
        let mut i = 1;
        while i < moves.len() {
            if moves[..i].iter().any(|m| m.same_result(&moves[i])) {
                moves.remove(i);
            } else {
                i += 1;
            }
        }
    }
    moves
}

/// True when the attacker's quiet move that led to `child` (the defender to move) forces: the
/// defender must capture, or the attacker would have a capture if it moved again.
fn forcing(child: &Position) -> bool {
    child.must_capture() || child.with_turn(child.turn().opponent()).can_capture()
}

impl Prover {
    /// A prover with a table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Prover {
        let size = 1usize << bits;
        Prover {
            table: vec![Entry::default(); size],
            mask: size - 1,
            generation: 0,
            attacker: Color::Red,
            nodes: 0,
            budget: 0,
            width: 0,
            aborted: false,
        }
    }

    /// Nodes searched by the last [`Prover::prove`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Can `attacker` win at least [`GAIN`] by force from `pos` within `limits`? Forcing
    /// plies are deepened one at a time (the table carries over), so a proof is reported at the
    /// fewest forcing plies that give it.
    pub fn prove(&mut self, pos: &Position, attacker: Color, limits: ProofLimits) -> ProofResult {
        let pos = pos.with_rules(pos.rules().planning_rules());
        self.generation = self.generation.wrapping_add(1);
        self.attacker = attacker;
        self.nodes = 0;
        self.budget = limits.nodes;
        self.width = limits.width;
        self.aborted = false;
        let hash = zobrist::hash(&pos);
        for threat in 0..=limits.threat {
            let proved = self.node(
                &pos,
                hash,
                Mode::Full(limits.full),
                threat,
                limits.verify,
                0,
            );
            if self.aborted {
                return ProofResult::Unknown;
            }
            if proved {
                return ProofResult::Proved {
                    plies: limits.full + threat,
                };
            }
        }
        ProofResult::Refuted
    }

    fn slot(&self, key: u64) -> usize {
        (key >> 20) as usize & self.mask
    }

    /// The search: true when the attacker gets its gain. `threat`: forcing plies left after
    /// the full-width ones; `verify`: plies a gain must hold for.
    fn node(
        &mut self,
        pos: &Position,
        hash: u64,
        mode: Mode,
        threat: u32,
        verify: u32,
        ply: u32,
    ) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
        }
        if self.aborted || ply > 120 {
            return false;
        }
        let attacking = pos.turn() == self.attacker;
        let moves = moves_of(pos);
        if moves.is_empty() {
            // The side to move has lost.
            return !attacking;
        }
        let capture = moves[0].is_capture();
        let mode = match self.mode_at(pos, mode, capture, verify) {
            ControlFlow::Continue(mode) => mode,
            ControlFlow::Break(proved) => return proved,
        };
        // Remaining depth as the table counts it (monotone in the forcing plies only).
        let depth = match mode {
            Mode::Threat => threat,
            Mode::Full(_) => threat,
            Mode::Verify(_) => 0,
        };
        if !capture && matches!(mode, Mode::Threat) && depth == 0 {
            return false;
        }
        let key = hash ^ mode.tag();
        let slot = self.slot(key);
        let best_first = match self.known(slot, key, depth, moves.len()) {
            ControlFlow::Continue(best) => best,
            ControlFlow::Break(proved) => return proved,
        };
        let (child_mode, child_threat) = match mode {
            _ if capture => (mode, threat),
            Mode::Full(d) => (Mode::Full(d - 1), threat),
            Mode::Threat => (Mode::Threat, threat - 1),
            Mode::Verify(v) => (Mode::Verify(v - 1), threat),
        };
        let restrict = attacking && !capture && matches!(mode, Mode::Threat);
        let order = self.order(pos, &moves, capture, restrict, best_first);
        let mut result = !attacking;
        let mut decisive = None;
        for &(_, i, child, _) in &order {
            let mv = &moves[i];
            let child_hash = zobrist::hash_after(hash, pos, mv);
            let r = self.node(
                &child,
                child_hash,
                child_mode,
                child_threat,
                verify,
                ply + 1,
            );
            if self.aborted {
                return false;
            }
            if r == attacking {
                result = r;
                decisive = Some(i);
                break;
            }
        }
        self.record(slot, key, depth, result, decisive);
        result
    }

    /// The mode of a node, given that of its parent: a quiet position ends the full-width
    /// plies, and one where the attacker is ahead by its gain starts the verification (or is
    /// proved at once, with none asked). `Break` holds the node's answer when it is decided
    /// here.
    fn mode_at(
        &self,
        pos: &Position,
        mode: Mode,
        capture: bool,
        verify: u32,
    ) -> ControlFlow<bool, Mode> {
        if capture {
            return ControlFlow::Continue(mode);
        }
        let mut mode = mode;
        match mode {
            Mode::Verify(0) => return ControlFlow::Break(material(pos, self.attacker) >= GAIN),
            Mode::Full(0) => mode = Mode::Threat,
            _ => {}
        }
        if matches!(mode, Mode::Threat) && material(pos, self.attacker) >= GAIN {
            if verify == 0 {
                return ControlFlow::Break(true);
            }
            mode = Mode::Verify(verify);
        }
        ControlFlow::Continue(mode)
    }

    /// What the table knows of the node at `slot`: proved or refuted at `depth` (`Break`), or
    /// else the index of the move that decided it before, among the node's `n` moves.
    fn known(
        &self,
        slot: usize,
        key: u64,
        depth: u32,
        n: usize,
    ) -> ControlFlow<bool, Option<usize>> {
        let e = &self.table[slot];
        if e.key != key || e.generation != self.generation {
            return ControlFlow::Continue(None);
        }
        if e.proved != 0 && u32::from(e.proved - 1) <= depth {
            return ControlFlow::Break(true);
        }
        if e.refuted != 0 && u32::from(e.refuted - 1) >= depth {
            return ControlFlow::Break(false);
        }
        if e.best != 0 && usize::from(e.best - 1) < n {
            return ControlFlow::Continue(Some(usize::from(e.best - 1)));
        }
        ControlFlow::Continue(None)
    }

    /// The children in the order tried, as (ordering key, move index, position, forcing): the
    /// table's move first, then by the static evaluation for the mover; in the forcing plies
    /// (`restrict`) the attacker's forcing moves first, and of the others only the `width`
    /// best.
    fn order(
        &self,
        pos: &Position,
        moves: &MoveList,
        capture: bool,
        restrict: bool,
        best_first: Option<usize>,
    ) -> Vec<(i64, usize, Position, bool)> {
        let mut order: Vec<(i64, usize, Position, bool)> = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let child = pos.after(mv);
            let forces = restrict && forcing(&child);
            if restrict && !forces && self.width == 0 {
                continue;
            }
            // Captures are tried as generated; the static evaluation orders the rest.
            let mut key = if capture {
                0
            } else {
                i64::from(evaluate(&child))
            };
            if best_first == Some(i) {
                key -= 1 << 40;
            }
            if forces {
                key -= 1 << 30;
            }
            order.push((key, i, child, forces));
        }
        if order.len() > 1 {
            order.sort_by_key(|&(k, i, ..)| (k, i));
        }
        if restrict {
            let mut others = 0;
            order.retain(|&(.., forces)| {
                others += u32::from(!forces);
                forces || others <= self.width
            });
        }
        order
    }

    /// Keep the node's answer at `slot`: proved at the fewest forcing plies, refuted at the
    /// most, and the move that decided it.
    fn record(&mut self, slot: usize, key: u64, depth: u32, result: bool, decisive: Option<usize>) {
        let e = &mut self.table[slot];
        if e.key != key || e.generation != self.generation {
            *e = Entry {
                key,
                generation: self.generation,
                ..Entry::default()
            };
        }
        let d = depth.min(250) as u8 + 1;
        if result {
            if e.proved == 0 || d < e.proved {
                e.proved = d;
            }
        } else if d > e.refuted {
            e.refuted = d;
        }
        if let Some(i) = decisive {
            e.best = i.min(250) as u8 + 1;
        }
    }
}
