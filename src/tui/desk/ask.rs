//! The desk's questions: the prompt of each, and what the line typed for it does.

use super::DeskScreen;
use crate::director::Player;
use crate::event::{
    Action, BoardResult, Division, DivisionSettings, EventInfo, Format, PlayerId, PlayerInfo,
};
use crate::event::{by_hand, swap, swap_repeats, with_reason_note};
use crate::publish::sentences::{attached_text, by_hand_noted, bye_request_text, repeats_text};
use crate::store::Entrant;
use crate::tui::screens::Ctx;

/// A line being typed, and what it answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Ask {
    EventName,
    Division,
    Player,
    Forfeit,
    /// The two players to exchange in the round's pairing.
    SwapPlayers,
    /// Why (logged): the two players found.
    SwapReason(PlayerId, PlayerId),
    /// The exchange makes a rematch or a second bye (`said`): exchange anyway?
    SwapConfirm {
        a: PlayerId,
        b: PlayerId,
        reason: String,
        said: String,
    },
    WithdrawPlayer,
    /// Why (logged).
    WithdrawReason(PlayerId),
    /// A player and the round they will miss.
    Absent,
    /// A player and the round they ask to sit out (a requested bye).
    ByeRequest,
    /// A PDN file for the selected board.
    Pdn,
    /// The PDN file is not the board's games (the status says how): attach it anyway, why?
    PdnReason(String),
    /// The next round's boards, paired by hand.
    ByHand,
    /// Why (logged): the boards typed.
    ByHandReason(BoardsByHand),
    /// The paper of the round's sheets.
    SheetsPaper,
    /// The path of an entry list (CSV) to import in the division.
    EntryList,
    /// The entry list read and clean (the status shows its summary): import it (y/n)?
    ImportConfirm(Box<crate::event::EntryList>),
    /// Archive the desk's copy of board `board` of round `round` (y/n)?
    Resync {
        round: u32,
        board: u32,
    },
}

/// A round typed by hand: its boards (first player Red in game 1) and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct BoardsByHand {
    boards: Vec<(PlayerId, PlayerId)>,
    bye: Option<PlayerId>,
}

impl Ask {
    /// The longest line the question takes, in characters: a player's name is at most what
    /// a match on crossboard takes, any other line the event's text limit.
    pub(super) fn max_len(&self) -> usize {
        match self {
            Ask::Player => crate::director::NAME_MAX_CHARS,
            _ => crate::event::MAX_TEXT,
        }
    }

    /// The prompt in front of the typed text.
    pub(super) fn prompt(&self, d: Option<&Division>) -> String {
        let name = |id: &PlayerId| d.map_or("?".to_string(), |d| d.name(*id).to_string());
        match self {
            Ask::EventName => "Event name".into(),
            Ask::Division => "Division (NAME swiss:N|rr|drr GAMES GAME)".into(),
            Ask::Player => "Player name".into(),
            Ask::Forfeit => "Forfeit: who came (1, 2 or none)".into(),
            Ask::SwapPlayers => "Exchange two players (NAME, NAME)".into(),
            Ask::SwapReason(a, b) => format!("Why exchange {} and {} (logged)", name(a), name(b)),
            Ask::SwapConfirm { .. } => "Exchange them anyway (y/n)".into(),
            Ask::WithdrawPlayer => "Withdraw which player".into(),
            Ask::WithdrawReason(p) => format!("Why does {} withdraw (logged)", name(p)),
            Ask::Absent => "Absent: NAME [ROUND] (default: the next round)".into(),
            Ask::ByeRequest => {
                "Requested bye: NAME [ROUND] (default: the next round; -NAME takes it back)".into()
            }
            Ask::Pdn => "PDN file of the board's games".into(),
            Ask::PdnReason(_) => "Attach it anyway: why (logged; empty or Esc: no)".into(),
            Ask::ByHand => "Pair by hand: FIRST - SECOND, ... [, bye NAME]".into(),
            Ask::ByHandReason(_) => "Why pair this round by hand (logged)".into(),
            Ask::SheetsPaper => "Sheets of the round on which paper (a4, letter)".into(),
            Ask::EntryList => "Entry list to import (a CSV file: Name, ID, Rating, ...)".into(),
            Ask::ImportConfirm(list) => {
                format!("Import these {} player(s) (y/n)", list.players.len())
            }
            Ask::Resync { round, board } => {
                format!("Re-sync round {round} board {board}: put the desk's copy aside (y/n)")
            }
        }
    }
}

