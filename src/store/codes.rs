//! The boards' short codes: what a director reads aloud or a player types on a board's laptop
//! in place of its 32-digit token. A board's code is derived, never stored: the first 40 bits
//! of SHA-256 over the desk's secret key and the board (`EVENT/D/R/B`, as a token's board is
//! named), written as 8 characters of Crockford's base 32 in two groups (`K7QM-3XF0`). The
//! key is made once, at random, the first time the desk needs a code, and kept in
//! `NAME.codes` beside the database (256 bits as 64 hexadecimal digits): so the desk prints
//! the same code for a board every time, and only a desk holding the key can make or check one.
//!
//! Crockford's alphabet has no look-alikes (no I, L, O or U); a code is read leniently: any
//! case, with or without the dash or spaces, an O read as 0 and an I or L as 1.

use crate::director::Player;
use crate::event::Tournament;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The 32 characters of a code.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in a code.
pub const CODE_LEN: usize = 8;

/// The desk's key, that makes and checks the boards' codes.
#[derive(Clone)]
pub struct BoardCodes {
    key: [u8; 32],
}

impl std::fmt::Debug for BoardCodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BoardCodes(..)")
    }
}

/// Where the key of the codes of `db`'s boards is kept.
pub fn codes_path(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".codes");
    db.with_file_name(name)
}

impl BoardCodes {
    /// The codes of the desk whose database is `db`: its key, made now if it has none.
    pub fn of_desk(db: &Path) -> io::Result<BoardCodes> {
        let path = codes_path(db);
        match read_key(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            other => return other,
        }
        let key: [u8; 32] = rand::random();
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        match super::atomic::open_regular(&mut options, &path) {
            Ok(mut f) => {
                f.write_all(hex(&key).as_bytes())?;
                f.sync_all()?;
                Ok(BoardCodes { key })
            }
            // Made meanwhile by another of the desk's programs: that one is the key.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => read_key(&path),
            Err(e) => Err(e),
        }
    }

    /// The codes of the desk whose database is `db`, if it has made their key (nothing is
    /// made: for a screen that only shows them).
    pub fn made(db: &Path) -> Option<BoardCodes> {
        read_key(&codes_path(db)).ok()
    }

    /// The code of board `b` of round `r` of division `d` (from 1) of `event`: `K7QM-3XF0`.
    pub fn code(&self, event: &str, d: usize, r: u32, b: u32) -> String {
        self.code_of(&format!("{event}/{d}/{r}/{b}"))
    }

    /// The code of each board of round `round` of division `d` (from 1) of `event`, by board.
    pub fn of_round(&self, event: &Tournament, d: usize, round: u32) -> BTreeMap<u32, String> {
        let boards = d
            .checked_sub(1)
            .and_then(|k| event.divisions.get(k))
            .and_then(|division| division.round(round))
            .map_or(&[][..], |r| &r.boards[..]);
        boards
            .iter()
            .map(|b| (b.number, self.code(&event.info.name, d, round, b.number)))
            .collect()
    }

    /// The floor code of `side`'s player on board `b` of round `r` of division `d` (from 1)
    /// of `event`: what that player types to enter or confirm the board's result from a phone.
    /// Derived as a board's code is, from another name (`floor/EVENT/D/R/B/first`), so it is
    /// neither the board's code nor the opponent's, and says nothing of them.
    pub fn floor_code(&self, event: &str, d: usize, r: u32, b: u32, side: Player) -> String {
        let side = match side {
            Player::First => "first",
            Player::Second => "second",
        };
        self.code_of(&format!("floor/{event}/{d}/{r}/{b}/{side}"))
    }

    /// The board and side whose floor code is `code` (as [`read_code`] writes it), of every
    /// board of `event`: division (from 1), round, board, side.
    pub fn floor_board(&self, event: &Tournament, code: &str) -> Option<FloorSeat> {
        let name = &event.info.name;
        event
            .divisions
            .iter()
            .enumerate()
            .find_map(|(k, division)| {
                division.rounds.iter().find_map(|round| {
                    round.boards.iter().find_map(|b| {
                        [Player::First, Player::Second]
                            .into_iter()
                            .find_map(|side| {
                                let mine =
                                    self.floor_code(name, k + 1, round.number, b.number, side);
                                (mine == code).then_some(FloorSeat {
                                    division: k + 1,
                                    round: round.number,
                                    board: b.number,
                                    side,
                                })
                            })
                    })
                })
            })
    }

