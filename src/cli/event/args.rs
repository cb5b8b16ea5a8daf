//! The arguments of `crossboard event`'s subcommands, and a division's settings read from them.

use crate::director::{GamePoints, Points};
use crate::event::parse_list;
use crate::event::{Acceleration, BallotMode, DivisionSettings, Format, ScoreUnit};
use clap::Subcommand;
use std::path::PathBuf;

// The subcommands of `crossboard event` (no doc comment: clap would take it as the help).
#[derive(Debug, Subcommand)]
pub(super) enum Cmd {
    /// Create an event.
    New(NewArgs),
    /// List the events.
    List,
    /// Add a division to an event.
    Division(Box<DivisionArgs>),
    /// The player registry: `player add NAME`, `player list`.
    Player {
        #[command(subcommand)]
        command: PlayerCmd,
    },
    /// Enter players (registry ids or names; a new name is registered) in a division.
    Enter(EnterArgs),
    /// Enter the players of a list (CSV with a header row: Name, ID, Rating, Club, State or
    /// Country), registering the new ones: a report first (each problem naming file, line and
    /// field), then all of them or, one problem, none.
    Import(super::import::ImportArgs),
    /// A player withdraws (not paired from the next round).
    Withdraw(WithdrawArgs),
    /// A player will miss a round.
    Absent(AbsentArgs),
    /// A requested bye: a player asks to sit out a round not yet paired (scored as the
    /// division's --bye-requested, by default half a won round); `--cancel` takes it back.
    Bye(super::bye::ByeArgs),
    /// Pair the next round and draw its ballots (or pair it by hand: `--board A B` for each
    /// board, `--bye C` if the number is odd, and `--reason`).
    Pair(PairArgs),
    /// Exchange two players in the last round's pairing (the reason is logged).
    Swap(SwapArgs),
    /// Enter a board's result: games as `1` (first won), `2`, `=`, `1f`/`2f` (forfeit), or
    /// `forfeit 1|2|none` for the whole round.
    Result(ResultArgs),
    /// Attach a PDN file of a board's games.
    Pdn(PdnArgs),
    /// A board played on crossboard: link its match file to the board and record the
    /// match's finished games as the board's result.
    Match(MatchArgs),
    /// A new token for a board that reports to the desk (`crossboard --desk URL
    /// --board-token T` on the board's laptop); the board's earlier token stops
    /// working. The desk keeps only its digest. `--director`: the event's director token, for
    /// serve's director page (`/director?key=TOKEN`).
    Token(NewTokenArgs),
    /// Re-sync a reporting board whose file diverged from the desk's copy: the copy is put
    /// aside (renamed, never deleted) and the board sends its file again from the first line.
    Resync(TokenArgs),
    /// Print a round's pairings (default: the last).
    Pairings(PairingsArgs),
    /// Why a player is paired as they are.
    Why(WhyArgs),
    /// Print the standings and crosstable.
    Standings(StandingsArgs),
    /// Publish: crosstable as text, csv or html; pairings as trf; games as pdn; the record a
    /// federation rates as acf or wcdf (a text report) or acf-csv or wcdf-csv (a row per game).
    Export(ExportArgs),
    /// Each player's rating change by the ACF's rating formula, from the rounds finished.
    Ratings(RatingsArgs),
    /// Set the division's prize list: add a prize (`place 100`, `class 1600-1799 50`,
    /// `under 1600 40`), how ties on points share (`--share equal|hort`), `--clear`.
    Prize(PrizeArgs),
    /// Print who wins which prize, beside the final standings.
    Prizes(PrizesArgs),
    /// Print-ready HTML of a round for the wall: its pairings, a result slip per board, a
    /// score sheet per board and ballot, or the crosstable after it (A4 or US Letter).
    Sheets(SheetsArgs),
    /// The event as a static site (pages, rounds, boards, standings, PDN, JSON) in a folder,
    /// for any static host or rsync: written whole beside it and swapped in, only what
    /// changed written.
    Publish(super::publish::PublishArgs),
}

// The arguments of `event new`.
#[derive(Debug, clap::Args)]
pub(super) struct NewArgs {
    /// Its name.
    pub(super) name: String,
    /// Where.
    #[arg(long, default_value = "")]
    pub(super) site: String,
    /// First day (YYYY-MM-DD).
    #[arg(long, default_value = "")]
    pub(super) start: String,
    /// Last day.
    #[arg(long, default_value = "")]
    pub(super) end: String,
    /// The director.
    #[arg(long, default_value = "")]
    pub(super) director: String,
}

