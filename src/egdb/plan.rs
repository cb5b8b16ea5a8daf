//! The build order: which slices are solved together, and in what order.
//!
//! A slice and its swapped material (the same pieces with the other side to move) are solved
//! together, since a quiet move leads from one to the other. Captures lead to slices with
//! fewer pieces; a man's crowning leads to a slice with one man fewer. So slices are solved by
//! number of pieces, then by number of men, and every slice a move can lead to out of a pair is
//! solved before it.

use super::index::{MAX_PIECES, Material};

/// Every material with exactly `pieces` pieces (each side at least one).
pub fn materials_with(pieces: u32) -> impl Iterator<Item = Material> {
    let p = pieces as u8;
    (1..p).flat_map(move |us| {
        let them = p - us;
        (0..=us).flat_map(move |um| {
            (0..=them).filter_map(move |tm| Material::new(um, us - um, tm, them - tm))
        })
    })
}

/// The slices to solve for databases of up to `max_pieces` pieces, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// One material per pair (its swap solved with it), in build order.
    pub pairs: Vec<Material>,
}

impl Plan {
    /// Every slice of the plan (both of each pair).
    pub fn slices(&self) -> impl Iterator<Item = Material> + '_ {
        self.pairs.iter().flat_map(|&m| {
            let s = m.swapped();
            std::iter::once(m).chain((s != m).then_some(s))
        })
    }

    /// Positions in all slices (unused indices included).
    pub fn positions(&self) -> u64 {
        self.slices().map(Material::size).sum()
    }

    /// Positions in one pair.
    pub fn pair_positions(m: Material) -> u64 {
        let s = m.swapped();
        m.size() + if s != m { s.size() } else { 0 }
    }
}

/// The build order for databases of up to `max_pieces` pieces (clamped to 2..=[`MAX_PIECES`]).
pub fn plan(max_pieces: u32) -> Plan {
    let mut pairs = Vec::new();
    for pieces in 2..=max_pieces.clamp(2, MAX_PIECES) {
        let mut group: Vec<Material> = materials_with(pieces)
            .filter(|m| *m <= m.swapped())
            .collect();
        group.sort_by_key(|m| (m.men(), *m));
        pairs.extend(group);
    }
    Plan { pairs }
}

/// The slices a pair's moves can lead to outside the pair (captures, crownings).
pub(super) fn dependencies(m: Material) -> Vec<Material> {
    let mut out = Vec::new();
    for side in [m, m.swapped()] {
        if side.us_men > 0
            && let Some(p) = Material::new(
                side.them_men,
                side.them_kings,
                side.us_men - 1,
                side.us_kings + 1,
            )
        {
            out.push(p);
        }
    }
    for pieces in 2..m.pieces() {
        out.extend(materials_with(pieces));
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_counts() {
        assert_eq!(materials_with(2).count(), 4);
        assert_eq!(materials_with(3).count(), 12);
        assert_eq!(materials_with(4).count(), 25);
        assert_eq!(materials_with(5).count(), 44);
        assert_eq!(plan(5).slices().count(), 4 + 12 + 25 + 44);
    }

    #[test]
    fn every_dependency_comes_first() {
        let p = plan(6);
        for (i, &m) in p.pairs.iter().enumerate() {
            let done: Vec<Material> = Plan {
                pairs: p.pairs[..i].to_vec(),
            }
            .slices()
            .collect();
            for d in dependencies(m) {
                assert!(done.contains(&d), "{m} needs {d} first");
            }
        }
    }
}