    /// The code of the board named `board` (`EVENT/D/R/B`).
    pub fn code_of(&self, board: &str) -> String {
        let mut h = Sha256::new();
        h.update(self.key);
        h.update(board.as_bytes());
        let digest = h.finalize();
        let bits = digest
            .iter()
            .take(5)
            .fold(0u64, |acc, &byte| (acc << 8) | u64::from(byte));
        let chars: String = (0..CODE_LEN)
            .rev()
            .map(|k| char::from(ALPHABET[((bits >> (5 * k)) & 31) as usize]))
            .collect();
        format!("{}-{}", &chars[..4], &chars[4..])
    }
}

/// A player's seat a floor code opens: division (from 1), round, board, side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloorSeat {
    /// The division, from 1.
    pub division: usize,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// Whose code it is.
    pub side: Player,
}

/// `text` read as a board's code (see the module documentation), in its written form
/// (`K7QM-3XF0`); `None` when it is not one.
pub fn read_code(text: &str) -> Option<String> {
    let chars: Vec<u8> = text
        .trim()
        .bytes()
        .filter(|c| !matches!(c, b'-' | b' '))
        .map(|c| match c.to_ascii_uppercase() {
            b'O' => b'0',
            b'I' | b'L' => b'1',
            c => c,
        })
        .collect();
    if chars.len() != CODE_LEN || !chars.iter().all(|c| ALPHABET.contains(c)) {
        return None;
    }
    let chars = String::from_utf8(chars).ok()?;
    Some(format!("{}-{}", &chars[..4], &chars[4..]))
}

fn read_key(path: &Path) -> io::Result<BoardCodes> {
    let mut text = String::new();
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    super::atomic::open_regular(&mut options, path)?.read_to_string(&mut text)?;
    let bad = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: not the key of the boards' codes (64 hexadecimal digits)",
                path.display()
            ),
        )
    };
    let text = text.trim();
    if text.len() != 64 || !text.is_ascii() {
        return Err(bad());
    }
    let mut key = [0u8; 32];
    for (k, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * k..2 * k + 2], 16).map_err(|_| bad())?;
    }
    Ok(BoardCodes { key })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_made_once_and_read_leniently() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("desk.sqlite3");
        let codes = BoardCodes::of_desk(&db).unwrap();
        let code = codes.code("Open", 1, 2, 3);
        assert_eq!(code.len(), CODE_LEN + 1);
        assert_eq!(read_code(&code).as_deref(), Some(code.as_str()));
        // The same key read again: the same codes; another board, another code.
        let again = BoardCodes::of_desk(&db).unwrap();
        assert_eq!(again.code("Open", 1, 2, 3), code);
        assert_ne!(again.code("Open", 1, 2, 4), code);
        assert_ne!(again.code("Open", 1, 3, 3), code);
        // Another desk: another key.
        // The players' floor codes: each its own, none the board's.
        let first = codes.floor_code("Open", 1, 2, 3, Player::First);
        let second = codes.floor_code("Open", 1, 2, 3, Player::Second);
        assert_eq!(read_code(&first).as_deref(), Some(first.as_str()));
        assert!(first != second && first != code && second != code);
        assert_ne!(codes.floor_code("Open", 1, 2, 4, Player::First), first);
        let other = BoardCodes::of_desk(&dir.path().join("other.sqlite3")).unwrap();
        assert_ne!(other.code("Open", 1, 2, 3), code);
        let typed = code.to_lowercase().replace('-', " ");
        assert_eq!(read_code(&typed).as_deref(), Some(code.as_str()));
        assert_eq!(read_code("k7qm-oil2").as_deref(), Some("K7QM-0112"));
        for bad in [
            "K7QM-3XF",
            "K7QM-3XF00",
            "K7QU-3XF0",
            "",
            "0123456789abcdef",
        ] {
            assert_eq!(read_code(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_damaged_key_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("desk.sqlite3");
        std::fs::write(codes_path(&db), "not a key").unwrap();
        let e = BoardCodes::of_desk(&db).unwrap_err().to_string();
        assert!(e.contains("desk.sqlite3.codes: not the key"), "{e}");
    }
}