// The arguments of `event enter`.
#[derive(Debug, clap::Args)]
pub(super) struct EnterArgs {
    /// The event (number or name).
    pub(super) event: String,
    /// The division (name or number).
    pub(super) division: String,
    /// Players.
    #[arg(required = true)]
    pub(super) players: Vec<String>,
}

// The arguments of `event withdraw`.
#[derive(Debug, clap::Args)]
pub(super) struct WithdrawArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The player.
    pub(super) player: String,
    /// Why.
    #[arg(long)]
    pub(super) reason: String,
}

// The arguments of `event absent`.
#[derive(Debug, clap::Args)]
pub(super) struct AbsentArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The player.
    pub(super) player: String,
    /// The round.
    pub(super) round: u32,
}

// The arguments of `event pair`.
#[derive(Debug, clap::Args)]
pub(super) struct PairArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// Seed of the ballot draw (default: the time).
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// A board paired by hand: the first player (Red in game 1), then the second.
    #[arg(long, num_args = 2, value_names = ["FIRST", "SECOND"], action = clap::ArgAction::Append)]
    pub(super) board: Vec<String>,
    /// The bye of a round paired by hand.
    #[arg(long, requires = "board")]
    pub(super) bye: Option<String>,
    /// Why the round is paired by hand (required with --board).
    #[arg(long, requires = "board")]
    pub(super) reason: Option<String>,
}

// The arguments of `event swap`.
#[derive(Debug, clap::Args)]
pub(super) struct SwapArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// One player.
    pub(super) a: String,
    /// The other.
    pub(super) b: String,
    /// Why.
    #[arg(long)]
    pub(super) reason: String,
    /// Exchange them even if it makes a rematch or gives a second bye (logged with the
    /// reason); without it such an exchange is refused, saying what it repeats.
    #[arg(long)]
    pub(super) confirm: bool,
}

// The arguments of `event result`.
#[derive(Debug, clap::Args)]
pub(super) struct ResultArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The round.
    pub(super) round: u32,
    /// The board.
    pub(super) board: u32,
    /// The result.
    pub(super) result: String,
}

// The arguments of `event pdn`.
#[derive(Debug, clap::Args)]
pub(super) struct PdnArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The round.
    pub(super) round: u32,
    /// The board.
    pub(super) board: u32,
    /// The PDN file.
    pub(super) file: PathBuf,
    /// Attach it although it is not the board's games (other players, ballot or number of
    /// games): why (logged, and printed with the games in the export).
    #[arg(long = "override", value_name = "REASON")]
    pub(super) override_reason: Option<String>,
}

// The arguments of `event match`.
#[derive(Debug, clap::Args)]
pub(super) struct MatchArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The round.
    pub(super) round: u32,
    /// The board.
    pub(super) board: u32,
    /// The crossboard match file.
    pub(super) file: PathBuf,
}

// The arguments of `event token`: a board, or `--director`.
#[derive(Debug, clap::Args)]
pub(super) struct NewTokenArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    #[arg(required_unless_present = "director")]
    pub(super) division: Option<String>,
    /// The round.
    #[arg(required_unless_present = "director")]
    pub(super) round: Option<u32>,
    /// The board.
    #[arg(required_unless_present = "director")]
    pub(super) board: Option<u32>,
    /// The event's director token instead, for serve's director page (a new one replaces
    /// the old).
    #[arg(long, conflicts_with_all = ["division", "round", "board"])]
    pub(super) director: bool,
}

// The arguments of `event resync`: a board.
#[derive(Debug, clap::Args)]
pub(super) struct TokenArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The round.
    pub(super) round: u32,
    /// The board.
    pub(super) board: u32,
}

// The arguments of `event pairings`.
#[derive(Debug, clap::Args)]
pub(super) struct PairingsArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The round.
    #[arg(long)]
    pub(super) round: Option<u32>,
}

// The arguments of `event why`.
#[derive(Debug, clap::Args)]
pub(super) struct WhyArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The player.
    pub(super) player: String,
    /// The round (default: the last).
    #[arg(long)]
    pub(super) round: Option<u32>,
}

