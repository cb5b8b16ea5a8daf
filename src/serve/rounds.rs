//! The round's PDN, made once per change: every poll of a round (or a board's PDN) takes the
//! one made, with its ETag, until a file it was made from changes. At each poll the files'
//! own length and modification time are looked at (the database, its write-ahead log and the
//! match files of the round's boards), so an answer is never older than the files.
//!
//! A PDN is made of its boards' texts, and each board's text is kept while the database is
//! as it was and the board's match file reads as it did (the same read, kept while the file
//! keeps its length and modification time): a move on one board writes that board's games
//! again, not the round's. A board's games are kept once, as its text: the read of its file
//! hands its games over to the text ([`ReadMatch::take_pdn`]), and the PDN served is the
//! boards' texts themselves, one after the other, not a copy of them joined.

use super::view::{ReadMatch, Served, ViewError, read_match};
use super::watcher::{Stamp, db_files, stamps};
use crate::event::{Board, Division, Round, Tournament};
use axum::body::Bytes;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Which PDN: the round, and the division and board when one board's alone.
pub(super) type Key = (u32, Option<(usize, u32)>);

/// A PDN as made, its ETag, and the files it was made from as they were then.
pub(super) struct Made {
    /// The PDN in its parts: the boards' texts as kept (shared, not copied) and the line
    /// breaks between them.
    pub parts: Vec<Bytes>,
    pub etag: String,
    db: Vec<Stamp>,
    files: Vec<PathBuf>,
    stamps: Vec<Stamp>,
    /// Under a delay, the second of the cut it was made at.
    cut: Option<i64>,
}

impl Made {
    /// Whether the files it was made from are as they were (`db`: the database's now), and,
    /// under a delay, the cut in the same second (a record may have come within it since).
    fn current(&self, db: &[Stamp], cut: Option<i64>) -> bool {
        self.db == db && self.cut == cut && stamps(&self.files) == self.stamps
    }
}

type Slot = Arc<Mutex<Option<Arc<Made>>>>;

/// The PDNs made, one slot a key (a round that exists): the slot's lock makes the first poll
/// after a change make it and the others wait for it. And the boards' texts they were made
/// from.
#[derive(Default)]
pub(super) struct Rounds {
    made: Mutex<HashMap<Key, Slot>>,
    boards: Mutex<Boards>,
}

/// The boards' texts, kept while the database's files are as they were (`db`).
#[derive(Default)]
struct Boards {
    db: Vec<Stamp>,
    texts: Texts,
}

/// A board's PDN text, by the board's place (division, round and board, each by its index in
/// the event as read), with the read of its match file it was made from (`None`: it has none).
pub(super) type Texts = HashMap<(usize, usize, usize), (Option<Arc<ReadMatch>>, Bytes)>;

impl Rounds {
    /// The PDN of `key` as the files are now: the one made, or made now (from the event as
    /// read), kept when the round exists.
    pub(super) fn get(&self, s: &Served, key: Key) -> Result<Arc<Made>, ViewError> {
        let db = s.db.as_deref().map(db_files).unwrap_or_default();
        let db = stamps(&db);
        let cut = s.cut();
        let second = cut.map(|c| c.timestamp());
        let slot = self.slot(key);
        let mut held = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = held.as_ref().filter(|m| m.current(&db, second)) {
            return Ok(Arc::clone(m));
        }
        let t = match s.tournament() {
            Ok(t) => t,
            Err(e) => return Err(self.forget(key, e)),
        };
        let files = round_files(&t, key);
        let before = stamps(&files);
        let parts = match self.make(&t, key, &db, cut) {
            Ok(parts) => parts,
            Err(e) => return Err(self.forget(key, e)),
        };
        let made = Arc::new(Made {
            etag: super::routes::etag_of(&parts),
            parts,
            db,
            files,
            stamps: before,
            cut: second,
        });
        *held = Some(Arc::clone(&made));
        Ok(made)
    }

    /// The PDN of `key` from the boards' texts kept, those of boards whose match file changed
    /// made again (all of them when the database changed from `db`).
    fn make(
        &self,
        t: &Tournament,
        key: Key,
        db: &[Stamp],
        cut: Option<DateTime<Utc>>,
    ) -> Result<Vec<Bytes>, ViewError> {
        let mut boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        if boards.db != db {
            *boards = Boards {
                db: db.to_vec(),
                texts: Texts::new(),
            };
        }
        round_parts(t, key, &mut boards.texts, cut)
    }

    fn slot(&self, key: Key) -> Slot {
        let mut map = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(map.entry(key).or_default())
    }

    /// Keep nothing for a key that names no round (so that asking for many keeps nothing).
    fn forget(&self, key: Key, e: ViewError) -> ViewError {
        let mut map = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        map.remove(&key);
        e
    }
}

