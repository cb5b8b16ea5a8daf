//! The 11-man atlas: the 2,500 positions with the engine's verdict, score and main line (the
//! shipped asset, [`crate::openings::eleven_man_atlas`]), KingsRow's class where it differs, and
//! the player's drill record; filtered by verdict, removed men, first moves and what is not yet
//! known. Enter opens a position's main line in review; `r` / `w` drill it as Red / White.

use super::atlas_drill::DrillScreen;
use super::atlas_record::{DrillRecord, drill_file_beside, load_record};
use super::review::ReviewScreen;
use super::{Ctx, Nav, RenderCtx, Screen, ScreenState};
use crate::engine::{Color, Game};
use crate::openings::{AtlasEntry, Ballot, ElevenManPosition, Verdict};
use crate::search::Score;
use crate::tui::Msg;
use crate::tui::keys::{
    BACKSPACE, Binding, DOWN, ENTER, ESC, Key, PAGE_DOWN, PAGE_UP, UP, footer, help, lookup,
};
use crate::tui::widgets::fit_text;
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use std::path::PathBuf;

/// What the verdict filter keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictFilter {
    /// Positions with this verdict.
    Is(Verdict),
    /// Positions where KingsRow's class and the engine's verdict differ.
    DiffersFromKingsRow,
}

impl VerdictFilter {
    /// The next filter after `current`: each verdict in turn, the differences, then none.
    fn cycle(current: Option<VerdictFilter>) -> Option<VerdictFilter> {
        match current {
            None => Some(VerdictFilter::Is(Verdict::ALL[0])),
            Some(VerdictFilter::Is(v)) => Some(
                Verdict::ALL
                    .iter()
                    .position(|x| *x == v)
                    .and_then(|i| Verdict::ALL.get(i + 1))
                    .map_or(VerdictFilter::DiffersFromKingsRow, |&v| {
                        VerdictFilter::Is(v)
                    }),
            ),
            Some(VerdictFilter::DiffersFromKingsRow) => None,
        }
    }
}

/// The atlas's filters; empty text keeps everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AtlasFilter {
    /// By verdict (or KingsRow's differences).
    pub verdict: Option<VerdictFilter>,
    /// Removed men: squares (`11`, `11 28`), each removed in one ballot of the position.
    pub removed: String,
    /// The first moves as played, typed from their start (`9-13`, `9-13 24-20`).
    pub moves: String,
    /// Only the positions not yet held from both sides.
    pub not_known: bool,
}

/// The text field being typed into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The removed men.
    Removed,
    /// The first moves.
    Moves,
}

/// True when KingsRow's class and the engine's verdict disagree: KingsRow calls it lost and
/// the engine does not, or the engine calls it lost and KingsRow standard.
pub(crate) fn differs(p: &ElevenManPosition, e: &AtlasEntry) -> bool {
    p.kingsrow_lost != e.verdict.is_lost()
}

/// The ballots giving `p`.
fn ballots(p: &ElevenManPosition) -> impl Iterator<Item = Ballot> + '_ {
    p.ballots
        .iter()
        .filter_map(|&n| Ballot::from_number(n).ok())
}

/// "9-13 24-20": a ballot's moves as played.
fn moves_text(b: Ballot) -> String {
    let ((rf, rt), _) = b.red_move_played();
    let ((wf, wt), _) = b.white_move_played();
    format!("{rf}-{rt} {wf}-{wt}")
}

impl AtlasFilter {
    /// True when the position passes every filter.
    pub fn keeps(&self, p: &ElevenManPosition, e: &AtlasEntry, record: &DrillRecord) -> bool {
        let verdict = match self.verdict {
            None => true,
            Some(VerdictFilter::Is(v)) => e.verdict == v,
            Some(VerdictFilter::DiffersFromKingsRow) => differs(p, e),
        };
        verdict
            && !(self.not_known && record.known(p.id))
            && self.keeps_removed(p)
            && self.keeps_moves(p)
    }