// The arguments of `event standings`.
#[derive(Debug, clap::Args)]
pub(super) struct StandingsArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// After this round (default: the last round whose results are all in).
    #[arg(long)]
    pub(super) round: Option<u32>,
}

// The arguments of `event export`.
#[derive(Debug, clap::Args)]
pub(super) struct ExportArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// text, csv, html, trf, pdn, acf, wcdf, acf-csv or wcdf-csv.
    #[arg(long, default_value = "html")]
    pub(super) format: String,
    /// For pdn: one round only.
    #[arg(long)]
    pub(super) round: Option<u32>,
    /// For acf and wcdf: write the record even if players lack an id, a full name or a
    /// region, or results are missing (the report lists what is missing).
    #[arg(long)]
    pub(super) allow_incomplete: bool,
    /// The file (`-`: standard output).
    #[arg(long, short)]
    pub(super) out: PathBuf,
}

// The arguments of `event ratings`.
#[derive(Debug, clap::Args)]
pub(super) struct RatingsArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
}

// The arguments of `event prize`.
#[derive(Debug, clap::Args)]
pub(super) struct PrizeArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The prize to add: `place AMOUNT`, `class LOW-HIGH AMOUNT` or `under RATING AMOUNT`.
    pub(super) prize: Vec<String>,
    /// How players level on points share: equal or hort.
    #[arg(long)]
    pub(super) share: Option<String>,
    /// Remove every prize first.
    #[arg(long)]
    pub(super) clear: bool,
}

// The arguments of `event prizes`.
#[derive(Debug, clap::Args)]
pub(super) struct PrizesArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
}

// The arguments of `event sheets`.
#[derive(Debug, clap::Args)]
pub(super) struct SheetsArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The round (the crosstable: after it).
    pub(super) round: u32,
    /// pairings, slips, scoresheet or crosstable.
    #[arg(long)]
    pub(super) kind: String,
    /// The paper: a4 or letter.
    #[arg(long, default_value = "a4")]
    pub(super) paper: String,
    /// The file (`-`: standard output).
    #[arg(long, short)]
    pub(super) out: PathBuf,
    /// The address `crossboard serve` answers at in the hall, for the result form's QR codes
    /// (default: this machine's first address in the hall, port 8080).
    #[arg(long, value_name = "URL")]
    pub(super) desk_url: Option<String>,
}

// The subcommands of `crossboard event player`.
#[derive(Debug, Subcommand)]
pub(super) enum PlayerCmd {
    /// Register a player.
    Add {
        /// Full name.
        name: String,
        /// Club.
        #[arg(long, default_value = "")]
        club: String,
        /// State or country.
        #[arg(long, default_value = "")]
        region: String,
        /// Federation ids.
        #[arg(long, default_value = "")]
        ids: String,
        /// Rating.
        #[arg(long)]
        rating: Option<u32>,
    },
    /// List the registry.
    List,
}

#[derive(Debug, clap::Args)]
pub(super) struct DivisionArgs {
    /// The event.
    pub(super) event: String,
    /// The division's name.
    pub(super) name: String,
    /// `swiss:N` (N rounds), `rr` (round robin) or `drr` (double round robin).
    #[arg(long, default_value = "swiss:5")]
    format: String,
    /// Games per round on each board (2 = one ballot, colours reversed).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// The game every board plays: english, pool, huffing or losing.
    #[arg(long, default_value = "english")]
    game: String,
    /// Points for a win: 1 (1/½/0), 2 (2/1/0) or 4 (4/2/0).
    #[arg(long, default_value_t = 1)]
    win: u32,
    /// What is scored: game, ballot or round.
    #[arg(long, default_value = "game")]
    unit: String,
    /// Tie-breaks: a preset (apca, icaona, mso) or a list (wins,h2h,buchholz,...).
    #[arg(long, default_value = "icaona")]
    tiebreaks: String,
    /// Opening system.
    #[arg(long, default_value = "eleven-man")]
    system: String,
    /// Redraw ballots that lose a man at once.
    #[arg(long)]
    exclude_man_down: bool,
    /// Redraw 11-man positions KingsRow classes lost.
    #[arg(long)]
    exclude_kingsrow_lost: bool,
    /// One ballot per round or per board.
    #[arg(long, default_value = "round")]
    ballots: String,
    /// Time control (as in the match set-up: 30/60, 20+5, ...).
    #[arg(long)]
    time: Option<String>,
    /// Points of a first bye (default: a won round), e.g. 1.5.
    #[arg(long)]
    bye_first: Option<String>,
    /// Points of a later bye.
    #[arg(long)]
    bye_later: Option<String>,
    /// Points of a forfeit win.
    #[arg(long)]
    forfeit_win: Option<String>,
    /// Points of a forfeit loss.
    #[arg(long)]
    forfeit_loss: Option<String>,
    /// Points of an absence.
    #[arg(long)]
    absent: Option<String>,
    /// Points of a requested bye (default: half a won round).
    #[arg(long)]
    bye_requested: Option<String>,
    /// Accelerated pairings of a Swiss: none, or baku (the Baku Acceleration Method).
    #[arg(long, default_value = "none")]
    acceleration: String,
}

