//! The way out when the `--match` file already exists: open the match it holds, or save the
//! new match under a free name beside it.

use super::{FieldId, MatchSetupScreen};
use crate::tui::keys::{Binding, Key};
use crate::tui::match_flow::resume::reopen;
use crate::tui::screens::{Ctx, Nav};

/// What the keys do when the `--match` file already exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileAct {
    /// Open the match it holds.
    Open,
    /// Start the new match under a free name beside it.
    Rename,
}

/// The keys offered when the `--match` file already exists.
pub(crate) static FILE_KEYS: &[Binding<FileAct>] = &[
    Binding::new(
        &[Key::Ctrl('o')],
        FileAct::Open,
        "the --match file exists: open the match it holds",
    ),
    Binding::new(
        &[Key::Ctrl('n')],
        FileAct::Rename,
        "the --match file exists: save the new match as NAME-2 beside it",
    ),
];

impl MatchSetupScreen {
    /// The `--match` file when it already exists (a new match is not written over it).
    pub(super) fn existing_file(&self) -> Option<&std::path::Path> {
        self.options
            .file
            .as_deref()
            .filter(|f| !self.options.start_over && f.exists())
    }

    /// A free name beside the existing `--match` file: `NAME-2.EXT`, `NAME-3.EXT`, ...
    pub(super) fn free_name(&self) -> Option<std::path::PathBuf> {
        let f = self.existing_file()?;
        let stem = f.file_stem()?.to_string_lossy().into_owned();
        let ext = f
            .extension()
            .map(|e| format!(".{}", e.to_string_lossy()))
            .unwrap_or_default();
        (2..1000)
            .map(|n| f.with_file_name(format!("{stem}-{n}{ext}")))
            .find(|p| !p.exists())
    }

    /// The way out when the `--match` file exists: open it, or start under a free name.
    pub(super) fn existing_file_key(&mut self, act: FileAct, ctx: &mut Ctx) -> Nav {
        let Some(path) = self.existing_file().map(std::path::Path::to_path_buf) else {
            return Nav::Stay;
        };
        match act {
            FileAct::Open => match reopen(&path, &self.options, ctx.now, false) {
                Ok(screen) => Nav::Goto(Box::new(screen)),
                Err(e) => {
                    self.problem = Some((FieldId::Name1, e));
                    Nav::Stay
                }
            },
            FileAct::Rename => {
                self.options.file = self.free_name();
                self.start(ctx)
            }
        }
    }
}