    fn keeps_removed(&self, p: &ElevenManPosition) -> bool {
        let want: Vec<&str> = self
            .removed
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        want.is_empty()
            || ballots(p).any(|b| {
                let (r, w) = b.removed();
                want.iter()
                    .all(|s| *s == r.to_string() || *s == w.to_string())
            })
    }

    fn keeps_moves(&self, p: &ElevenManPosition) -> bool {
        let typed = self.moves.split_whitespace().collect::<Vec<_>>().join(" ");
        typed.is_empty() || ballots(p).any(|b| moves_text(b).starts_with(&typed))
    }

    /// "verdict balanced · removed 11 · moves 9-13 · not known", or "none".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self.verdict {
            Some(VerdictFilter::Is(v)) => parts.push(format!("{v}")),
            Some(VerdictFilter::DiffersFromKingsRow) => parts.push("KingsRow differs".into()),
            None => {}
        }
        if !self.removed.trim().is_empty() {
            parts.push(format!("removed {}", self.removed.trim()));
        }
        if !self.moves.trim().is_empty() {
            parts.push(format!("moves {}", self.moves.trim()));
        }
        if self.not_known {
            parts.push("not known".into());
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(" · ")
        }
    }
}

/// The atlas screen.
#[derive(Clone, Debug)]
pub struct AtlasScreen {
    /// The filters.
    pub filter: AtlasFilter,
    /// The public ids shown, in id order.
    pub shown: Vec<u32>,
    /// The row highlighted (index into `shown`).
    pub selected: usize,
    /// The field being typed into, if any.
    pub editing: Option<Field>,
    /// The player's drill record.
    pub record: DrillRecord,
    /// Where the record is kept (`None`: not kept).
    pub record_file: Option<PathBuf>,
    /// The last message (a damaged record file, ...).
    pub message: Option<String>,
    /// Rows a page shows (from the last size seen).
    page: usize,
}

impl AtlasScreen {
    /// The atlas with the record read from `record_file` (a damaged file is named in the
    /// message and left as it is; the list shows no record).
    pub fn new(record_file: Option<PathBuf>) -> AtlasScreen {
        let mut s = AtlasScreen {
            filter: AtlasFilter::default(),
            shown: Vec::new(),
            selected: 0,
            editing: None,
            record: DrillRecord::default(),
            record_file,
            message: None,
            page: list_rows(24),
        };
        s.reload();
        s
    }

    /// The atlas opened from the home screen: the record beside the practice memory.
    pub fn opened(ctx: &Ctx) -> AtlasScreen {
        AtlasScreen::new(drill_file_beside(ctx.practice_file))
    }

    /// Read the record again (after a drill) and filter.
    pub fn reload(&mut self) {
        if let Some(path) = &self.record_file {
            match load_record(path) {
                Ok(r) => self.record = r,
                Err(e) => {
                    self.message = Some(format!("drill record not read: {e}"));
                    self.record = DrillRecord::default();
                }
            }
        }
        self.refilter();
    }

    /// Apply the filters, keeping the highlighted position when it is still shown.
    pub fn refilter(&mut self) {
        let at = self.shown.get(self.selected).copied();
        let atlas = crate::openings::eleven_man_atlas();
        self.shown = crate::openings::eleven_man_positions()
            .iter()
            .zip(atlas)
            .filter(|(p, e)| self.filter.keeps(p, e, &self.record))
            .map(|(p, _)| p.id)
            .collect();
        self.selected = at
            .and_then(|id| self.shown.iter().position(|&x| x == id))
            .unwrap_or(0);
    }

    /// The highlighted position's id.
    pub fn current(&self) -> Option<u32> {
        self.shown.get(self.selected).copied()
    }

