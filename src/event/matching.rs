//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with dual variables,
//! O(n³)), following the structure of Joris van Rantwijk's well-known formulation: labels S/T,
//! blossoms as cycles of sub-blossoms, the four kinds of dual update. Weights are integers
//! (`i128`), so the Swiss pairing can encode its ordered criteria as one weight.
//!
//! Pure and deterministic: the same edges in the same order give the same matching.

/// Weight of an edge.
pub(super) type Weight = i128;

const NONE: usize = usize::MAX;

/// A maximum-weight matching of the graph on vertices `0..n` with `edges` (i, j, weight), no
/// loops, at most one edge per pair. Returns `mate[v]` (the vertex matched to `v`), or `None`.
pub(super) fn max_weight_matching(
    n: usize,
    edges: &[(usize, usize, Weight)],
) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges);
    m.solve();
    (0..n)
        .map(|v| (m.mate[v] != NONE).then(|| m.endpoint[m.mate[v]]))
        .collect()
}

struct Matcher<'a> {
    n: usize,
    edges: &'a [(usize, usize, Weight)],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<Weight>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<'a> Matcher<'a> {
    fn new(n: usize, edges: &'a [(usize, usize, Weight)]) -> Matcher<'a> {
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(0).max(0);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(0, n));
        Matcher {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> Weight {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - 2 * w
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.blossomchilds[t].iter().rev().copied());
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let l = self.leaves(b);
            self.queue.extend(l);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    #[allow(
        clippy::expect_used,
        reason = "the blossom algorithm keeps a free slot for every blossom it can form, and a child list holds the entry child"
    )]
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        for leaf in self.leaves(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[sub].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(sub)
                    .into_iter()
                    .map(|leaf| self.neighbend[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k2 in list {
                    let (mut i, mut j, _) = self.edges[k2];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k2) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k2;
                    }
                }
            }
            self.bestedge[sub] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k2| k2 != NONE).collect();
        self.bestedge[b] = NONE;
        for &k2 in &best {
            if self.bestedge[b] == NONE || self.slack(k2) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k2;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    #[allow(
        clippy::expect_used,
        reason = "the blossom algorithm keeps a free slot for every blossom it can form, and a child list holds the entry child"
    )]
    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| childs[j.rem_euclid(len) as usize];
            let endps = self.blossomendps[b].clone();
            let endp = |j: isize| endps[j.rem_euclid(len) as usize];
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let e1 = self.endpoint[p ^ 1];
                self.label[e1] = 0;
                let q = endp(j - endptrick as isize) ^ endptrick ^ 1;
                let e2 = self.endpoint[q];
                self.label[e2] = 0;
                self.assign_label(e1, 2, p);
                self.allowedge[endp(j - endptrick as isize) / 2] = true;
                j += jstep;
                p = endp(j - endptrick as isize) ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = at(j);
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(j) != entrychild {
                let bv = at(j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let found = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = found {
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let e = self.endpoint[mb];
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    #[allow(
        clippy::expect_used,
        reason = "the blossom algorithm keeps a free slot for every blossom it can form, and a child list holds the entry child"
    )]
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][j.rem_euclid(len) as usize];
            let p =
                self.blossomendps[b][(j - endptrick as isize).rem_euclid(len) as usize] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][j.rem_euclid(len) as usize];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i as usize);
        self.blossomendps[b].rotate_left(i as usize);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    /// Stages until no augmenting path is left: each labels the free vertices, grows
    /// alternating trees (updating the duals when stuck) until a path augments the matching,
    /// then expands the blossoms that are no longer needed.
    fn solve(&mut self) {
        for _ in 0..self.n {
            self.start_stage();
            if !self.augment() {
                break;
            }
            self.expand_spent_blossoms();
        }
    }

    /// Labels cleared, the free vertices labelled S (outer) and queued.
    fn start_stage(&mut self) {
        let n = self.n;
        self.label.iter_mut().for_each(|l| *l = 0);
        self.bestedge.iter_mut().for_each(|e| *e = NONE);
        for b in n..2 * n {
            self.blossombestedges[b] = None;
        }
        self.allowedge.iter_mut().for_each(|a| *a = false);
        self.queue.clear();
        for v in 0..n {
            if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                self.assign_label(v, 1, NONE);
            }
        }
    }

    /// Scan the queue and update the duals until a path augments the matching (true), or the
    /// duals show none is left (false).
    fn augment(&mut self) -> bool {
        loop {
            while let Some(v) = self.queue.pop() {
                if self.scan(v) {
                    return true;
                }
            }
            match self.dual_step() {
                Some(Delta::Edge(k)) => {
                    self.allowedge[k] = true;
                    let (mut i, j, _) = self.edges[k];
                    if self.label[self.inblossom[i]] == 0 {
                        i = j;
                    }
                    self.queue.push(i);
                }
                Some(Delta::Between(k)) => {
                    self.allowedge[k] = true;
                    let (i, _, _) = self.edges[k];
                    self.queue.push(i);
                }
                Some(Delta::Expand(b)) => self.expand_blossom(b, false),
                None => return false,
            }
        }
    }

    /// Scan the edges of the S-vertex `v`: label, make a blossom, or augment the matching
    /// (true); edges not yet tight are kept as each blossom's or vertex's best.
    fn scan(&mut self, v: usize) -> bool {
        for pi in 0..self.neighbend[v].len() {
            let p = self.neighbend[v][pi];
            let k = p / 2;
            let w = self.endpoint[p];
            if self.inblossom[v] == self.inblossom[w] {
                continue;
            }
            let mut kslack = 0;
            if !self.allowedge[k] {
                kslack = self.slack(k);
                if kslack <= 0 {
                    self.allowedge[k] = true;
                }
            }
            if self.allowedge[k] {
                if self.label[self.inblossom[w]] == 0 {
                    self.assign_label(w, 2, p ^ 1);
                } else if self.label[self.inblossom[w]] == 1 {
                    let base = self.scan_blossom(v, w);
                    if base == NONE {
                        self.augment_matching(k);
                        return true;
                    }
                    self.add_blossom(base, k);
                } else if self.label[w] == 0 {
                    self.label[w] = 2;
                    self.labelend[w] = p ^ 1;
                }
            } else if self.label[self.inblossom[w]] == 1 {
                let b = self.inblossom[v];
                if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                    self.bestedge[b] = k;
                }
            } else if self.label[w] == 0
                && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
            {
                self.bestedge[w] = k;
            }
        }
        false
    }

    /// No augmenting path with the current duals: change them by the largest amount that keeps
    /// them feasible, and say what that made possible (`None`: the optimum is reached).
    fn dual_step(&mut self) -> Option<Delta> {
        let (delta, what) = self.delta();
        let n = self.n;
        for v in 0..n {
            match self.label[self.inblossom[v]] {
                1 => self.dualvar[v] -= delta,
                2 => self.dualvar[v] += delta,
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                match self.label[b] {
                    1 => self.dualvar[b] += delta,
                    2 => self.dualvar[b] -= delta,
                    _ => {}
                }
            }
        }
        what
    }

    /// The dual change and what it makes possible: the smallest of a vertex dual, the slack of
    /// an edge from an S-vertex to a free one, half the slack of an edge between two S-blossoms,
    /// a T-blossom's dual.
    fn delta(&self) -> (Weight, Option<Delta>) {
        let n = self.n;
        let mut delta = self.dualvar[..n].iter().copied().min().unwrap_or(0);
        let mut what = None;
        for v in 0..n {
            if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                let d = self.slack(self.bestedge[v]);
                if d < delta {
                    delta = d;
                    what = Some(Delta::Edge(self.bestedge[v]));
                }
            }
        }
        for b in 0..2 * n {
            if self.blossomparent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                let d = self.slack(self.bestedge[b]) / 2;
                if d < delta {
                    delta = d;
                    what = Some(Delta::Between(self.bestedge[b]));
                }
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] != NONE
                && self.blossomparent[b] == NONE
                && self.label[b] == 2
                && self.dualvar[b] < delta
            {
                delta = self.dualvar[b];
                what = Some(Delta::Expand(b));
            }
        }
        (delta, what)
    }

    /// At the end of a stage: the S-blossoms whose dual fell to zero are expanded.
    fn expand_spent_blossoms(&mut self) {
        let n = self.n;
        for b in n..2 * n {
            if self.blossomparent[b] == NONE
                && self.blossombase[b] != NONE
                && self.label[b] == 1
                && self.dualvar[b] == 0
            {
                self.expand_blossom(b, true);
            }
        }
    }
}

