//! An entry list imported into a division (`event import`, the desk's `I`): the file read,
//! checked by [`crate::event::read_entry_list`], and its players entered in one transaction.

use super::eventdb::{Desk, DeskError, Entrant, OpenEvent};
use crate::event::{EntryList, PlayerId, read_entry_list};
use chrono::{DateTime, Utc};
use std::io::Read;
use std::path::Path;

/// The largest entry list read (a list of a thousand players is a few dozen kilobytes).
const MAX_LIST_BYTES: u64 = 4 << 20;

/// The entry list at `path` read and checked for division `division` of `open` against the
/// desk's registry (`delimiter`: given, or sniffed from the header). An unreadable file is an
/// error naming it; what the list holds is in the report.
pub fn read_entry_file(
    desk: &Desk,
    path: &Path,
    delimiter: Option<u8>,
    open: &OpenEvent,
    division: usize,
) -> Result<EntryList, String> {
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| named(&e))?;
    let mut bytes = Vec::new();
    file.take(MAX_LIST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| named(&e))?;
    if bytes.len() as u64 > MAX_LIST_BYTES {
        return Err(named(&format!(
            "over {} MiB: not an entry list",
            MAX_LIST_BYTES >> 20
        )));
    }
    let registry = desk.players().map_err(|e| e.to_string())?;
    let name = path.display().to_string();
    Ok(read_entry_list(
        &name,
        &bytes,
        delimiter,
        &registry,
        &open.event,
        division,
    ))
}

impl Desk {
    /// The players of a checked entry list entered in `division`, the new ones registered:
    /// one transaction, so all are entered or none. Refused when the list has a problem.
    pub fn import_players(
        &mut self,
        open: &mut OpenEvent,
        division: usize,
        list: &EntryList,
        at: DateTime<Utc>,
    ) -> Result<Vec<PlayerId>, DeskError> {
        if list.problems() > 0 {
            return Err(DeskError::ListRefused {
                file: list.file.clone(),
                problems: list.problems(),
            });
        }
        let entries: Vec<Entrant> = list
            .players
            .iter()
            .map(|p| match p.registered {
                Some(id) => Entrant::Registered(id, p.info.clone()),
                None => Entrant::New(p.info.clone()),
            })
            .collect();
        self.enter_players(open, division, &entries, at)
    }
}