    fn entry(id: u32) -> Option<(&'static ElevenManPosition, &'static AtlasEntry)> {
        let i = (id as usize).checked_sub(1)?;
        Some((
            crate::openings::eleven_man_positions().get(i)?,
            crate::openings::eleven_man_atlas().get(i)?,
        ))
    }

    /// The main line of the highlighted position in review, from its start.
    fn open_line(&mut self) -> Nav {
        let Some((p, e)) = self.current().and_then(AtlasScreen::entry) else {
            return Nav::Stay;
        };
        let mut game = Game::new(p.position.rules(), p.position);
        for mv in &e.line {
            if let Err(err) = game.play(mv) {
                self.message = Some(format!("position {}: main line: {err}", p.id));
                return Nav::Stay;
            }
        }
        let title = format!(
            "Atlas {} · {} · {} {}",
            p.id,
            p.public_name,
            e.verdict,
            Score(e.red_score)
        );
        let mut review = ReviewScreen::new(game, title);
        review.ply = 0;
        review.info = vec![
            format!("Verdict {} ({} for Red)", e.verdict, Score(e.red_score)),
            format!("Depth   {}", e.depth),
            format!(
                "KingsRow {}",
                if p.kingsrow_lost { "lost" } else { "standard" }
            ),
        ];
        Nav::Push(Box::new(Screen::Review(review)))
    }

    fn drill(&mut self, side: Color) -> Nav {
        let Some((p, _)) = self.current().and_then(AtlasScreen::entry) else {
            return Nav::Stay;
        };
        let screen = DrillScreen::new(p, side, self.record_file.clone());
        Nav::Push(Box::new(Screen::AtlasDrill(Box::new(screen))))
    }

    fn step(&mut self, by: isize) {
        let last = self.shown.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(by).min(last);
    }

    fn type_key(&mut self, field: Field, k: &ratatui::crossterm::event::KeyEvent) {
        let text = match field {
            Field::Removed => &mut self.filter.removed,
            Field::Moves => &mut self.filter.moves,
        };
        match lookup(FIELD_KEYS, k) {
            Some(FieldAct::Done) => self.editing = None,
            Some(FieldAct::Delete) => {
                text.pop();
            }
            Some(FieldAct::Clear) => text.clear(),
            None => match k.code {
                KeyCode::Char(c)
                    if !k
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                        && (c.is_ascii_digit() || " ,-x".contains(c)) =>
                {
                    text.push(c);
                }
                _ => return,
            },
        }
        self.refilter();
    }

    fn list_key(&mut self, act: AtlasAct) -> Nav {
        self.message = None;
        match act {
            AtlasAct::Up => self.step(-1),
            AtlasAct::Down => self.step(1),
            AtlasAct::PageUp => self.step(-(self.page as isize)),
            AtlasAct::PageDown => self.step(self.page as isize),
            AtlasAct::Open => return self.open_line(),
            AtlasAct::DrillRed => return self.drill(Color::Red),
            AtlasAct::DrillWhite => return self.drill(Color::White),
            AtlasAct::Verdict => {
                self.filter.verdict = VerdictFilter::cycle(self.filter.verdict);
                self.refilter();
            }
            AtlasAct::Removed => self.editing = Some(Field::Removed),
            AtlasAct::Moves => self.editing = Some(Field::Moves),
            AtlasAct::NotKnown => {
                self.filter.not_known = !self.filter.not_known;
                self.refilter();
            }
            AtlasAct::Clear => {
                self.filter = AtlasFilter::default();
                self.refilter();
            }
            AtlasAct::Back => return Nav::Pop,
        }
        Nav::Stay
    }
}

/// What the keys of the list do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtlasAct {
    Up,
    Down,
    PageUp,
    PageDown,
    Open,
    DrillRed,
    DrillWhite,
    Verdict,
    Removed,
    Moves,
    NotKnown,
    Clear,
    Back,
}

