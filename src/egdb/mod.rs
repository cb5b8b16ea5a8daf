//! Endgame databases: the win/loss/draw value of every position with few pieces, built by
//! retrograde analysis.
//!
//! Pure like the rules engine: this module knows nothing of files or terminals. It numbers the
//! positions of each material slice ([`index`]), solves slices ([`solve`](mod@solve)), checks them
//! ([`verify`]) and answers probes on tables held in memory ([`Egdb`]). Reading and writing the
//! tables, resuming a build and the data folder live in `store::egdb`.
//!
//! Values are exact game-theoretic results under the rules of English draughts with the
//! compulsory capture, from the side to move's point of view; the 40-move rule and repetition
//! claims are not part of them (a database win may take longer than 40 moves).

mod bench;
mod blocks;
mod index;
mod plan;
mod solve;
mod verify;

pub use bench::{bench_build, bench_probe};
pub use blocks::{
    BLOCK_BYTES, Checksums, Damage, SUM_BYTES, block_count, block_sums, describe_block,
    first_bad_block,
};
pub use index::{Board, MAX_PIECES, Material};
pub use plan::{Plan, materials_with, plan};
pub use solve::{NO_DISTANCE, SolveError, conversion_distances, solve};
pub use verify::{Mismatch, VerifyReport, verify_slice};

use crate::engine::Position;
use blocks::{Blocks, Touch};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// Most positions (a slice and its swap together) whose distances to conversion
/// ([`Egdb::conversion_distance`]) are worked out on demand: every pair of up to 4 pieces (the
/// largest, two kings against king and man, takes about 0.1 s of CPU). Five-piece pairs take
/// seconds (three kings against two: 4 million indices, 2 s of CPU), too long for a move in a
/// timed game, so they are left to the search.
pub const DISTANCE_MAX_POSITIONS: u64 = 1 << 20;

/// A game-theoretic value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// The value for the other side.
    #[inline]
    pub fn negate(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The two-bit code stored in a table.
    #[inline]
    pub(crate) fn code(self) -> u8 {
        self as u8
    }

    #[inline]
    pub(crate) fn from_code(code: u8) -> Option<Wdl> {
        match code {
            0 => Some(Wdl::Loss),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The code of an unused index (men of both sides on one square).
pub(crate) const UNUSED_CODE: u8 = 3;

/// The bytes of one slice's table: four positions a byte, two bits each (position `i` in bits
/// `2 * (i % 4)` of byte `i / 4`), codes 0 loss, 1 draw, 2 win, 3 unused. Any owner of bytes
/// will do (a vector, a memory-mapped file).
pub type Bytes = Box<dyn AsRef<[u8]> + Send + Sync>;

/// Bytes needed for a table of `positions` positions.
pub fn table_len(positions: u64) -> u64 {
    positions.div_ceil(4)
}

/// Read the two-bit code of position `i` from a packed table.
#[inline(always)]
pub(crate) fn code_at(bytes: &[u8], i: u64) -> u8 {
    (bytes[(i / 4) as usize] >> (2 * (i % 4))) & 3
}

/// One solved slice.
struct Slice {
    material: Material,
    bytes: Bytes,
    /// The checksums of its blocks, when read from a file.
    blocks: Option<Blocks>,
}

impl Slice {
    fn damaged(&self) -> bool {
        self.blocks.as_ref().is_some_and(Blocks::damaged)
    }
}

/// What is called when a probe finds a slice damaged (once a slice).
pub type DamageHook = Box<dyn Fn(&Damage) + Send + Sync>;

/// Slots in the material lookup: men and kings per side each 0..=MAX_PIECES.
const SLOTS: usize =
    ((MAX_PIECES + 1) * (MAX_PIECES + 1) * (MAX_PIECES + 1) * (MAX_PIECES + 1)) as usize;

fn slot(m: Material) -> usize {
    let n = MAX_PIECES as usize + 1;
    ((usize::from(m.us_men) * n + usize::from(m.us_kings)) * n + usize::from(m.them_men)) * n
        + usize::from(m.them_kings)
}

/// Why a table cannot be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The table's length does not match its material's number of positions.
    #[error("the table for {material} has {got} bytes, {expected} expected")]
    WrongLength {
        /// The slice.
        material: Material,
        /// Bytes given.
        got: u64,
        /// Bytes a table of that slice has.
        expected: u64,
    },
    /// The checksums given do not cover the table's blocks.
    #[error("the table for {material} has {got} bytes of checksums, {expected} expected")]
    WrongChecksums {
        /// The slice.
        material: Material,
        /// Bytes given.
        got: u64,
        /// Bytes its blocks take.
        expected: u64,
    },
}

/// A set of solved slices, probed by the search. Cheap to share (`Arc<Egdb>`): probing takes
/// `&self`, allocates nothing and never touches a file. Tables read from files carry checksums
/// ([`Egdb::insert_checked`]), checked block by block on first touch: a damaged slice is then
/// missing, never a wrong value.
pub struct Egdb {
    slices: Vec<Slice>,
    lookup: Vec<u16>,
    /// Distances to conversion of the pairs asked for so far (empty: not available).
    distances: Mutex<HashMap<Material, Arc<Vec<u16>>>>,
    /// The slices found damaged so far.
    damage: Mutex<Vec<Damage>>,
    /// Told of each slice found damaged.
    on_damage: Option<DamageHook>,
}

impl Default for Egdb {
    fn default() -> Self {
        Egdb::new()
    }
}

impl fmt::Debug for Egdb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Egdb")
            .field("slices", &self.slices.len())
            .field("complete_pieces", &self.complete_pieces())
            .finish()
    }
}

