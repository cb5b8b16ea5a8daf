//! The transposition table: buckets of eight 8-byte entries, one 64-byte cache line each, shared
//! by all search threads without locks.
//!
//! An entry is one 64-bit word (score, depth, bound, search generation, best move and the top
//! 24 bits of the hash; the bucket index takes the low bits), written and read whole: threads
//! never see half an entry. The best move is stored as its index in the position's move list
//! (generation order is fixed), so it needs 8 bits. Replacement: the same position is always
//! overwritten; otherwise the entry with the lowest depth, counting older searches' entries as
//! 8 plies shallower per search.

use crate::engine::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

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

/// A move identified by its start, end and captured squares (what its result depends on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveKey {
    from: u8,
    to: u8,
    captured: u32,
}

impl MoveKey {
    #[inline]
    pub(crate) fn of(mv: &Move) -> MoveKey {
        MoveKey {
            from: mv.from().number(),
            to: mv.to().number(),
            captured: mv.captured(),
        }
    }

    /// True when `mv` has this key (same start, end and captures: the same resulting position).
    #[inline]
    pub(crate) fn matches(&self, mv: &Move) -> bool {
        *self == MoveKey::of(mv)
    }
}

/// No move stored.
pub(crate) const NO_MOVE: u8 = 0xFF;

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// Index of the best move in the position's move list, or [`NO_MOVE`].
    pub best: u8,
}

/// Entries per bucket (one 64-byte cache line).
const WAYS: usize = 8;

#[repr(align(64))]
#[derive(Default)]
struct Bucket([AtomicU64; WAYS]);

/// The hash bits kept in an entry to tell positions apart (the index takes the low ones).
const KEY_SHIFT: u32 = 40;

fn key_of(hash: u64) -> u64 {
    hash >> KEY_SHIFT
}

// Entry: score (16 bits) | depth (8) | bound (2) | generation (6) | move (8) | key (24).
// Bound 0 marks an empty entry.
#[inline]
fn pack(hash: u64, score: i32, depth: i32, bound: Bound, generation: u8, best: u8) -> u64 {
    let score = score.clamp(-32_000, 32_000) as i16 as u16 as u64;
    let depth = depth.clamp(-100, 100) as i8 as u8 as u64;
    let bound = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    score
        | depth << 16
        | bound << 24
        | u64::from(generation & 63) << 26
        | u64::from(best) << 32
        | key_of(hash) << KEY_SHIFT
}

#[inline]
fn unpack(data: u64) -> Option<Hit> {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Hit {
        score: i32::from(data as u16 as i16),
        depth: i32::from((data >> 16) as u8 as i8),
        bound,
        best: (data >> 32) as u8,
    })
}

/// True when `data` is a filled entry of the position with `hash`.
#[inline(always)]
fn holds(data: u64, hash: u64) -> bool {
    data >> KEY_SHIFT == key_of(hash) && (data >> 24) & 3 != 0
}

fn depth_of(data: u64) -> i32 {
    i32::from((data >> 16) as u8 as i8)
}

fn generation_of(data: u64) -> u8 {
    ((data >> 26) & 63) as u8
}

/// Ask the kernel to back the (not yet touched) table with huge pages: with 4 KB pages nearly
/// every probe of a large table also misses the address translation cache.
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        let bytes = buckets.capacity() * std::mem::size_of::<Bucket>();
        if bytes >= 4 << 20 {
            let start = buckets.as_ptr() as usize;
            let page = 4096;
            let aligned = (start + page - 1) & !(page - 1);
            let len = (start + bytes - aligned) & !(page - 1);
            // SAFETY: madvise only changes how the kernel backs this range, which lies inside
            // the allocation; a failure (e.g. huge pages disabled) changes nothing.
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buckets;
}

/// Buckets emptied between two looks at the flag that stops a clear (256 KB).
const CLEAR_CHUNK: usize = 4096;

/// A fixed-size table indexed by the low bits of the Zobrist hash.
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
    /// The first bucket a clear under way has not emptied yet (the table's length when none
    /// is): see [`Table::clear_later`].
    uncleared: AtomicUsize,
}

impl Table {
    /// A table of about `megabytes` MB (a power of two of 64-byte buckets, at least 16 KB), or
    /// the allocator's refusal when the memory cannot be had.
    pub(crate) fn try_new(megabytes: usize) -> Result<Table, std::collections::TryReserveError> {
        let wanted = (megabytes.clamp(1, 1 << 16) << 20) / std::mem::size_of::<Bucket>();
        let mut size = 256usize;
        while size * 2 <= wanted {
            size *= 2;
        }
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(size)?;
        advise_huge_pages(&buckets);
        buckets.resize_with(size, Bucket::default);
        Ok(Table {
            buckets,
            mask: size - 1,
            generation: 0,
            uncleared: AtomicUsize::new(size),
        })
    }

    /// Size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything.
    pub(crate) fn clear(&mut self) {
        self.clear_later();
        self.clear_pending(None);
    }

    /// Forget everything, the emptying itself left to [`Table::clear_pending`]. Until it is
    /// done the buckets not yet emptied still hold what earlier searches stored: true values of
    /// their positions, only not forgotten yet.
    pub(crate) fn clear_later(&mut self) {
        self.uncleared.store(0, Relaxed);
        self.generation = 0;
    }

