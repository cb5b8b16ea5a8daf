//! The sentences of the match screens, built from the director's typed state and refusals
//! ([`Awaiting`], [`MatchError`]): the domain says what is the case, this file says it in
//! English, with the players' names.

use crate::director::{
    Awaiting, ClockError, ColourMethod, CommandKind, Decided, Match, MatchError, MatchOutcome,
    Player, StrengthRefusal, TextKind,
};

pub use crate::publish::coin_side;

/// What a command does, as the object of "cannot ... now": "draw a ballot", "play a move".
pub fn action(kind: CommandKind) -> &'static str {
    match kind {
        CommandKind::CallCoin => "call the coin",
        CommandKind::DrawColour => "draw from the bag",
        CommandKind::PickHand => "pick a hand",
        CommandKind::ChooseColour => "choose a colour",
        CommandKind::AssignColour => "assign colours",
        CommandKind::DrawBallot => "draw a ballot",
        CommandKind::Accept => "accept a ballot",
        CommandKind::Reject => "reject a ballot",
        CommandKind::StartGame => "start a game",
        CommandKind::Move => "play a move",
        CommandKind::OfferDraw => "offer a draw",
        CommandKind::AcceptDraw => "accept a draw",
        CommandKind::DeclineDraw => "decline a draw",
        CommandKind::ClaimDraw => "claim a draw",
        CommandKind::Huff => "huff a piece",
        CommandKind::Compel => "have the move taken back",
        CommandKind::AskStrengthCount => "ask for the strength count",
        CommandKind::ExtendStrengthCount => "grant 8 more moves",
        CommandKind::Resign => "resign",
        CommandKind::Tick => "check the clock",
        CommandKind::Forfeit => "declare a forfeit",
        CommandKind::Adjudicate => "adjudicate",
        CommandKind::UndoDecision => "undo a decision",
        CommandKind::TakeBack => "take back moves",
        CommandKind::PauseClocks => "pause the clocks",
        CommandKind::ResumeClocks => "resume the clocks",
        CommandKind::AdjustTime => "adjust the time",
        CommandKind::Note => "add a note",
    }
}

fn strength_refusal(why: StrengthRefusal) -> &'static str {
    match why {
        StrengthRefusal::NotPool => "the strength rule is a pool rule",
        StrengthRefusal::NotWeaker => "only the weaker side (king 2, man 1) asks for the count",
        StrengthRefusal::Running => "the strength count already runs",
        StrengthRefusal::NotRunning => "no strength count runs",
        StrengthRefusal::NotExtendable => {
            "8 more moves are granted once, under rule 27, when the 30 have run out"
        }
    }
}

fn method(m: ColourMethod) -> &'static str {
    match m {
        ColourMethod::CoinFlip => "a coin flip",
        ColourMethod::Bag => "drawing from a bag",
        ColourMethod::ConcealedHands => "concealed hands",
        ColourMethod::DirectorAssigns => "the director's assignment",
    }
}

/// The match result in one line: "Ann wins 7-5", "tied 6-6, Bob retains", "tied 6-6".
pub fn outcome(m: &Match, o: &MatchOutcome) -> String {
    let [a, b] = o.points;
    match (o.winner, o.decided) {
        (Some(p), Decided::HolderRetains) => format!("tied {a}-{b}, {} retains", m.name(p)),
        (Some(p), _) => format!("{} wins {a}-{b}", m.name(p)),
        (None, _) => format!("tied {a}-{b}"),
    }
}

/// What happens next, with names: "ballot 2: Bob (White) accepts or rejects".
pub fn awaiting(m: &Match, what: Awaiting) -> String {
    let n = |p: Player| m.name(p).to_string();
    match what {
        Awaiting::Toss(ColourMethod::CoinFlip) => "colour choice: a player calls the coin".into(),
        Awaiting::Toss(ColourMethod::Bag) => "colour choice: a player draws from the bag".into(),
        Awaiting::Toss(ColourMethod::ConcealedHands) => {
            "colour choice: a player picks a hand".into()
        }
        Awaiting::Toss(ColourMethod::DirectorAssigns) => {
            "colour choice: the director assigns colours".into()
        }
        Awaiting::ColourChoice(p) => format!("{} won the toss and chooses a colour", n(p)),
        Awaiting::BallotDraw(b) => format!("ballot {b}: draw the ballot"),
        Awaiting::Decision {
            ballot,
            colour,
            player,
        } => format!(
            "ballot {ballot}: {} ({colour}) accepts or rejects",
            n(player)
        ),
        Awaiting::GameStart { ballot, game } => {
            let red = m.red_in(ballot, game).unwrap_or(Player::First);
            format!(
                "ballot {ballot}, game {game}: {} (Red) v {} (White), start the clock",
                n(red),
                n(red.other())
            )
        }
        Awaiting::Move { colour, player } => {
            let (b, g) = m.game_id().unwrap_or((0, 0));
            format!("ballot {b}, game {g}: {} ({colour}) to move", n(player))
        }
        Awaiting::Resume => "clocks paused: the director resumes them".into(),
        Awaiting::Nothing => match m.outcome() {
            Some(o) => format!("match over: {}", outcome(m, o)),
            None => "match over".into(),
        },
    }
}

/// A one-line status: what the match waits for now.
pub fn status(m: &Match) -> String {
    awaiting(m, m.awaiting())
}

/// Why a command was refused, as a sentence for the status line.
pub fn refusal(m: &Match, e: &MatchError) -> String {
    match e {
        MatchError::NotNow { asked, awaiting: a } => {
            format!("cannot {} now: {}", action(*asked), awaiting(m, *a))
        }
        MatchError::NotYourTurn { expected, got } => {
            format!("it is {expected}'s turn, not {got}'s")
        }
        MatchError::WrongMethod(x) => format!("this match chooses colours by {}", method(*x)),
        MatchError::Paused => "the clocks are paused: resume them first".into(),
        MatchError::Move(e) => e.to_string(),
        MatchError::OfferPending(c) => format!("{c} has already offered a draw"),
        MatchError::NoOffer(c) => format!("there is no draw offer from {c}"),
        MatchError::NotClaimable => "no draw can be claimed in this position".into(),
        MatchError::TakeBack { asked, made } => {
            format!("cannot take back {asked} moves: {made} played")
        }
        MatchError::NothingToUndo => {
            "nothing to undo: the last game's result is not a director's decision".into()
        }
        MatchError::Clock(ClockError::NotPaused) => "the clocks are not paused".into(),
        MatchError::Clock(e) => e.to_string(),
        MatchError::Opening(e) => e.to_string(),
        MatchError::EmptyText(TextKind::Reason) => "a reason is needed".into(),
        MatchError::EmptyText(TextKind::Note) => "a note is needed".into(),
        MatchError::TooLong { what, chars, max } => format!(
            "the {} has {chars} characters: at most {max}",
            match what {
                TextKind::Reason => "reason",
                TextKind::Note => "note",
            }
        ),
        MatchError::AdjustTooLarge(_) => "an adjustment is at most a day either way".into(),
        MatchError::Settings(e) => e.to_string(),
        MatchError::Huff(e) => e.to_string(),
        MatchError::Strength(why) => strength_refusal(*why).into(),
    }
}
