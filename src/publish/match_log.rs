//! A match's log in words, shared by the match screen's log and the served board pages: each
//! record as a sentence with the players' names, director's decisions and notes marked.

use crate::director::{
    CoinSide, GameResult, Hand, LogEntry, Match, MatchEvent, MatchOutcome, Now, Player,
};
use crate::engine::{Color, Move};

/// Every entry of the log in words, and whether it is a director's decision or a note
/// (marked). The log is folded again to name the game and the colour of each move (a move
/// event holds only the move and its times).
pub fn match_log_words(m: &Match) -> Vec<(String, bool)> {
    let log = m.log();
    let Some(first) = log.first() else {
        return Vec::new();
    };
    let now = Now {
        mono_ms: 0,
        wall: first.at,
    };
    let mut fold = Match::new(m.settings().clone(), now).ok();
    let mut out = Vec::with_capacity(log.len());
    for (i, e) in log.iter().enumerate() {
        let mover = fold
            .as_ref()
            .and_then(|f| f.playing())
            .map(|g| MoveContext {
                ballot: g.ballot,
                game: g.number,
                colour: g.game.position().turn(),
            });
        out.push(entry_text(m, e, mover));
        if i > 0
            && let Some(f) = fold.as_mut()
        {
            f.evolve(e);
        }
    }
    out
}

/// Where a move was played: its game and the colour that played it.
#[derive(Clone, Copy, Debug)]
struct MoveContext {
    ballot: u32,
    game: u8,
    colour: Color,
}

/// One entry in words (`mover`: the game in play before it), and whether it is marked.
fn entry_text(m: &Match, e: &LogEntry, mover: Option<MoveContext>) -> (String, bool) {
    (event_words(m, &e.event, mover), marked(&e.event))
}

/// Whether an event is a director's decision or a note (marked in the log).
fn marked(event: &MatchEvent) -> bool {
    matches!(
        event,
        MatchEvent::ColoursSet {
            by_director: true,
            ..
        } | MatchEvent::StrengthCountExtended { .. }
            | MatchEvent::ResultAmended { .. }
            | MatchEvent::MovesTakenBack { .. }
            | MatchEvent::ClocksPaused { .. }
            | MatchEvent::ClocksResumed
            | MatchEvent::TimeAdjusted { .. }
            | MatchEvent::DecisionUndone { .. }
            | MatchEvent::Note { .. }
    )
}

/// An event in words: the set-up and ballots, the games, or the director's decisions.
fn event_words(m: &Match, event: &MatchEvent, mover: Option<MoveContext>) -> String {
    let n = |p: Player| m.name(p).to_string();
    match event {
        MatchEvent::MatchCreated => {
            format!("match set up: {} v {}", n(Player::First), n(Player::Second))
        }
        MatchEvent::CoinFlipped {
            caller,
            call,
            landed,
            winner,
        } => coin_flipped(m, *caller, [*call, *landed], *winner),
        MatchEvent::ColourDrawn { player, colour } => {
            format!("{} drew {colour} from the bag", n(*player))
        }
        MatchEvent::HandPicked {
            player,
            hand,
            colour,
        } => format!(
            "{} picked the {} hand: {colour}",
            n(*player),
            hand_name(*hand)
        ),
        MatchEvent::ColoursSet { red, by_director } => colours_set(m, *red, *by_director),
        MatchEvent::BallotDrawn { ballot, number, .. } => ballot_drawn(m, *ballot, *number),
        MatchEvent::BallotAccepted { ballot, colour } => match colour {
            Some(c) => format!("ballot {ballot} accepted by {c}"),
            None => format!("ballot {ballot} to be played"),
        },
        MatchEvent::BallotRejected {
            ballot,
            colour,
            player,
        } => format!("{} ({colour}) rejected ballot {ballot}", n(*player)),
        MatchEvent::BallotDiscarded { ballot, number } => {
            format!("both rejected opening {number}: ballot {ballot} is drawn again")
        }
        MatchEvent::GameStarted { ballot, game, red } => format!(
            "game {ballot}.{game} started: {} (Red) v {} (White)",
            n(*red),
            n(red.other())
        ),
        MatchEvent::MovePlayed {
            mv,
            spent_ms,
            left_ms,
        } => move_played(*mv, *spent_ms, *left_ms, mover),
        MatchEvent::Huffed { square, .. } => format!("huffed the piece on {square}"),
        MatchEvent::Compelled => "had the last move taken back: the capture must be played".into(),
        MatchEvent::StrengthCountAsked { colour, .. } => {
            format!("{colour} asked for the strength count")
        }
        MatchEvent::StrengthCountExtended { .. } => {
            "the director granted 8 more moves to the count".into()
        }
        MatchEvent::DrawOffered { colour, .. } => format!("{colour} offered a draw"),
        MatchEvent::DrawDeclined { colour, .. } => format!("{colour} declined the draw"),
        MatchEvent::GameEnded {
            ballot,
            game,
            result,
            ..
        } => format!("game {ballot}.{game} over: {result}"),
        MatchEvent::ResultAmended {
            ballot,
            game,
            previous,
            result,
        } => format!("director: game {ballot}.{game} amended from \"{previous}\" to \"{result}\""),
        MatchEvent::MovesTakenBack {
            ballot,
            game,
            moves,
            reopened,
            reason,
        } => taken_back(*ballot, *game, moves, reopened.as_ref(), reason),
        MatchEvent::TimeCalled { colour, .. } => format!("\"Time\" called on {colour}"),
        MatchEvent::ClocksPaused { reason, .. } => format!("director: clocks paused ({reason})"),
        MatchEvent::ClocksResumed => "director: clocks resumed".into(),
        MatchEvent::TimeAdjusted {
            colour,
            delta_ms,
            remaining_ms,
            reason,
            ..
        } => time_adjusted(*colour, *delta_ms, *remaining_ms, reason),
        MatchEvent::ExtraBallot { ballot } => tie_block(m, *ballot),
        MatchEvent::MatchFinished { outcome } => finished(m, outcome),
        MatchEvent::DecisionUndone {
            ballot,
            game,
            undone,
            restored,
            reason,
        } => decision_undone((*ballot, *game), undone, restored.as_ref(), reason),
        MatchEvent::Note { text, .. } => format!("NOTE: {text}"),
        MatchEvent::Reopened => "match reopened, clocks held at the last move".into(),
    }
}

