//! A board's laptop joins the round: the home screen's *Join a board* form (the desk's address
//! and the board's code or token) and `crossboard --desk URL --board-token T` take the same
//! path, [`open_board`]. The board's pairing comes from the desk (players and colours, the
//! round's ballots, games, rules, time control, the event's heading); the match file is in the
//! data folder under the name the desk gives its copy (event, division, round, board), so
//! joining again resumes it. A match there whose set-up is not the desk's pairing any more (the
//! board was re-paired) is never mixed with the new one: the question comes before the match
//! screen, and the new pairing starts only on `y`, the old match kept beside it.

use super::{MatchOptions, MatchScreen, check_desk_url, check_token};
use crate::director::MatchSettings;
use crate::store::BoardPairing;
use crate::tui::Msg;
use crate::tui::keys::{BACKTAB, Binding, DOWN, ENTER, ESC, TAB, UP, footer, help, lookup};
use crate::tui::screens::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::tui::widgets::centered;
use crate::tui::widgets::form::{
    CONFIRM_KEYS, Confirm, ConfirmOutcome, TEXT_KEYS, TextField, confirm_help,
};
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The board of `pairing` (from the desk `desk`, asked with `token`) opened: its match screen
/// ready for the first game, or resumed when its file is there; when the file there is a match
/// the desk no longer pairs, the question whether to start the new pairing.
pub fn open_board(
    pairing: BoardPairing,
    desk: &str,
    token: &str,
    matches: &MatchOptions,
    now: Instant,
    rng: &mut dyn rand::Rng,
) -> Result<Screen, String> {
    let dir = matches
        .dir
        .clone()
        .ok_or("no data folder is known here: give the match file with --match")?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(&pairing.file);
    let board = Board {
        pairing,
        path,
        desk: desk.to_string(),
        token: token.to_string(),
    };
    match crate::store::load_match(&board.path) {
        Ok(f) if f.the_match.settings() != &board.pairing.settings => {
            let question = board.question(f.the_match.settings());
            Ok(Screen::Join(JoinScreen {
                asked: Some((question, board)),
                ..JoinScreen::new()
            }))
        }
        // Resumed (reporting, as `resume --desk` does); a damaged or locked file is asked
        // about as resume asks.
        _ if board.path.exists() => super::resume::reopen(&board.path, matches, now, false),
        _ => board.new_match(matches, now, rng),
    }
}

/// A board joined: its pairing, where its match file is, and how it reports.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    pairing: BoardPairing,
    path: PathBuf,
    desk: String,
    token: String,
}

impl Board {
    /// The board's new match at its path, reporting to the desk.
    fn new_match(
        &self,
        matches: &MatchOptions,
        now: Instant,
        rng: &mut dyn rand::Rng,
    ) -> Result<Screen, String> {
        let options = MatchOptions {
            file: Some(self.path.clone()),
            ..matches.clone()
        };
        let mut screen =
            MatchScreen::start_for_board(self.pairing.settings.clone(), &options, now, rng)
                .map_err(|e| format!("{}: {e}", self.path.display()))?;
        if let Some(network) = &matches.net.network {
            screen.report_to(network.as_ref(), &self.desk, &self.token);
        }
        Ok(Screen::Match(Box::new(screen)))
    }

    /// The question when the match at the board's path (set up as `had`) is not its pairing
    /// any more.
    fn question(&self, had: &MatchSettings) -> Confirm {
        let p = &self.pairing;
        let now = &p.settings;
        let what = if had.players == now.players {
            "its set-up (ballots, games, rules or clock) changed at the desk".to_string()
        } else {
            format!(
                "the match there is {} v {}, the desk now pairs {} v {}",
                had.players[0], had.players[1], now.players[0], now.players[1]
            )
        };
        Confirm::new(
            "Paired again",
            vec![
                format!(
                    "Board {} of round {} was paired again: {what}.",
                    p.board, p.round
                ),
                format!(
                    "Start the new pairing? The old match is kept as {}",
                    aside_path(&self.path).display()
                ),
            ],
        )
    }

    /// `y`: the old match moved aside, the new pairing started.
    fn start_again(
        &self,
        matches: &MatchOptions,
        now: Instant,
        rng: &mut dyn rand::Rng,
    ) -> Result<Screen, String> {
        let aside = aside_path(&self.path);
        if aside.exists() {
            return Err(format!("{} is there already: try again", aside.display()));
        }
        std::fs::rename(&self.path, &aside).map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.new_match(matches, now, rng)
    }
}

/// Where the old match of `path` is kept: `NAME.before-YYYYMMDD-HHMMSS.jsonl` beside it.
fn aside_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let at = chrono::Utc::now().format("%Y%m%d-%H%M%S");
    path.with_file_name(format!("{stem}.before-{at}.{}", crate::store::EXTENSION))
}

/// What the keys of the join form do (other characters are typed, [`TEXT_KEYS`] edit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JoinAct {
    /// Ask the desk for the board's pairing and open its match.
    Join,
    /// The other field.
    Next,
    /// Back to the home screen.
    Back,
}

/// The keys of the join form.
pub(crate) static KEYS: &[Binding<JoinAct>] = &[
    Binding::new(&[ENTER], JoinAct::Join, "join the board: its match opens").footer("join"),
    Binding::new(&[TAB, BACKTAB, DOWN, UP], JoinAct::Next, "the other field").footer("next"),
    Binding::new(&[ESC], JoinAct::Back, "back to the home screen").footer("back"),
];

