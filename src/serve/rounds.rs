//! The round's PDN, made once per change: every poll of a round (or a board's PDN) takes the
//! one made, with its ETag, until a file it was made from changes. At each poll the files'
//! own length and modification time are looked at (the database, its write-ahead log and the
//! match files of the round's boards), so an answer is never older than the files.

use super::view::{Source, ViewError};
use super::watcher::{Stamp, db_files, stamps};
use axum::body::Bytes;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

/// Which PDN: the round, and the division and board when one board's alone.
pub(super) type Key = (u32, Option<(usize, u32)>);

/// A PDN as made, its ETag, and the files it was made from as they were then.
pub(super) struct Made {
    pub text: Bytes,
    pub etag: String,
    db: Vec<Stamp>,
    files: Vec<PathBuf>,
    stamps: Vec<Stamp>,
}

impl Made {
    /// Whether the files it was made from are as they were (`db`: the database's now).
    fn current(&self, db: &[Stamp]) -> bool {
        self.db == db && stamps(&self.files) == self.stamps
    }
}

type Slot = Arc<Mutex<Option<Arc<Made>>>>;

/// The PDNs made, one slot a key (a round that exists): the slot's lock makes the first poll
/// after a change make it and the others wait for it.
#[derive(Default)]
pub(super) struct Rounds(Mutex<HashMap<Key, Slot>>);

impl Rounds {
    /// The PDN of `key` as the files are now: the one made, or made now with `make` (the
    /// text, from the event as read), kept when the round exists.
    pub(super) fn get(
        &self,
        s: &Source,
        key: Key,
        make: impl FnOnce(&crate::event::Tournament) -> Result<String, ViewError>,
    ) -> Result<Arc<Made>, ViewError> {
        let db = s.db.as_deref().map(db_files).unwrap_or_default();
        let db = stamps(&db);
        let slot = self.slot(key);
        let mut held = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = held.as_ref().filter(|m| m.current(&db)) {
            return Ok(Arc::clone(m));
        }
        let t = match s.tournament() {
            Ok(t) => t,
            Err(e) => return Err(self.forget(key, e)),
        };
        let files = round_files(&t, key);
        let before = stamps(&files);
        let text = match make(&t) {
            Ok(text) => text,
            Err(e) => return Err(self.forget(key, e)),
        };
        let made = Arc::new(Made {
            etag: super::routes::etag(&text),
            text: Bytes::from(text),
            db,
            files,
            stamps: before,
        });
        *held = Some(Arc::clone(&made));
        Ok(made)
    }

    fn slot(&self, key: Key) -> Slot {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(map.entry(key).or_default())
    }

    /// Keep nothing for a key that names no round (so that asking for many keeps nothing).
    fn forget(&self, key: Key, e: ViewError) -> ViewError {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        map.remove(&key);
        e
    }
}

/// The match files of the boards of the round of `key`, in every division.
fn round_files(t: &crate::event::Tournament, (round, _): Key) -> Vec<PathBuf> {
    t.divisions
        .iter()
        .filter_map(|d| d.round(round))
        .flat_map(|r| &r.boards)
        .filter_map(|b| b.match_file.as_ref().map(PathBuf::from))
        .collect()
}
