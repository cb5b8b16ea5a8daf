//! An entry list imported at the desk (`I`): the file's path asked, the list checked and its
//! first problem shown (nothing imported), or its summary shown and the import confirmed.

use super::DeskScreen;
use super::ask::Ask;
use crate::event::EntryList;

impl DeskScreen {
    /// The entry list at `path` read and checked for the current division: a problem is
    /// shown and nothing is imported; a clean list asks to be confirmed.
    pub(super) fn check_entry_list(&mut self, path: &str) {
        let (Some(desk), Some(open)) = (&self.desk, &self.open) else {
            return;
        };
        let path = std::path::Path::new(path);
        let list = match crate::store::read_entry_file(desk, path, None, open, self.division) {
            Ok(list) => list,
            Err(e) => {
                self.status = e;
                return;
            }
        };
        let report = list.report();
        if list.problems() > 0 {
            let first = list.findings.iter().position(|f| f.refuses).unwrap_or(0);
            self.status = format!(
                "nothing imported: {} problem(s), the first: {} (all of them: crossboard \
                 event import --dry-run)",
                list.problems(),
                report.get(first).map_or("", String::as_str)
            );
            return;
        }
        let notes = match report.len() {
            0 => String::new(),
            n => format!("; {n} note(s), the first: {}", report[0]),
        };
        self.status = format!("{}{notes}", list.summary());
        self.ask = Some((Ask::ImportConfirm(Box::new(list)), String::new()));
    }

    /// The answer `text` to the import of `list`: on `y`, its players entered, all or none.
    pub(super) fn import_list(&mut self, list: &EntryList, text: &str) {
        if !matches!(text.to_ascii_lowercase().as_str(), "y" | "yes") {
            self.status = "nothing imported".into();
            return;
        }
        let (Some(desk), Some(open)) = (self.desk.as_mut(), self.open.as_mut()) else {
            return;
        };
        let late = match open.event.divisions[self.division].paired_rounds() {
            0 => String::new(),
            r => format!(", late entries from round {}", r + 1),
        };
        match desk.import_players(open, self.division, list, chrono::Utc::now()) {
            Ok(ids) => {
                let new = list
                    .players
                    .iter()
                    .filter(|p| p.registered.is_none())
                    .count();
                self.status = format!(
                    "recorded: {} player(s) entered ({new} registered){late}",
                    ids.len()
                );
            }
            Err(e) => self.status = e.to_string(),
        }
    }
}
