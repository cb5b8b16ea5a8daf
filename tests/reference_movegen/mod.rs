//! The independent reference for the perft tests (tests/engine/perft.rs, tests/engine/variants.rs):
//! an 8x8 array board and coordinates, written from the rules texts; nothing shared with the
//! engine but FEN text.
#![allow(dead_code)] // each test uses the games it checks

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Game {
    /// English draughts: men one step forward, kings one step; capture compulsory, every
    /// route counted (a king's loop both ways), crowning ends the move.
    English,
    Pool,
    Huffing,
    /// Russian draughts: pool's moves, except that a man reaching the king row in a
    /// capture is crowned at once and goes on capturing as a flying king. Only here to
    /// show that the engine follows rule 24 where the two differ.
    Russian,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Man {
    pub red: bool,
    pub king: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    pub cells: [[Option<Man>; 8]; 8],
    pub red_to_move: bool,
}

const DIRS: [(i32, i32); 4] = [(1, -1), (1, 1), (-1, -1), (-1, 1)];

fn coords(n: u32) -> (usize, usize) {
    let row = (n - 1) / 4;
    let col = 2 * ((n - 1) % 4) + if row.is_multiple_of(2) { 1 } else { 0 };
    (row as usize, col as usize)
}

/// A minimal FEN reader (no ranges): `B:W18,K24:B1,2`.
pub fn from_fen(fen: &str) -> Board {
    let mut parts = fen.split(':');
    let red_to_move = parts.next() == Some("B");
    let mut b = Board {
        cells: [[None; 8]; 8],
        red_to_move,
    };
    for block in parts {
        let red = block.starts_with('B');
        for item in block[1..].split(',').filter(|s| !s.is_empty()) {
            let king = item.starts_with('K');
            let n: u32 = item.trim_start_matches('K').parse().unwrap();
            let (r, c) = coords(n);
            b.cells[r][c] = Some(Man { red, king });
        }
    }
    b
}

fn inside(r: i32, c: i32) -> bool {
    (0..8).contains(&r) && (0..8).contains(&c)
}

fn last_row(red: bool) -> usize {
    if red { 7 } else { 0 }
}

fn at(b: &Board, r: i32, c: i32) -> Option<Man> {
    b.cells[r as usize][c as usize]
}

type Cell = (i32, i32);

/// A move as the reference sees it: where the piece ends and what it took.
struct Step {
    to: (i32, i32),
    taken: Vec<(i32, i32)>,
    /// Crowned on the way (Russian rules only).
    crowned: bool,
}

fn finish(b: &Board, from: (i32, i32), s: &Step) -> Board {
    let mut next = b.clone();
    let man = at(b, from.0, from.1).unwrap();
    next.cells[from.0 as usize][from.1 as usize] = None;
    for &(r, c) in &s.taken {
        next.cells[r as usize][c as usize] = None;
    }
    let king = man.king || s.crowned || s.to.0 as usize == last_row(man.red);
    next.cells[s.to.0 as usize][s.to.1 as usize] = Some(Man { king, ..man });
    next.red_to_move = !b.red_to_move;
    next
}

/// Pool rules 14-24: the captures a piece standing on `here` can make next. `b` still shows
/// every piece (captured ones stay until the move ends), except that the mover's start
/// square is empty. Each entry: the enemy piece taken, and the squares it may land on.
fn pool_jumps(
    b: &Board,
    man: Man,
    here: (i32, i32),
    taken: &[(i32, i32)],
) -> Vec<(Cell, Vec<Cell>)> {
    let mut out = Vec::new();
    for (dr, dc) in DIRS {
        // Walk to the first piece on the diagonal (a man only looks at its neighbour).
        let (mut r, mut c) = (here.0 + dr, here.1 + dc);
        if man.king {
            while inside(r, c) && at(b, r, c).is_none() {
                r += dr;
                c += dc;
            }
        }
        if !inside(r, c) {
            continue;
        }
        let Some(victim) = at(b, r, c) else { continue };
        if victim.red == man.red || taken.contains(&(r, c)) {
            continue;
        }
        let mut lands = Vec::new();
        let (mut lr, mut lc) = (r + dr, c + dc);
        while inside(lr, lc) && at(b, lr, lc).is_none() {
            lands.push((lr, lc));
            if !man.king {
                break;
            }
            lr += dr;
            lc += dc;
        }
        if !lands.is_empty() {
            out.push(((r, c), lands));
        }
    }
    out
}

/// Every complete pool capture from `here`: "a complete jump is all checkers under the
/// range of fire", so after a capture the piece goes on whenever it can (a king choosing a
/// landing square from which it can), and a man crossing the king row stays a man. With
/// `russian`, a man landing on the king row is a king from there on.
fn pool_captures(
    b: &Board,
    man: Man,
    here: (i32, i32),
    taken: &mut Vec<(i32, i32)>,
    russian: bool,
    out: &mut Vec<Step>,
) {
    for (victim, lands) in pool_jumps(b, man, here, taken) {
        taken.push(victim);
        let as_of = |l: (i32, i32)| Man {
            king: man.king || (russian && l.0 as usize == last_row(man.red)),
            ..man
        };
        let onward: Vec<(i32, i32)> = lands
            .iter()
            .copied()
            .filter(|&l| !pool_jumps(b, as_of(l), l, taken).is_empty())
            .collect();
        if onward.is_empty() {
            for l in lands {
                out.push(Step {
                    to: l,
                    taken: taken.clone(),
                    crowned: false,
                });
            }
        } else {
            for l in onward {
                let before = out.len();
                pool_captures(b, as_of(l), l, taken, russian, out);
                if as_of(l).king && !man.king {
                    for s in &mut out[before..] {
                        s.crowned = true;
                    }
                }
            }
        }
        taken.pop();
    }
}

/// English jumps (men forward only, over a neighbour; crowning ends the move). With
/// `stop_anywhere` (huffing) every capture is also a move when stopped after any jump.
fn english_captures(
    b: &Board,
    man: Man,
    here: (i32, i32),
    taken: &mut Vec<(i32, i32)>,
    stop_anywhere: bool,
    out: &mut Vec<Step>,
) {
    let fwd = if man.red { 1 } else { -1 };
    let mut went_on = false;
    for (dr, dc) in DIRS {
        if !man.king && dr != fwd {
            continue;
        }
        let (or, oc, lr, lc) = (here.0 + dr, here.1 + dc, here.0 + 2 * dr, here.1 + 2 * dc);
        if !inside(lr, lc) || at(b, lr, lc).is_some() || taken.contains(&(or, oc)) {
            continue;
        }
        if !matches!(at(b, or, oc), Some(v) if v.red != man.red) {
            continue;
        }
        went_on = true;
        taken.push((or, oc));
        let crowned = !man.king && lr as usize == last_row(man.red);
        if crowned || stop_anywhere {
            out.push(Step {
                to: (lr, lc),
                taken: taken.clone(),
                crowned: false,
            });
        }
        if !crowned {
            english_captures(b, man, (lr, lc), taken, stop_anywhere, out);
        }
        taken.pop();
    }
    if !went_on && !taken.is_empty() && !stop_anywhere {
        out.push(Step {
            to: here,
            taken: taken.clone(),
            crowned: false,
        });
    }
}

/// Every successor: pool merges routes with the same result (its perft convention),
/// huffing counts every route and every capture stopped short, and lets any piece step.
pub fn successors(b: &Board, game: Game) -> Vec<Board> {
    let mut captures = Vec::new();
    let mut steps = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            let Some(man) = b.cells[r][c] else { continue };
            if man.red != b.red_to_move {
                continue;
            }
            let from = (r as i32, c as i32);
            let mut lifted = b.clone();
            lifted.cells[r][c] = None;
            let mut found = Vec::new();
            match game {
                Game::Pool | Game::Russian => {
                    let russian = game == Game::Russian;
                    pool_captures(&lifted, man, from, &mut Vec::new(), russian, &mut found)
                }
                Game::English | Game::Huffing => {
                    let huffing = game == Game::Huffing;
                    english_captures(&lifted, man, from, &mut Vec::new(), huffing, &mut found)
                }
            }
            captures.extend(found.iter().map(|s| finish(b, from, s)));
            let fwd = if man.red { 1 } else { -1 };
            for (dr, dc) in DIRS {
                if !man.king && dr != fwd {
                    continue;
                }
                let (mut nr, mut nc) = (from.0 + dr, from.1 + dc);
                while inside(nr, nc) && at(b, nr, nc).is_none() {
                    let s = Step {
                        to: (nr, nc),
                        taken: Vec::new(),
                        crowned: false,
                    };
                    steps.push(finish(b, from, &s));
                    if !(man.king && matches!(game, Game::Pool | Game::Russian)) {
                        break;
                    }
                    nr += dr;
                    nc += dc;
                }
            }
        }
    }
    match game {
        Game::Pool | Game::Russian if !captures.is_empty() => {
            let mut unique: Vec<Board> = Vec::new();
            for n in captures {
                if !unique.contains(&n) {
                    unique.push(n);
                }
            }
            unique
        }
        Game::Pool | Game::Russian => steps,
        Game::English if captures.is_empty() => steps,
        Game::English => captures,
        Game::Huffing => {
            steps.extend(captures);
            steps
        }
    }
}

pub fn perft(b: &Board, game: Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    successors(b, game)
        .iter()
        .map(|n| perft(n, game, depth - 1))
        .sum()
}