/// The PDN of round `round` of event `t` (of division `only` alone, and its board, when
/// given), as one text: [`round_parts`] joined.
pub(super) fn round_text(
    t: &Tournament,
    key: Key,
    texts: &mut Texts,
    cut: Option<DateTime<Utc>>,
) -> Result<String, ViewError> {
    let parts = round_parts(t, key, texts, cut)?;
    Ok(parts.iter().map(|p| String::from_utf8_lossy(p)).collect())
}

/// The PDN of round `round` of event `t` (of division `only` alone, and its board, when
/// given) in its parts: each division's boards' texts that are not empty, a line break
/// between two, the divisions one after the other. A board's text is taken from `texts`
/// while its match file reads as it did, else made and kept there.
pub(super) fn round_parts(
    t: &Tournament,
    (round, only): Key,
    texts: &mut Texts,
    cut: Option<DateTime<Utc>>,
) -> Result<Vec<Bytes>, ViewError> {
    let mut parts = Vec::new();
    let mut found = false;
    for (k, d) in t.divisions.iter().enumerate() {
        if only.is_some_and(|(dn, _)| dn != k + 1) || d.round(round).is_none() {
            continue;
        }
        found = true;
        let mut first = true;
        for (i, r) in d
            .rounds
            .iter()
            .enumerate()
            .filter(|(_, r)| r.number == round)
        {
            for (j, b) in r.boards.iter().enumerate() {
                if only.is_some_and(|(_, n)| n != b.number) {
                    continue;
                }
                let text = board_text(t, (d, r, b), (k, i, j), texts, cut);
                if text.is_empty() {
                    continue;
                }
                if !first {
                    parts.push(Bytes::from_static(b"\n"));
                }
                first = false;
                parts.push(text);
            }
        }
    }
    if !found {
        return Err(ViewError::NotFound(format!("no round {round}")));
    }
    Ok(parts)
}

/// The PDN text of board `b` of round `r` of division `d`, at `place`: the one kept while its
/// match file reads as it did, else made now (from the games the read hands over) and kept.
fn board_text(
    t: &Tournament,
    (d, r, b): (&Division, &Round, &Board),
    place: (usize, usize, usize),
    texts: &mut Texts,
    cut: Option<DateTime<Utc>>,
) -> Bytes {
    let read = b
        .match_file
        .as_deref()
        .map(|f| read_match(Path::new(f), cut));
    if let Some((_, kept)) = texts.get(&place).filter(|(was, _)| same(was, &read)) {
        return kept.clone();
    }
    let live = |_: &Board| read.as_ref().and_then(|m| m.take_pdn());
    let made = Bytes::from(crate::publish::board_pdn(t, d, r, b, &live));
    texts.insert(place, (read, made.clone()));
    made
}

