//! The transposition table: one slot per index, replaced by depth and age.

use crate::engine::Move;

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// The value is at least this (a fail-high).
    Lower,
    /// The value is at most this (a fail-low).
    Upper,
}

/// The best move stored compactly: start, end and captured squares identify a move's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveKey {
    from: u8,
    to: u8,
    captured: u32,
}

impl MoveKey {
    pub(crate) fn of(mv: &Move) -> MoveKey {
        MoveKey {
            from: mv.from().number(),
            to: mv.to().number(),
            captured: mv.captured(),
        }
    }

    /// True when `mv` has this key (same start, end and captures: the same resulting position).
    pub(crate) fn matches(&self, mv: &Move) -> bool {
        *self == MoveKey::of(mv)
    }

    pub(crate) fn is_none(&self) -> bool {
        self.from == 0
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    check: u32,
    captured: u32,
    score: i16,
    depth: i8,
    bound: u8, // 0 empty, 1 exact, 2 lower, 3 upper
    from: u8,
    to: u8,
    generation: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub best: MoveKey,
}

/// A fixed-size table indexed by the low bits of the Zobrist hash.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` MB (rounded down to a power of two of entries, at least 1024).
    pub(crate) fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<Entry>();
        let mut size = 1024usize;
        while size * 2 <= wanted {
            size *= 2;
        }
        Table {
            entries: vec![Entry::default(); size],
            mask: size - 1,
            generation: 0,
        }
    }

    /// Forget everything.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Start a new search: older entries become preferred for replacement.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub(crate) fn probe(&self, hash: u64) -> Option<Hit> {
        let e = &self.entries[hash as usize & self.mask];
        if e.bound == 0 || e.check != (hash >> 32) as u32 {
            return None;
        }
        let bound = match e.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            score: i32::from(e.score),
            depth: i32::from(e.depth),
            bound,
            best: MoveKey {
                from: e.from,
                to: e.to,
                captured: e.captured,
            },
        })
    }

    pub(crate) fn store(&mut self, hash: u64, depth: i32, score: i32, bound: Bound, best: MoveKey) {
        let generation = self.generation;
        let e = &mut self.entries[hash as usize & self.mask];
        let check = (hash >> 32) as u32;
        let same = e.bound != 0 && e.check == check;
        let depth = depth.clamp(-100, 100) as i8;
        if same || e.generation != generation || depth >= e.depth || bound == Bound::Exact {
            let keep_move = same && best.is_none();
            *e = Entry {
                check,
                captured: if keep_move { e.captured } else { best.captured },
                score: score.clamp(-32_000, 32_000) as i16,
                depth,
                bound: match bound {
                    Bound::Exact => 1,
                    Bound::Lower => 2,
                    Bound::Upper => 3,
                },
                from: if keep_move { e.from } else { best.from },
                to: if keep_move { e.to } else { best.to },
                generation,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut t = Table::new(1);
        let mv = Move::from_notation_path("11-15").unwrap();
        t.store(
            0xDEAD_BEEF_0000_0042,
            5,
            -37,
            Bound::Lower,
            MoveKey::of(&mv),
        );
        let hit = t.probe(0xDEAD_BEEF_0000_0042).unwrap();
        assert_eq!((hit.score, hit.depth, hit.bound), (-37, 5, Bound::Lower));
        assert!(hit.best.matches(&mv));
        assert!(t.probe(0xDEAD_BEE0_0000_0042).is_none(), "other check bits");
        t.clear();
        assert!(t.probe(0xDEAD_BEEF_0000_0042).is_none());
        assert_eq!(std::mem::size_of::<Entry>(), 16);
    }
}