const NO_SLICE: u16 = u16::MAX;

impl Egdb {
    /// No tables: every probe of a position with pieces on both sides answers `None`.
    pub fn new() -> Egdb {
        Egdb {
            slices: Vec::new(),
            lookup: vec![NO_SLICE; SLOTS],
            distances: Mutex::new(HashMap::new()),
            damage: Mutex::new(Vec::new()),
            on_damage: None,
        }
    }

    /// Add (or replace) the table of one slice, trusted as it is (a table solved in memory).
    pub fn insert(&mut self, material: Material, bytes: Bytes) -> Result<(), TableError> {
        self.put(material, bytes, None)
    }

    /// Add (or replace) the table of one slice with the checksums of its blocks (a table read
    /// from a file): each block is checked the first time a probe reads it, and a block that
    /// fails makes the slice missing and is reported ([`Egdb::on_damage`], [`Egdb::damage`]).
    pub fn insert_checked(
        &mut self,
        material: Material,
        bytes: Bytes,
        checksums: Checksums,
    ) -> Result<(), TableError> {
        let len = (*bytes).as_ref().len();
        let expected = block_count(len as u64) * SUM_BYTES as u64;
        let got = (*checksums.sums).as_ref().len() as u64;
        if got != expected {
            return Err(TableError::WrongChecksums {
                material,
                got,
                expected,
            });
        }
        self.put(material, bytes, Some(Blocks::new(checksums, len)))
    }

    fn put(
        &mut self,
        material: Material,
        bytes: Bytes,
        blocks: Option<Blocks>,
    ) -> Result<(), TableError> {
        let expected = table_len(material.size());
        let got = (*bytes).as_ref().len() as u64;
        if got != expected {
            return Err(TableError::WrongLength {
                material,
                got,
                expected,
            });
        }
        let slot = slot(material);
        let slice = Slice {
            material,
            bytes,
            blocks,
        };
        if self.lookup[slot] != NO_SLICE {
            self.slices[usize::from(self.lookup[slot])] = slice;
        } else {
            self.lookup[slot] = self.slices.len() as u16;
            self.slices.push(slice);
        }
        Ok(())
    }

    /// Call `hook` for each slice a probe finds damaged from now on (once a slice): the callers
    /// that speak to a user name the file there.
    pub fn on_damage(&mut self, hook: DamageHook) {
        self.on_damage = Some(hook);
    }

    /// The slices found damaged so far, in the order found.
    pub fn damage(&self) -> Vec<Damage> {
        self.damage.lock().map(|d| d.clone()).unwrap_or_default()
    }