/// The home screen's *Join a board*: the desk's address and the board's code or token; then
/// the question when the board was paired again.
#[derive(Clone, Debug)]
pub struct JoinScreen {
    /// The desk's address and the board's code or token.
    fields: [TextField; 2],
    /// The field being typed in.
    focus: usize,
    /// Why the board could not join, in words.
    message: Option<String>,
    /// The question when the board was paired again, and the board.
    asked: Option<(Confirm, Board)>,
}

impl Default for JoinScreen {
    fn default() -> JoinScreen {
        JoinScreen::new()
    }
}

impl JoinScreen {
    /// The empty form.
    pub fn new() -> JoinScreen {
        let mut desk = TextField::new("Desk's address", "").with_max_len(60);
        desk.hint = "HOST:PORT, as serve prints it".into();
        let mut code = TextField::new("Board's code", "").with_max_len(40);
        code.hint = "K7QM-3XF0, or its token".into();
        JoinScreen {
            fields: [desk, code],
            focus: 0,
            message: None,
            asked: None,
        }
    }

    /// The board's question, if asked now.
    pub fn question(&self) -> Option<&Confirm> {
        self.asked.as_ref().map(|(q, _)| q)
    }

    /// Ask the desk and open the board.
    fn join(&mut self, ctx: &mut Ctx) -> Nav {
        let typed = self.fields[0].value.trim();
        if typed.is_empty() {
            self.message = Some(
                "the desk's address: type it as the desk's crossboard serve prints it \
                 (HOST:PORT)"
                    .into(),
            );
            return Nav::Stay;
        }
        let address = if typed.contains("://") {
            typed.to_string()
        } else {
            format!("http://{typed}")
        };
        let opened = check_desk_url(&address)
            .map_err(|e| format!("the desk's address: {e}"))
            .and_then(|desk| {
                let token = check_token(&self.fields[1].value)?;
                let network = ctx.matches.net.network.as_ref().ok_or(
                    "joining a board needs the network, which this crossboard was started without",
                )?;
                let pairing = network.pairing(&desk, &token)?;
                open_board(pairing, &desk, &token, ctx.matches, ctx.now, ctx.rng)
            });
        match opened {
            Ok(Screen::Join(asked)) => {
                self.asked = asked.asked;
                self.message = None;
                Nav::Stay
            }
            Ok(screen) => Nav::Goto(Box::new(screen)),
            Err(e) => {
                self.message = Some(e);
                Nav::Stay
            }
        }
    }

    /// The answer to the board's question.
    fn answer(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let (Msg::Key(k), Some((q, board))) = (msg, &self.asked) else {
            return Nav::Stay;
        };
        match q.key(k) {
            ConfirmOutcome::Pending => Nav::Stay,
            ConfirmOutcome::No => {
                self.message = Some(format!(
                    "nothing changed: the old match is still {}",
                    board.path.display()
                ));
                self.asked = None;
                Nav::Stay
            }
            ConfirmOutcome::Yes => match board.start_again(ctx.matches, ctx.now, ctx.rng) {
                Ok(screen) => Nav::Goto(Box::new(screen)),
                Err(e) => {
                    self.message = Some(e);
                    self.asked = None;
                    Nav::Stay
                }
            },
        }
    }
}

impl ScreenState for JoinScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        if self.asked.is_some() {
            vec![crate::tui::keys::erase(CONFIRM_KEYS)]
        } else {
            vec![
                crate::tui::keys::erase(KEYS),
                crate::tui::keys::erase(TEXT_KEYS),
            ]
        }
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        if self.asked.is_some() {
            return self.answer(msg, ctx);
        }
        let Msg::Key(k) = msg else {
            return Nav::Stay;
        };
        match lookup(KEYS, k) {
            Some(JoinAct::Join) => self.join(ctx),
            Some(JoinAct::Next) => {
                self.focus = 1 - self.focus;
                Nav::Stay
            }
            Some(JoinAct::Back) => Nav::Pop,
            None => {
                if self.fields[self.focus].key(k) {
                    self.message = None;
                }
                Nav::Stay
            }
        }
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let r = centered(area, 76.min(area.width), 12.min(area.height));
        let block = Block::new()
            .borders(Borders::ALL)
            .border_set(look.border_set())
            .border_style(look.accent())
            .title_top(Line::from(Span::styled(" Join a board ", look.accent())));
        let mut lines = vec![
            Line::from(Span::styled(
                "The desk's address and this board's code, as the director gives them:",
                look.dim(),
            )),
            Line::from(""),
        ];
        for (k, f) in self.fields.iter().enumerate() {
            lines.push(f.line(14, k == self.focus, look));
        }
        lines.push(Line::from(""));
        if let Some(m) = &self.message {
            lines.push(Line::from(Span::styled(m.clone(), look.alert())));
        }
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            r,
        );
        let keys = footer(KEYS);
        let kx = area.x + area.width.saturating_sub(keys.chars().count() as u16) / 2;
        frame
            .buffer_mut()
            .set_string(kx, area.bottom().saturating_sub(1), keys, look.dim());
        if let Some((q, _)) = &self.asked {
            q.render(frame, look);
        }
    }

    fn title(&self) -> String {
        "Join a board".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.asked.is_some() {
            confirm_help()
        } else {
            let mut keys = help(KEYS);
            keys.extend(help(TEXT_KEYS));
            keys
        }
    }

    fn typing(&self) -> bool {
        self.asked.is_none()
    }
}