    /// True while a clear is under way.
    pub(crate) fn is_clearing(&self) -> bool {
        self.uncleared.load(Relaxed) < self.buckets.len()
    }

    /// Go on with the clear under way: to the end, or until `halt` is raised (then the rest
    /// waits for the next call). Entries are single words, so a search may run beside it: it
    /// only ever reads an entry emptied, its own, or one not yet emptied.
    pub(crate) fn clear_pending(&self, halt: Option<&AtomicBool>) {
        let mut at = self.uncleared.load(Relaxed);
        while at < self.buckets.len() {
            if halt.is_some_and(|h| h.load(Relaxed)) {
                return;
            }
            let end = (at + CLEAR_CHUNK).min(self.buckets.len());
            for b in &self.buckets[at..end] {
                for e in &b.0 {
                    e.store(0, Relaxed);
                }
            }
            at = end;
            self.uncleared.store(at, Relaxed);
        }
    }

    /// Start a new search: older entries become preferred for replacement.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket {
        &self.buckets[hash as usize & self.mask]
    }

    /// Ask the processor to start loading the bucket of `hash` (no effect where unsupported).
    #[inline(always)]
    pub(crate) fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(hash) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; the address is that of a live bucket.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    #[inline(always)]
    pub(crate) fn probe(&self, hash: u64) -> Option<Hit> {
        let key = key_of(hash);
        for e in &self.bucket(hash).0 {
            let data = e.load(Relaxed);
            // A bucket fills from the front (see `store`): after an empty entry there is none.
            if data == 0 {
                return None;
            }
            if data >> KEY_SHIFT == key {
                return unpack(data);
            }
        }
        None
    }

    #[inline]
    pub(crate) fn store(&self, hash: u64, depth: i32, score: i32, bound: Bound, best: u8) {
        let generation = self.generation;
        let bucket = &self.bucket(hash).0;
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        // Entries are never emptied one by one, and an empty entry is always the victim (its
        // value is the lowest): a bucket's filled entries come first, and the first empty one
        // ends the search for the position (none is after it) and is the victim.
        for (i, e) in bucket.iter().enumerate() {
            let data = e.load(Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            if holds(data, hash) {
                // The same position: keep its move when the new result has none, and keep a
                // deeper exact result of this search over a shallower bound.
                if generation_of(data) == generation
                    && depth_of(data) > depth
                    && bound != Bound::Exact
                    && (data >> 24) & 3 == 1
                {
                    return;
                }
                let best = if best == NO_MOVE {
                    (data >> 32) as u8
                } else {
                    best
                };
                e.store(pack(hash, score, depth, bound, generation, best), Relaxed);
                return;
            }
            let value = if (data >> 24) & 3 == 0 {
                i32::MIN
            } else {
                let age = i32::from(generation.wrapping_sub(generation_of(data)) & 63);
                depth_of(data) - 8 * age
            };
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        bucket[victim].store(pack(hash, score, depth, bound, generation, best), Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut t = Table::try_new(1).unwrap();
        let h = 0xDEAD_BEEF_0000_0042;
        t.store(h, 5, -37, Bound::Lower, 3);
        let hit = t.probe(h).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.best),
            (-37, 5, Bound::Lower, 3)
        );
        assert!(t.probe(0xDEAE_BEEF_0000_0042).is_none(), "other key");
        assert!(t.probe(h ^ 1).is_none(), "other bucket");
        // Only the top 24 bits are checked beyond the index: bits in between cannot be
        // told apart (the price of 8-byte entries; a false hit is one in 16 million probes
        // per entry of a full bucket).
        assert!(t.probe(h ^ 1 << 30).is_some());
        // A result without a move keeps the stored move.
        t.store(h, 6, 12, Bound::Upper, NO_MOVE);
        assert_eq!(t.probe(h).unwrap().best, 3);
        t.clear();
        assert!(t.probe(h).is_none());
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        assert_eq!(t.bytes(), 1 << 20);
    }

    #[test]
    fn a_bucket_holds_eight_positions_and_replaces_the_shallowest() {
        let mut t = Table::try_new(1).unwrap();
        let stride = (t.mask as u64) + 1;
        // Same bucket, different key bits (the top 24).
        let keys: Vec<u64> = (1..=9).map(|i| 7 + (i << 40) + i * stride).collect();
        for (i, &k) in keys[..8].iter().enumerate() {
            t.store(k, 10 - i as i32, 1, Bound::Exact, 0);
        }
        for &k in &keys[..8] {
            assert!(t.probe(k).is_some());
        }
        t.store(keys[8], 9, 1, Bound::Exact, 0);
        assert!(t.probe(keys[7]).is_none(), "depth 3 was the shallowest");
        assert!(t.probe(keys[8]).is_some());
        // After a new search, old deep entries give way.
        t.new_search();
        t.store((100 << 40) + 100 * stride + 7, 1, 1, Bound::Exact, 0);
        assert_eq!(
            keys[..7]
                .iter()
                .chain(&keys[8..])
                .filter(|&&k| t.probe(k).is_some())
                .count(),
            7
        );
        // Scores and depths round trip through the packing, negative ones included.
        t.store(3, -2, -31_000, Bound::Upper, NO_MOVE);
        let hit = t.probe(3).unwrap();
        assert_eq!((hit.score, hit.depth, hit.best), (-31_000, -2, NO_MOVE));
    }
}