    /// Check every block of every slice not checked yet (as `egdb verify` does before it checks
    /// values); returns every slice found damaged, now or before.
    pub fn check_all(&self) -> Vec<Damage> {
        for slice in &self.slices {
            self.check_slice(slice);
        }
        self.damage()
    }

    /// Check every block of one slice not checked yet; false when the slice is damaged.
    fn check_slice(&self, slice: &Slice) -> bool {
        let Some(blocks) = &slice.blocks else {
            return true;
        };
        self.touched(slice, blocks.touch_all((*slice.bytes).as_ref()))
    }

    /// True for [`Touch::Good`]; reports a slice found damaged.
    fn touched(&self, slice: &Slice, touch: Touch) -> bool {
        match touch {
            Touch::Good => true,
            Touch::Damaged => false,
            Touch::Found(block) => {
                self.report(slice, block);
                false
            }
        }
    }

    #[cold]
    fn report(&self, slice: &Slice, block: u64) {
        let Some(blocks) = &slice.blocks else {
            return;
        };
        let damage = Damage {
            material: slice.material,
            source: blocks.source.clone(),
            block,
            table_len: (*slice.bytes).as_ref().len() as u64,
        };
        if let Some(hook) = &self.on_damage {
            hook(&damage);
        }
        if let Ok(mut found) = self.damage.lock() {
            found.push(damage);
        }
    }

    fn slice(&self, material: Material) -> Option<&Slice> {
        let s = self.lookup[slot(material)];
        (s != NO_SLICE).then(|| &self.slices[usize::from(s)])
    }

    /// True when the slice of `material` is present (and not found damaged).
    pub fn has(&self, material: Material) -> bool {
        self.slice(material).is_some_and(|s| !s.damaged())
    }

    /// The materials present, in the order they were added.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.slices.iter().map(|s| s.material)
    }

    /// The largest `n` such that every slice of at most `n` pieces is present (0 when none).
    pub fn complete_pieces(&self) -> u32 {
        let mut n = 0;
        for pieces in 2..=MAX_PIECES {
            if plan::materials_with(pieces).all(|m| self.has(m)) {
                n = pieces;
            } else {
                break;
            }
        }
        n
    }

    /// Positions held (unused indices included).
    pub fn positions(&self) -> u64 {
        self.slices.iter().map(|s| s.material.size()).sum()
    }

    /// Bytes held by the tables.
    pub fn table_bytes(&self) -> u64 {
        self.slices
            .iter()
            .map(|s| (*s.bytes).as_ref().len() as u64)
            .sum()
    }

    /// The value of `pos` for the side to move, when its slice is present and the position is
    /// played under English rules (the databases know no other). A side without pieces has lost
    /// (and its opponent, to move, has won). Fast: no allocation, one table read.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Wdl> {
        if pos.rules() != crate::engine::Rules::English {
            return None;
        }
        self.probe_board(&Board::of(pos))
    }

    /// [`Egdb::probe`] on a normalised board.
    #[inline]
    pub fn probe_board(&self, board: &Board) -> Option<Wdl> {
        if board.us == 0 {
            return Some(Wdl::Loss);
        }
        if board.them == 0 {
            return Some(Wdl::Win);
        }
        let material = Material::of(board);
        if material.pieces() > MAX_PIECES {
            return None;
        }
        let s = self.lookup[slot(material)];
        if s == NO_SLICE {
            return None;
        }
        let slice = &self.slices[usize::from(s)];
        let bytes = (*slice.bytes).as_ref();
        let index = material.index(board);
        if let Some(blocks) = &slice.blocks
            && !self.touched(slice, blocks.touch(bytes, (index / 4) as usize))
        {
            return None;
        }
        Wdl::from_code(code_at(bytes, index))
    }

    /// Plies from `pos` (won or lost for the side to move) to leaving its material by a
    /// capture or a crowning with best play (see [`conversion_distances`]): a won position's
    /// move to the opponent's nearest loss makes progress the search may not see. Worked out
    /// once per slice pair on first use, for pairs of at most [`DISTANCE_MAX_POSITIONS`];
    /// `None` for larger pairs, slices not loaded, draws, and positions outside English rules.
    pub fn conversion_distance(&self, pos: &Position) -> Option<u16> {
        if pos.rules() != crate::engine::Rules::English {
            return None;
        }
        let board = Board::of(pos);
        if board.us == 0 || board.them == 0 {
            return None;
        }
        let material = Material::of(&board);
        if material.pieces() > MAX_PIECES || !self.has(material) {
            return None;
        }
        let table = self.distance_table(material)?;
        let d = *table.get(material.index(&board) as usize)?;
        (d != NO_DISTANCE).then_some(d)
    }

    fn distance_table(&self, material: Material) -> Option<Arc<Vec<u16>>> {
        let mut cache = self.distances.lock().ok()?;
        if let Some(t) = cache.get(&material) {
            return (!t.is_empty()).then(|| t.clone());
        }
        let swapped = material.swapped();
        let size = material.size()
            + if swapped == material {
                0
            } else {
                swapped.size()
            };
        let tables = if size <= DISTANCE_MAX_POSITIONS {
            conversion_distances(material, self).unwrap_or_default()
        } else {
            Vec::new()
        };
        for m in [material, swapped] {
            cache.entry(m).or_insert_with(|| Arc::new(Vec::new()));
        }
        for (m, t) in tables {
            cache.insert(m, Arc::new(t));
        }
        cache.get(&material).filter(|t| !t.is_empty()).cloned()
    }

    /// The table bytes of one slice, every block checked first (`None` when the slice is
    /// missing or damaged).
    pub fn table(&self, material: Material) -> Option<&[u8]> {
        let slice = self.slice(material)?;
        self.check_slice(slice).then(|| (*slice.bytes).as_ref())
    }

    /// Check every block of the slice of `material` not checked yet: true when it is present
    /// and sound (a solve or a verification checks the slices it reads first).
    pub fn check(&self, material: Material) -> bool {
        self.slice(material).is_some_and(|s| self.check_slice(s))
    }
}