/// The keys of the atlas list.
pub(crate) static KEYS: &[Binding<AtlasAct>] = &[
    Binding::new(&[UP], AtlasAct::Up, "the position above"),
    Binding::new(&[DOWN], AtlasAct::Down, "the position below"),
    Binding::new(&[PAGE_UP], AtlasAct::PageUp, "a page up"),
    Binding::new(&[PAGE_DOWN], AtlasAct::PageDown, "a page down"),
    Binding::new(&[ENTER], AtlasAct::Open, "the main line, in review").footer("line"),
    Binding::new(&[Key::Char('r')], AtlasAct::DrillRed, "drill it as Red").footer("Red"),
    Binding::new(&[Key::Char('w')], AtlasAct::DrillWhite, "drill it as White").footer("White"),
    Binding::new(
        &[Key::Char('v')],
        AtlasAct::Verdict,
        "filter by verdict (each, KingsRow differs, all)",
    )
    .footer("verdict"),
    Binding::new(
        &[Key::Char('x')],
        AtlasAct::Removed,
        "filter by removed men (squares)",
    )
    .footer("removed"),
    Binding::new(
        &[Key::Char('m')],
        AtlasAct::Moves,
        "filter by the first moves",
    )
    .footer("moves"),
    Binding::new(
        &[Key::Char('k')],
        AtlasAct::NotKnown,
        "only those not yet known (or all)",
    ),
    Binding::new(&[Key::Char('c')], AtlasAct::Clear, "clear the filters"),
    Binding::new(&[ESC, Key::Char('q')], AtlasAct::Back, "back"),
];

/// What the keys of a filter field do (digits, spaces, `-` and commas are typed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldAct {
    Done,
    Delete,
    Clear,
}

/// The keys of a filter field.
pub(crate) static FIELD_KEYS: &[Binding<FieldAct>] = &[
    Binding::new(&[ENTER, ESC], FieldAct::Done, "back to the list").footer("done"),
    Binding::new(&[BACKSPACE], FieldAct::Delete, "delete a character"),
    Binding::new(&[Key::Ctrl('u')], FieldAct::Clear, "clear the field").footer("clear"),
];

/// Rows of the list in a terminal `height` lines high: all but the title, the column header
/// and the three bottom lines (the position in full, a message, the keys).
fn list_rows(height: u16) -> usize {
    usize::from(height).saturating_sub(5).max(1)
}

/// The column header of the list.
const HEADER: &str = "  id  removed  moves        verdict         score  KingsRow  drill";

/// One row: id, removed men and moves of its first ballot, verdict, score, KingsRow's class
/// where it differs (marked), the drill record.
pub(crate) fn row_text(p: &ElevenManPosition, e: &AtlasEntry, record: &DrillRecord) -> String {
    let b = ballots(p).next();
    let (removed, moves) = b.map_or((String::new(), String::new()), |b| {
        let (r, w) = b.removed();
        (format!("{r},{w}"), moves_text(b))
    });
    let kingsrow = match (differs(p, e), p.kingsrow_lost) {
        (false, _) => "",
        (true, true) => "* lost",
        (true, false) => "* standard",
    };
    let drill = drill_mark(record, p.id);
    format!(
        "{:>4}  {removed:<7}  {moves:<11}  {:<14} {:>6}  {kingsrow:<9} {drill}",
        p.id,
        e.verdict.to_string(),
        Score(e.red_score).to_string()
    )
}