/// Points typed as `3`, `1.5` or `2½`.
fn parse_points(text: &str) -> Result<Points, String> {
    let t = text.trim().replace('½', ".5");
    let bad = || format!("{text:?} is not a number of points (3, 1.5)");
    let (whole, frac) = t.split_once('.').unwrap_or((&t, "0"));
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let half = match frac {
        "0" | "" => 0,
        "5" => 1,
        _ => return Err(bad()),
    };
    whole
        .checked_mul(2)
        .and_then(|w| w.checked_add(half))
        .map(Points)
        .ok_or_else(bad)
}

/// A division's settings from its arguments, checked.
pub(super) fn division_settings(a: &DivisionArgs) -> Result<DivisionSettings, String> {
    let format = match a.format.trim() {
        "rr" => Format::RoundRobin { cycles: 1 },
        "drr" => Format::RoundRobin { cycles: 2 },
        f => match f.strip_prefix("swiss:").map(str::parse::<u32>) {
            Some(Ok(rounds)) => Format::Swiss { rounds },
            _ => return Err(format!("--format {f:?}: use swiss:N, rr or drr")),
        },
    };
    let game = match a.win {
        1 => GamePoints::OneHalfZero,
        2 => GamePoints::TwoOneZero,
        4 => GamePoints::Apca,
        w => return Err(format!("--win {w}: use 1, 2 or 4")),
    };
    let unit = match a.unit.as_str() {
        "game" => ScoreUnit::Game,
        "ballot" => ScoreUnit::Ballot,
        "round" => ScoreUnit::Round,
        u => return Err(format!("--unit {u:?}: use game, ballot or round")),
    };
    let mut s = DivisionSettings::new(format, a.games, game, unit);
    s.game = a.game.parse().map_err(|e| format!("--game: {e}"))?;
    s.tiebreaks = parse_list(&a.tiebreaks).map_err(|e| e.to_string())?;
    s.openings.system = a.system.parse().map_err(|e| format!("--system: {e}"))?;
    s.openings.exclude_man_down = a.exclude_man_down;
    s.openings.exclude_kingsrow_lost = a.exclude_kingsrow_lost;
    s.ballots = match a.ballots.as_str() {
        "round" => BallotMode::OnePerRound,
        "board" => BallotMode::OnePerBoard,
        b => return Err(format!("--ballots {b:?}: use round or board")),
    };
    if let Some(t) = &a.time {
        s.time_control = t.parse().map_err(|e| format!("--time: {e}"))?;
    }
    let sc = &mut s.scoring;
    for (field, value) in [
        (&mut sc.first_bye, &a.bye_first),
        (&mut sc.later_bye, &a.bye_later),
        (&mut sc.forfeit_win, &a.forfeit_win),
        (&mut sc.forfeit_loss, &a.forfeit_loss),
        (&mut sc.absent, &a.absent),
    ] {
        if let Some(v) = value {
            *field = parse_points(v)?;
        }
    }
    if let Some(v) = &a.bye_requested {
        sc.requested_bye = Some(parse_points(v)?);
    }
    s.acceleration = match a.acceleration.as_str() {
        "none" => Acceleration::None,
        "baku" => Acceleration::Baku,
        x => return Err(format!("--acceleration {x:?}: use none or baku")),
    };
    s.validate().map_err(|e| e.to_string())?;
    Ok(s)
}