impl DeskScreen {
    /// The boards typed for a pairing by hand: `FIRST - SECOND` (or two one-word names),
    /// separated by commas, and `bye NAME`.
    pub(super) fn parse_boards(&self, text: &str) -> Result<BoardsByHand, String> {
        let usage = "by hand: FIRST - SECOND, ... [, bye NAME]";
        let mut boards = Vec::new();
        let mut bye = None;
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if let Some(who) = item.strip_prefix("bye ") {
                if bye.is_some() {
                    return Err(format!("{usage}: one bye"));
                }
                bye = Some(self.find(who.trim())?);
                continue;
            }
            let words: Vec<&str> = item.split_whitespace().collect();
            let (a, b) = match item.split_once(" - ") {
                Some((a, b)) => (a.trim(), b.trim()),
                None if words.len() == 2 => (words[0], words[1]),
                None => return Err(format!("{item:?}? {usage}")),
            };
            boards.push((self.find(a)?, self.find(b)?));
        }
        if boards.is_empty() {
            return Err(usage.into());
        }
        Ok(BoardsByHand { boards, bye })
    }

    /// The line typed for `ask`: each question's own step.
    pub(super) fn answer(&mut self, ask: Ask, text: String, ctx: &mut Ctx) {
        let text = text.trim().to_string();
        match ask {
            Ask::ByHand => match self.parse_boards(&text) {
                Ok(boards) => self.ask = Some((Ask::ByHandReason(boards), String::new())),
                Err(e) => {
                    self.status = e;
                    self.ask = Some((Ask::ByHand, text));
                }
            },
            Ask::ByHandReason(boards) => self.pair_by_hand(boards, &text, ctx),
            Ask::EventName => self.create_event(&text),
            Ask::Division => self.add_division(&text),
            Ask::Player => self.enter_player(&text),
            Ask::SwapPlayers => self.exchange_players(text),
            Ask::SwapReason(a, b) => self.exchange_with_reason(a, b, text),
            Ask::SwapConfirm { a, b, reason, said } => {
                self.exchange_confirmed(a, b, reason, said, &text)
            }
            Ask::WithdrawPlayer => match self.find(&text) {
                Ok(p) => self.ask = Some((Ask::WithdrawReason(p), String::new())),
                Err(e) => self.status = e,
            },
            Ask::WithdrawReason(p) => self.withdraw(p, text),
            Ask::Absent => self.absent(&text, false),
            Ask::ByeRequest => self.absent(&text, true),
            Ask::Pdn => self.attach_pdn(&text, None),
            Ask::PdnReason(path) if !text.is_empty() => self.attach_pdn(&path, Some(&text)),
            Ask::PdnReason(_) => self.status = "nothing attached".into(),
            Ask::Forfeit => self.forfeit(&text),
            Ask::SheetsPaper => self.sheets(&text),
            Ask::Resync { round, board } => self.resync(round, board, &text),
            Ask::EntryList => self.check_entry_list(&text),
            Ask::ImportConfirm(list) => self.import_list(&list, &text),
        }
    }

    /// The round paired by hand with the boards typed, `text` the logged reason.
    pub(super) fn pair_by_hand(&mut self, boards: BoardsByHand, text: &str, ctx: &mut Ctx) {
        let BoardsByHand { boards, bye } = boards;
        let Some(d) = self.current_division() else {
            return;
        };
        let pair = match by_hand(self.division, d, boards, bye, text) {
            Ok(p) => p,
            Err(e) => {
                self.status = e.to_string();
                return;
            }
        };
        // What it repeats is said and logged with the reason.
        let (pair, note) = by_hand_noted(d, pair);
        self.record_pairing(pair, note, ctx);
    }

    /// A new event named `text`.
    pub(super) fn create_event(&mut self, text: &str) {
        let Some(desk) = self.desk.as_mut() else {
            return;
        };
        let info = EventInfo {
            name: text.to_string(),
            game: "English draughts".into(),
            ..EventInfo::default()
        };
        match desk.create_event(&info, chrono::Utc::now()) {
            Ok(o) => {
                self.open = Some(o);
                self.division = 0;
                self.status = format!("recorded: event {text:?}");
            }
            Err(e) => self.status = e.to_string(),
        }
        self.refresh();
    }

    /// A division typed as `NAME swiss:N|rr|drr GAMES GAME`.
    pub(super) fn add_division(&mut self, text: &str) {
        let (name, settings) = match parse_division(text) {
            Ok(d) => d,
            Err(e) => {
                self.status = e;
                return;
            }
        };
        let n = self.open.as_ref().map_or(0, |o| o.event.divisions.len());
        self.record(
            vec![Action::AddDivision {
                name: name.clone(),
                settings,
            }],
            format!("division {name:?}"),
        );
        if self.open.as_ref().map_or(0, |o| o.event.divisions.len()) > n {
            self.division = n;
        }
    }

    /// A player entered in the current division (a known player of the desk by name, or a new one).
    pub(super) fn enter_player(&mut self, text: &str) {
        let (Some(desk), Some(open)) = (self.desk.as_mut(), self.open.as_mut()) else {
            return;
        };
        if open.event.divisions.is_empty() {
            self.status = "add a division first (d)".into();
            return;
        }
        let known = desk.players().ok().and_then(|list| {
            list.into_iter()
                .find(|(_, p)| p.name.eq_ignore_ascii_case(text))
        });
        let entrant = match known {
            Some((id, info)) => Entrant::Registered(id, info),
            None => Entrant::New(PlayerInfo::named(text)),
        };
        let result = desk
            .enter_players(open, self.division, &[entrant], chrono::Utc::now())
            .map(|ids| ids[0]);
        match result {
            Ok(id) => {
                let paired = open.event.divisions[self.division].paired_rounds();
                let late = match paired {
                    0 => String::new(),
                    1 => " as a late entry (round 1 scores as an absence)".into(),
                    n => format!(" as a late entry (rounds 1-{n} score as absences)"),
                };
                self.status = format!(
                    "recorded: {text} entered{late} (player {id}); type the next name or Esc"
                );
                self.ask = Some((Ask::Player, String::new()));
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// Two players to exchange typed (`NAME, NAME`): the reason is asked next.
    pub(super) fn exchange_players(&mut self, text: String) {
        let names: Vec<&str> = text.split(',').map(str::trim).collect();
        let [a, b] = names.as_slice() else {
            self.status = "exchange: type two names separated by a comma".into();
            self.ask = Some((Ask::SwapPlayers, text));
            return;
        };
        match (self.find(a), self.find(b)) {
            (Ok(a), Ok(b)) if a != b => self.ask = Some((Ask::SwapReason(a, b), String::new())),
            (Ok(_), Ok(_)) => self.status = "exchange: two different players".into(),
            (Err(e), _) | (_, Err(e)) => self.status = e,
        }
    }

    /// Exchange `a` and `b` for the reason `text`; a rematch or a second bye asks first.
    pub(super) fn exchange_with_reason(&mut self, a: PlayerId, b: PlayerId, text: String) {
        let Some(d) = self.current_division() else {
            return;
        };
        let done = format!(
            "{} and {} exchanged in round {} ({text})",
            d.name(a),
            d.name(b),
            d.paired_rounds()
        );
        match swap_repeats(self.division, d, a, b, &text) {
            Ok((action, repeats)) if repeats.is_empty() => self.record(vec![action], done),
            // A rematch or a second bye: said, and done only once confirmed.
            Ok((_, repeats)) => {
                let said = repeats_text(d, &repeats);
                self.status = format!("{said}: y exchanges them anyway (logged)");
                self.ask = Some((
                    Ask::SwapConfirm {
                        a,
                        b,
                        reason: text,
                        said,
                    },
                    String::new(),
                ));
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// The exchange of `a` and `b` once the director answered the rematch or bye question.
    pub(super) fn exchange_confirmed(
        &mut self,
        a: PlayerId,
        b: PlayerId,
        reason: String,
        said: String,
        text: &str,
    ) {
        let Some(d) = self.current_division() else {
            return;
        };
        if !matches!(text.to_ascii_lowercase().as_str(), "y" | "yes") {
            self.status = format!("nothing exchanged ({said})");
            return;
        }
        let done = format!(
            "{} and {} exchanged in round {} ({reason}; confirmed: {said})",
            d.name(a),
            d.name(b),
            d.paired_rounds()
        );
        match swap(self.division, d, a, b, &reason) {
            Ok(action) => {
                let action = with_reason_note(action, &format!("confirmed: {said}"));
                self.record(vec![action], done)
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// Withdraw `p` for the reason `text`.
    pub(super) fn withdraw(&mut self, p: PlayerId, text: String) {
        let Some(d) = self.current_division() else {
            return;
        };
        let done = format!(
            "{} withdrawn: not paired from round {} ({text})",
            d.name(p),
            d.paired_rounds() + 1
        );
        let action = Action::Withdraw {
            division: self.division,
            player: p,
            reason: text,
        };
        self.record(vec![action], done);
    }

    /// A player absent in a round (`NAME [ROUND]`), or, `requested`, sitting it out as a
    /// requested bye (`-NAME [ROUND]`: the request taken back).
    pub(super) fn absent(&mut self, text: &str, requested: bool) {
        let Some(d) = self.current_division() else {
            return;
        };
        let (text, cancel) = match text.strip_prefix('-') {
            Some(rest) if requested => (rest, true),
            _ => (text, false),
        };
        let (who, round) = match text.rsplit_once(' ') {
            Some((who, r)) if r.parse::<u32>().is_ok() => {
                (who.trim().to_string(), r.parse().unwrap_or(0))
            }
            _ => (text.to_string(), d.paired_rounds() + 1),
        };
        if let Err(e) = d.absence_round(round) {
            self.status = e.to_string();
            return;
        }
        match self.find(&who) {
            Ok(p) => {
                let (done, action) = if requested {
                    let done = bye_request_text(d, p, round, cancel);
                    let action = Action::ByeRequest {
                        division: self.division,
                        player: p,
                        round,
                        cancel,
                    };
                    (done, action)
                } else {
                    let done = format!("{} absent in round {round}", d.name(p));
                    let action = Action::Absent {
                        division: self.division,
                        player: p,
                        round,
                    };
                    (done, action)
                };
                self.record(vec![action], done);
            }
            Err(e) => self.status = e,
        }
    }

    /// Attach the PDN file `path` to the selected board: checked to be the board's games, or
    /// attached all the same for the director's `reason`. A mismatch without a reason asks
    /// for one, saying what differs.
    pub(super) fn attach_pdn(&mut self, path: &str, reason: Option<&str>) {
        let Some((round, board)) = self.selected_board() else {
            return;
        };
        let Some(d) = self.current_division() else {
            return;
        };
        let Some(b) = d.round(round).and_then(|r| r.board(board)) else {
            return;
        };
        let read = match crate::store::read_attachment(std::path::Path::new(path), d, round, b) {
            Ok(read) => read,
            Err(e) => {
                self.status = e;
                return;
            }
        };
        if let (Some(m), None) = (&read.mismatch, reason) {
            self.status = format!("not this board's games: {m}");
            self.ask = Some((Ask::PdnReason(path.to_string()), String::new()));
            return;
        }
        let games = read.games;
        match read.action(self.division, round, board, reason) {
            Ok(action) => {
                let said = attached_text(games, round, board, &action);
                self.record(vec![action], said);
            }
            Err(e) => self.status = e,
        }
    }

    /// A forfeit on the selected board: who came (`1`, `2` or `none`).
    pub(super) fn forfeit(&mut self, text: &str) {
        let present = match text {
            "1" => Some(Player::First),
            "2" => Some(Player::Second),
            "none" | "0" => None,
            _ => {
                self.status = "forfeit: type 1, 2 or none (who came)".into();
                return;
            }
        };
        let Some((round, board)) = self.selected_board() else {
            return;
        };
        self.record_result(round, board, BoardResult::Forfeit { present });
    }

    /// Ask `ask` if there is a division to act on.
    pub(super) fn ask_if_division(&mut self, ask: Ask) {
        if self.current_division().is_some() {
            self.ask = Some((ask, String::new()));
        } else {
            self.status = "add a division first (d)".into();
        }
    }
}

/// A division typed at the desk: `NAME [swiss:N|rr|drr] [GAMES] [english|pool|huffing|losing]
/// [baku]` (defaults: a 5-round Swiss of two-game rounds of English draughts, not accelerated;
/// `baku`: the Baku Acceleration Method). A word that is none of these is refused, naming it.
pub(crate) fn parse_division(text: &str) -> Result<(String, DivisionSettings), String> {
    let usage = "division: NAME swiss:N|rr|drr GAMES GAME [baku], e.g. Masters swiss:5 2 pool";
    let mut words = text.split_whitespace();
    let name = words.next().ok_or(usage)?.to_string();
    let (mut format, mut games, mut game) = (Format::default(), 2, crate::engine::Rules::English);
    let mut acceleration = crate::event::Acceleration::None;
    for w in words {
        if w == "baku" {
            acceleration = crate::event::Acceleration::Baku;
        } else if w == "rr" || w == "drr" {
            format = Format::RoundRobin {
                cycles: if w == "rr" { 1 } else { 2 },
            };
        } else if let Some(n) = w.strip_prefix("swiss:") {
            let rounds = n.parse().map_err(|_| format!("{w:?}: swiss:N, N rounds"))?;
            format = Format::Swiss { rounds };
        } else if let Ok(n) = w.parse::<u32>() {
            games = n;
        } else if let Ok(r) = w.parse() {
            game = r;
        } else {
            return Err(format!("{w:?}? {usage}"));
        }
    }
    let mut settings = DivisionSettings::new(
        format,
        games,
        crate::director::GamePoints::OneHalfZero,
        crate::event::ScoreUnit::Game,
    );
    settings.game = game;
    settings.acceleration = acceleration;
    Ok((name, settings))
}