/// Build every slice of up to `max_pieces` pieces in memory (no files: for tests and
/// benchmarks; `store::egdb` builds to the data folder, resumably).
pub fn build_in_memory(max_pieces: u32, progress: &(dyn Fn(u64) + Sync)) -> Egdb {
    let mut db = Egdb::new();
    for m in plan(max_pieces).pairs {
        solve_with_dependencies(&mut db, m, progress);
    }
    db
}

/// Solve `material`'s pair into `db`, first solving whatever slices it leads to that `db`
/// lacks (in memory; for tests and benchmarks that need one slice of many pieces).
pub fn solve_with_dependencies(db: &mut Egdb, material: Material, progress: &(dyn Fn(u64) + Sync)) {
    if db.has(material) && db.has(material.swapped()) {
        return;
    }
    for d in plan::dependencies(material) {
        solve_with_dependencies(db, d, progress);
    }
    let tables = solve(material, db, progress)
        .unwrap_or_else(|e| unreachable!("dependencies are solved first: {e}"));
    for (m, bytes) in tables {
        db.insert(m, Box::new(bytes))
            .unwrap_or_else(|e| unreachable!("solved tables have their length: {e}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_database_knows_only_bare_sides() {
        let db = Egdb::new();
        let p = Position::from_fen("B:W:B5").unwrap();
        assert_eq!(db.probe(&p), Some(Wdl::Win));
        let p = Position::from_fen("W:W:B5").unwrap();
        assert_eq!(db.probe(&p), Some(Wdl::Loss));
        let p = Position::from_fen("W:W20:B5").unwrap();
        assert_eq!(db.probe(&p), None);
        let losing = Position::from_fen("W:W:B5")
            .unwrap()
            .with_rules(crate::engine::Rules::Losing);
        assert_eq!(db.probe(&losing), None, "English values only");
        assert_eq!(db.complete_pieces(), 0);
    }

    #[test]
    fn a_table_of_the_wrong_length_is_refused() {
        let mut db = Egdb::new();
        let m = Material::new(1, 0, 1, 0).unwrap();
        assert!(db.insert(m, Box::new(vec![0u8; 3])).is_err());
        assert!(!db.has(m));
    }
}