/// What a dual update made possible.
#[derive(Clone, Copy)]
enum Delta {
    /// An edge from an S-vertex to a free vertex became tight.
    Edge(usize),
    /// An edge between two S-blossoms became tight.
    Between(usize),
    /// A T-blossom's dual fell to zero: it is expanded.
    Expand(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(edges: &[(usize, usize, Weight)], mate: &[Option<usize>]) -> Weight {
        edges
            .iter()
            .filter(|&&(i, j, _)| mate[i] == Some(j))
            .map(|e| e.2)
            .sum()
    }

    /// The best matching weight by trying everything (small graphs).
    fn brute(n: usize, edges: &[(usize, usize, Weight)]) -> Weight {
        fn go(v: usize, used: &mut Vec<bool>, n: usize, w: &[Vec<Option<Weight>>]) -> Weight {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, used, n, w);
            }
            used[v] = true;
            let mut best = go(v + 1, used, n, w);
            for u in v + 1..n {
                if !used[u]
                    && let Some(x) = w[v][u]
                {
                    used[u] = true;
                    best = best.max(x + go(v + 1, used, n, w));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        let mut w = vec![vec![None; n]; n];
        for &(i, j, x) in edges {
            w[i][j] = Some(x);
            w[j][i] = Some(x);
        }
        go(0, &mut vec![false; n], n, &w)
    }

    #[test]
    fn small_known_cases() {
        assert_eq!(max_weight_matching(2, &[(0, 1, 1)]), vec![Some(1), Some(0)]);
        // Path 0-1-2-3: the two outer edges beat the heavier middle one.
        let e = [(0, 1, 5), (1, 2, 8), (2, 3, 5)];
        let m = max_weight_matching(4, &e);
        assert_eq!(weight(&e, &m), 10);
        // A blossom: triangle plus a tail.
        let e = [(0, 1, 6), (1, 2, 6), (0, 2, 6), (2, 3, 7)];
        assert_eq!(weight(&e, &max_weight_matching(4, &e)), 13);
    }

    #[test]
    fn random_graphs_match_brute_force() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for case in 0..3000 {
            let n = rng.random_range(1..=10usize);
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.random_range(0..100) < 60 {
                        edges.push((i, j, rng.random_range(1..=20) as Weight));
                    }
                }
            }
            let m = max_weight_matching(n, &edges);
            for v in 0..n {
                if let Some(u) = m[v] {
                    assert_eq!(m[u], Some(v), "case {case}: not symmetric");
                    assert!(
                        edges
                            .iter()
                            .any(|&(i, j, _)| (i, j) == (u.min(v), u.max(v)))
                    );
                }
            }
            assert_eq!(
                weight(&edges, &m),
                brute(n, &edges),
                "case {case}: {edges:?}"
            );
        }
    }
}
