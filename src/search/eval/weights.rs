//! The weights of the English evaluation (see `terms.rs` for the terms).
//! Written by `crossboard tune`: see docs/engine.md. Do not edit by hand.
//!
//! crossboard tune --pdn acf.pdn selfplay.pdn selfplay2.pdn --seed 27 --epochs 600 --skip-plies 8 --prior 0.000003
//! 12202 training games (658040 positions), 1375 held out (73212 positions); k = 0.008952.
//! Mean squared error, held out: 0.075701 hand-set, 0.073572 tuned.

use super::terms::Weights;

/// The weights of English draughts, in the order of `terms::NAMES`.
pub(crate) const ENGLISH: Weights = [
    100, // man
    137, // king
    103, // trade_man
    139, // trade_king
    -9,  // tempo_opening
    -6,  // tempo_middle
    -2,  // tempo_late
    3,   // tempo_ending
    18,  // bridge
    5,   // back_other
    1,   // centre
    0,   // near_centre
    9,   // king_centre
    -8,  // king_edge
    -20, // king_trapped
    3,   // mobility
    1,   // mobility_ending
    39,  // runaway
    -7,  // runaway_rows
    1,   // hunt
    -2,  // dog_hole
    -4,  // men_edge
    -2,  // balance
];