/// "known", "R held W lost", "R lost", "" (never drilled).
fn drill_mark(record: &DrillRecord, id: u32) -> String {
    if record.known(id) {
        return "known".into();
    }
    Color::ALL
        .into_iter()
        .filter_map(|c| record.last(id, c))
        .map(|e| {
            let side = if e.side == Color::Red { 'R' } else { 'W' };
            format!("{side} {}", e.result.word())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl ScreenState for AtlasScreen {
    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        if self.editing.is_some() {
            vec![crate::tui::keys::erase(FIELD_KEYS)]
        } else {
            vec![crate::tui::keys::erase(KEYS)]
        }
    }

    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        self.page = list_rows(ctx.area.height);
        let Msg::Key(k) = msg else {
            return Nav::Stay;
        };
        if let Some(field) = self.editing {
            self.type_key(field, k);
            return Nav::Stay;
        }
        match lookup(KEYS, k) {
            Some(act) => self.list_key(act),
            None => Nav::Stay,
        }
    }

    fn uncovered(&mut self) {
        self.reload();
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        let look = ctx.appearance;
        let width = area.width as usize;
        let buf = frame.buffer_mut();
        let rows = list_rows(area.height);
        let top = self.selected / rows * rows;
        let last = (top + rows).min(self.shown.len());
        let title = format!(
            "11-man atlas · rows {}-{last} of {} · filter: {}",
            (top + 1).min(last),
            self.shown.len(),
            self.filter.describe()
        );
        buf.set_string(
            area.x,
            area.y,
            fit_text(&look.text(&title), width),
            look.accent(),
        );
        buf.set_string(area.x, area.y + 1, fit_text(HEADER, width), look.dim());
        for (i, &id) in self.shown.iter().skip(top).take(rows).enumerate() {
            let Some((p, e)) = AtlasScreen::entry(id) else {
                continue;
            };
            let style = if top + i == self.selected {
                look.accent()
                    .add_modifier(ratatui::style::Modifier::REVERSED)
            } else {
                ratatui::style::Style::default()
            };
            let text = fit_text(&row_text(p, e, &self.record), width);
            buf.set_string(area.x, area.y + 2 + i as u16, text, style);
        }
        let bottom = area.bottom();
        let detail = self.detail();
        buf.set_string(
            area.x,
            bottom - 3,
            fit_text(&look.text(&detail), width),
            look.dim(),
        );
        if let Some(m) = &self.message {
            // One row: a path in it (a damaged record's) keeps its end, the file's name.
            let line = crate::tui::widgets::wrap_fit(&look.text(m), width, 1);
            let line = line.into_iter().next().unwrap_or_default();
            buf.set_string(area.x, bottom - 2, line, look.alert());
        }
        let keys = match self.editing {
            Some(field) => {
                let (name, text) = match field {
                    Field::Removed => ("removed men", &self.filter.removed),
                    Field::Moves => ("first moves", &self.filter.moves),
                };
                format!("{name}: {text}_ · {} · F1 help", footer(FIELD_KEYS))
            }
            None => format!("{} · ? help", footer(KEYS)),
        };
        let line = Line::from(Span::styled(look.text(&keys), look.dim()));
        buf.set_line(
            area.x,
            bottom - 1,
            &crate::tui::widgets::fit_line(line, width),
            area.width,
        );
    }

    fn title(&self) -> String {
        "11-man atlas".into()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        if self.editing.is_some() {
            let mut lines = vec![KeyHelp::new("digits - ,", "type squares or moves")];
            lines.extend(help(FIELD_KEYS));
            lines
        } else {
            help(KEYS)
        }
    }

    fn typing(&self) -> bool {
        self.editing.is_some()
    }
}

impl AtlasScreen {
    /// The highlighted position in full: its ballot text, the ballots giving it, the record.
    fn detail(&self) -> String {
        let Some((p, e)) = self.current().and_then(AtlasScreen::entry) else {
            return "no position passes the filters (c clears them)".into();
        };
        let record = self.record.summary(p.id);
        let ballots: Vec<String> = p.ballots.iter().map(u32::to_string).collect();
        let mut text = format!("{}: {}", p.id, p.public_name);
        if !record.is_empty() {
            text.push_str(" · ");
            text.push_str(&record);
        }
        text.push_str(&format!(
            " · ballots {} · depth {}",
            ballots.join(","),
            e.depth
        ));
        text
    }
}