/// "ballot 2 drawn: 9-14 22-17 11-15" (or the opening's number when it is not in the deck).
fn ballot_drawn(m: &Match, ballot: u32, number: u32) -> String {
    match crate::openings::opening(m.settings().openings.system, number) {
        Ok(o) => format!("ballot {ballot} drawn: {}", o.reference()),
        Err(_) => format!("ballot {ballot} drawn: opening {number}"),
    }
}

/// A move with its game and colour (when known), the time spent on it and the time left.
fn move_played(
    mv: Move,
    spent_ms: u64,
    left_ms: Option<i64>,
    mover: Option<MoveContext>,
) -> String {
    format!(
        "{} {mv} in {}{}",
        match mover {
            Some(c) => format!("game {}.{}: {} played", c.ballot, c.game, c.colour),
            None => "played".to_string(),
        },
        format_clock(i64::try_from(spent_ms).unwrap_or(i64::MAX)),
        left_ms
            .map(|r| format!(", {} left", format_clock(r)))
            .unwrap_or_default()
    )
}

/// The director's take-back: the moves, whether the game was reopened, and why.
fn taken_back(
    ballot: u32,
    game: u8,
    moves: &[Move],
    reopened: Option<&GameResult>,
    reason: &str,
) -> String {
    let list: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let what = if list.is_empty() {
        "no move taken back".to_string()
    } else {
        format!("took back {}", list.join(" "))
    };
    let reopen = match reopened {
        Some(r) => format!(", game reopened (it was: {r})"),
        None => String::new(),
    };
    format!("director: game {ballot}.{game}: {what}{reopen} ({reason})")
}

/// The match result: the winner and the points, or a tie.
fn finished(m: &Match, outcome: &MatchOutcome) -> String {
    match outcome.winner {
        Some(p) => format!(
            "match over: {} wins {}-{}",
            m.name(p),
            outcome.points[p.index()],
            outcome.points[p.other().index()]
        ),
        None => format!(
            "match over: tied {}-{}",
            outcome.points[0], outcome.points[1]
        ),
    }
}

/// "Ann called heads, the coin landed tails: Bob won the toss" (`sides`: called, landed).
fn coin_flipped(m: &Match, caller: Player, sides: [CoinSide; 2], winner: Player) -> String {
    format!(
        "{} called {}, the coin landed {}: {} won the toss",
        m.name(caller),
        coin_side(sides[0]),
        coin_side(sides[1]),
        m.name(winner)
    )
}

/// Who has Red in the first game, and whether the director assigned it.
fn colours_set(m: &Match, red: Player, by_director: bool) -> String {
    format!(
        "{} has Red in game 1 of ballot 1{}",
        m.name(red),
        if by_director {
            " (the director assigned it)"
        } else {
            ""
        }
    )
}

/// The director's time adjustment: how much was given or taken, what is left, and why.
fn time_adjusted(colour: Color, delta_ms: i64, remaining_ms: i64, reason: &str) -> String {
    format!(
        "director: {} {} {colour}'s clock, {} left ({reason})",
        if delta_ms < 0 { "took" } else { "gave" },
        format_clock(delta_ms.abs()),
        format_clock(remaining_ms)
    )
}

/// The director's undoing of a decision: the result restored, or the game reopened.
fn decision_undone(
    (ballot, game): (u32, u8),
    undone: &GameResult,
    restored: Option<&GameResult>,
    reason: &str,
) -> String {
    match restored {
        Some(r) => format!(
            "director: undid \"{undone}\" on game {ballot}.{game}: back to \"{r}\" ({reason})"
        ),
        None => format!(
            "director: undid \"{undone}\": game {ballot}.{game} reopened, clocks paused ({reason})"
        ),
    }
}

/// A side of the coin: "heads", "tails".
pub fn coin_side(c: CoinSide) -> &'static str {
    match c {
        CoinSide::Heads => "heads",
        CoinSide::Tails => "tails",
    }
}

/// A concealed hand: "left", "right".
fn hand_name(h: Hand) -> &'static str {
    match h {
        Hand::Left => "left",
        Hand::Right => "right",
    }
}

/// Why extra ballot `ballot` is played: "Tied 2-2 after ballot 1: ballot 2 is drawn to decide
/// the match" (the tie rule "continue ballot by ballot until decided"); the one sentence of the
/// results screen and the match log.
pub fn tie_block(m: &Match, ballot: u32) -> String {
    let before = ballot.saturating_sub(1);
    let [a, b] = m.score().after_ballot(before);
    format!("Tied {a}-{b} after ballot {before}: ballot {ballot} is drawn to decide the match")
}

/// A clock reading: `H:MM:SS` from an hour, `M:SS` from ten seconds, `S.t` below.
pub fn format_clock(ms: i64) -> String {
    let ms = ms.max(0);
    if ms < 10_000 {
        format!("{}.{}", ms / 1000, (ms % 1000) / 100)
    } else {
        let s = ms / 1000;
        if s >= 3600 {
            format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
        } else {
            format!("{}:{:02}", s / 60, s % 60)
        }
    }
}