/// Whether two reads of a match file are the same read (or both of a board without one).
fn same(a: &Option<Arc<ReadMatch>>, b: &Option<Arc<ReadMatch>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// The match files of the boards of the round of `key`, in every division.
fn round_files(t: &Tournament, (round, _): Key) -> Vec<PathBuf> {
    t.divisions
        .iter()
        .filter_map(|d| d.round(round))
        .flat_map(|r| &r.boards)
        .filter_map(|b| b.match_file.as_ref().map(PathBuf::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::director::{Command, Match, MatchSettings, Now, Player};
    use crate::engine::Color;
    use crate::event::{
        Action, DivisionSettings, PlayerInfo, draw_ballots, match_settings, propose,
    };
    use crate::store::MatchStore;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn now() -> Now {
        Now {
            mono_ms: 0,
            wall: chrono::Utc::now(),
        }
    }

    /// Round 1 of six players paired, its ballots drawn; boards 1 and 2 played on crossboard,
    /// their first games started, the matches and their files.
    fn event(dir: &Path, rng: &mut ChaCha8Rng) -> (Tournament, Vec<(Match, MatchStore)>) {
        let mut t = Tournament::new();
        let add = Action::AddDivision {
            name: "Open".into(),
            settings: DivisionSettings::default(),
        };
        t.apply(&add).unwrap();
        for (p, name) in (1..).zip(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]) {
            let info = PlayerInfo::named(name);
            t.apply(&Action::Enter {
                division: 0,
                player: p,
                info,
            })
            .unwrap();
        }
        t.apply(&propose(0, &t.divisions[0]).unwrap()).unwrap();
        t.apply(&draw_ballots(0, &t.divisions[0], 1, rng).unwrap())
            .unwrap();
        let mut played = Vec::new();
        for board in [1, 2] {
            let d = &t.divisions[0];
            let b = &d.rounds[0].boards[board as usize - 1];
            let s = match_settings(&MatchSettings::default(), "Club", d, 1, b).unwrap();
            let file = dir.join(format!("board{board}.jsonl"));
            let mut m = Match::new(s, now()).unwrap();
            let mut store = MatchStore::create(&file, &m).unwrap();
            let colour = Command::AssignColour {
                player: Player::First,
                colour: Color::Red,
            };
            for c in [colour, Command::DrawBallot, Command::StartGame] {
                m.apply(c, now(), rng).unwrap();
            }
            store.save(&m).unwrap();
            let file = file.display().to_string();
            let link = Action::LinkMatch {
                division: 0,
                round: 1,
                board,
                file,
            };
            t.apply(&link).unwrap();
            played.push((m, store));
        }
        (t, played)
    }

    /// The round's PDN as each division's was written whole, every game formatted again.
    fn whole(t: &Tournament) -> String {
        let live = |b: &Board| {
            let f = b.match_file.as_deref()?;
            read_match(Path::new(f), None).take_pdn()
        };
        let d = &t.divisions[0];
        crate::publish::pdn_with(t, d, Some(1), None, &live).text
    }

    #[test]
    fn a_round_made_from_kept_board_texts_is_the_one_made_whole_after_a_board_moves() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (t, mut played) = event(dir.path(), &mut rng);
        let mut kept = Texts::new();
        let first = round_text(&t, (1, None), &mut kept, None).unwrap();
        assert_eq!(first, whole(&t));
        // Board 3, not begun and without a match file, has no game.
        assert_eq!(first.matches("[Round \"1.").count(), 2, "{first}");
        assert_eq!(kept.len(), 3, "every board's text kept");
        let board1 = kept[&(0, 0, 0)].1.clone();
        // Board 2 moves: its file changes, and the round made from the texts kept has it.
        let (m, store) = &mut played[1];
        let pos = *m.playing().unwrap().game.position();
        let mv = pos.legal_moves()[0];
        let play = Command::PlayMove {
            colour: pos.turn(),
            mv,
        };
        m.apply(play, now(), &mut rng).unwrap();
        store.save(m).unwrap();
        let after = round_text(&t, (1, None), &mut kept, None).unwrap();
        assert_ne!(
            after, first,
            "board 2's move is served, not its text as kept"
        );
        assert!(after.contains(&format!("1. {mv}")), "{after}");
        assert_eq!(after, whole(&t));
        assert_eq!(
            board1.as_ptr(),
            kept[&(0, 0, 0)].1.as_ptr(),
            "board 1 not written again"
        );
        assert_eq!(
            after,
            round_text(&t, (1, None), &mut Texts::new(), None).unwrap()
        );
        // A board's own PDN is its text as kept.
        let alone = round_text(&t, (1, Some((1, 2))), &mut kept, None).unwrap();
        let d = &t.divisions[0];
        let live =
            |_: &Board| read_match(Path::new(&dir.path().join("board2.jsonl")), None).take_pdn();
        assert_eq!(
            alone,
            crate::publish::pdn_with(&t, d, Some(1), Some(2), &live).text
        );
    }

    #[test]
    fn a_boards_games_are_kept_once_as_its_text_and_the_round_is_made_of_those_texts() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (t, played) = event(dir.path(), &mut rng);
        let mut kept = Texts::new();
        let parts = round_parts(&t, (1, None), &mut kept, None).unwrap();
        for (k, (m, _)) in played.iter().enumerate() {
            let file = dir.path().join(format!("board{}.jsonl", k + 1));
            let read = read_match(&file, None);
            let (was, text) = &kept[&(0, 0, k)];
            assert!(Arc::ptr_eq(was.as_ref().unwrap(), &read), "the same read");
            // The read keeps what a card shows and not the games the text was made from.
            assert!(!read.holds_pdn(), "board {}'s games kept twice", k + 1);
            assert_eq!(read.view.games.len(), 1);
            assert_eq!(read.view.records, m.log().len());
            // The round's parts are the boards' texts themselves, not copies.
            assert!(
                parts.iter().any(|p| p.as_ptr() == text.as_ptr()),
                "board {}'s text copied into the round's",
                k + 1
            );
        }
        let joined: usize = parts.iter().map(Bytes::len).sum();
        let texts: usize = kept.values().map(|(_, text)| text.len()).sum();
        assert_eq!(
            joined,
            texts + 1,
            "the texts and one line break between them"
        );
        // Made again with nothing kept (the database changed), the text is the same: the
        // games handed over are read again from the file.
        let again = round_text(&t, (1, None), &mut Texts::new(), None).unwrap();
        assert_eq!(again, round_text(&t, (1, None), &mut kept, None).unwrap());
        assert_eq!(again, whole(&t));
    }
}
