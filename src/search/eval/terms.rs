//! The terms of the evaluation of English draughts (and pool): their names, their order in a
//! weight table, and the hand-set table the tuner starts from.

/// One weight per term, in 1/[`SCALE`] of a hundredth of a man per unit of the term.
pub(crate) type Weights = [i32; TERMS];

/// The evaluation is the weighted sum of the terms over this: counts enter the sum times
/// `SCALE`, so that terms scaled by a fraction (the guard by the opponent's men) stay whole.
pub(crate) const SCALE: i32 = 32;

/// The index of each term in a weight table.
pub(crate) mod term {
    /// Men (the unit of the scale: not tuned).
    pub(crate) const MAN: usize = 0;
    /// Kings.
    pub(crate) const KING: usize = 1;
    /// Men, times the pieces off the board (24 less those on it), over [`super::SCALE`]: the
    /// same lead counts more on an emptier board.
    pub(crate) const TRADE_MAN: usize = 2;
    /// Kings, likewise.
    pub(crate) const TRADE_KING: usize = 3;
    /// Rows advanced by the men, 16 men or more on the board.
    pub(crate) const TEMPO_OPENING: usize = 4;
    /// Rows advanced, 12 to 15 men.
    pub(crate) const TEMPO_MIDDLE: usize = 5;
    /// Rows advanced, 9 to 11 men.
    pub(crate) const TEMPO_LATE: usize = 6;
    /// Rows advanced, 8 men or fewer.
    pub(crate) const TEMPO_ENDING: usize = 7;
    /// Men on the bridge squares of the back rank, times the opponent's men (up to 8) / 8.
    pub(crate) const BRIDGE: usize = 8;
    /// Men on the other two back squares, likewise.
    pub(crate) const BACK_OTHER: usize = 9;
    /// Men on the four centre squares.
    pub(crate) const CENTRE: usize = 10;
    /// Men on the ring around them.
    pub(crate) const NEAR_CENTRE: usize = 11;
    /// Kings on the centre squares.
    pub(crate) const KING_CENTRE: usize = 12;
    /// Kings on the edge.
    pub(crate) const KING_EDGE: usize = 13;
    /// Kings with no empty square next to them.
    pub(crate) const KING_TRAPPED: usize = 14;
    /// Plain moves.
    pub(crate) const MOBILITY: usize = 15;
    /// Plain moves times the pieces off the board, over [`super::SCALE`].
    pub(crate) const MOBILITY_ENDING: usize = 16;
    /// Men with a free path to the crown (no enemy kings, no enemy piece in the cone ahead).
    pub(crate) const RUNAWAY: usize = 17;
    /// The rows those men still have to go.
    pub(crate) const RUNAWAY_ROWS: usize = 18;
    /// In a thin ending (10 pieces or fewer), for the side ahead in material: its kings'
    /// closeness to the nearest enemy piece (7 less the king steps), summed.
    pub(crate) const HUNT: usize = 19;
    /// A man in the dog-hole (square 28 for Red, 5 for White) with the corner ahead held.
    pub(crate) const DOG_HOLE: usize = 20;
    /// Men on the two side edges.
    pub(crate) const MEN_EDGE: usize = 21;
    /// The men of the left half of the board less those of the right, either way.
    pub(crate) const BALANCE: usize = 22;
}

/// The number of terms.
pub(crate) const TERMS: usize = 23;

/// The terms' names, in table order (the tuner's output names each weight).
pub(crate) const NAMES: [&str; TERMS] = [
    "man",
    "king",
    "trade_man",
    "trade_king",
    "tempo_opening",
    "tempo_middle",
    "tempo_late",
    "tempo_ending",
    "bridge",
    "back_other",
    "centre",
    "near_centre",
    "king_centre",
    "king_edge",
    "king_trapped",
    "mobility",
    "mobility_ending",
    "runaway",
    "runaway_rows",
    "hunt",
    "dog_hole",
    "men_edge",
    "balance",
];

/// The hand-set weights of English draughts, where the tuning starts.
pub(crate) const HAND: Weights = [
    100, 140, 100, 140, -2, -1, 1, 3, 14, 4, 6, 2, 10, -8, -20, 2, 0, 40, -4, 3, 0, 0, 0,
];

/// The weights of pool checkers (hand-set): a flying king is worth [`super::POOL_KING`], a
/// runaway man is worth the king it becomes.
pub(crate) const POOL: Weights = {
    let mut w = HAND;
    w[term::KING] = super::POOL_KING;
    w[term::TRADE_KING] = super::POOL_KING;
    w[term::RUNAWAY] = super::POOL_KING - super::MAN;
    w
};
