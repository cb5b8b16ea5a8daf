//! `crossboard event ...`: the tournament desk for scripts. Every command that changes an
//! event is one transaction in the desk's database and prints `recorded: ...` only once it is
//! committed.

use super::CliResult;
use crate::director::{GamePoints, Points};
use crate::event::parse_list;
use crate::event::{
    Action, BallotMode, DivisionSettings, EventError, EventInfo, Format, PlayerInfo, ScoreUnit,
};
use crate::event::{by_hand, propose, swap_repeats, with_reason_note};
use crate::publish::sentences::{
    attached_text, ballot_text, by_hand_noted, parse_result, pdn_note, repeats_text, result_text,
    unpaired_note, why,
};
use crate::publish::{Published, pdn, trf};
use crate::store::write_atomic;
use crate::store::{Desk, Entrant, OpenEvent, default_db_path};
use clap::Subcommand;
use rand::SeedableRng;
use std::path::PathBuf;

/// Arguments of `crossboard event`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The desk's database (default: desk.sqlite3 in the data folder).
    #[arg(long, value_name = "FILE", global = true)]
    db: Option<PathBuf>,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Create an event.
    New {
        /// Its name.
        name: String,
        /// Where.
        #[arg(long, default_value = "")]
        site: String,
        /// First day (YYYY-MM-DD).
        #[arg(long, default_value = "")]
        start: String,
        /// Last day.
        #[arg(long, default_value = "")]
        end: String,
        /// The director.
        #[arg(long, default_value = "")]
        director: String,
    },
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
    Enter {
        /// The event (number or name).
        event: String,
        /// The division (name or number).
        division: String,
        /// Players.
        #[arg(required = true)]
        players: Vec<String>,
    },
    /// A player withdraws (not paired from the next round).
    Withdraw {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// The player.
        player: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// A player will miss a round.
    Absent {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// The player.
        player: String,
        /// The round.
        round: u32,
    },
    /// Pair the next round and draw its ballots (or pair it by hand: `--board A B` for each
    /// board, `--bye C` if the number is odd, and `--reason`).
    Pair {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// Seed of the ballot draw (default: the time).
        #[arg(long)]
        seed: Option<u64>,
        /// A board paired by hand: the first player (Red in game 1), then the second.
        #[arg(long, num_args = 2, value_names = ["FIRST", "SECOND"], action = clap::ArgAction::Append)]
        board: Vec<String>,
        /// The bye of a round paired by hand.
        #[arg(long, requires = "board")]
        bye: Option<String>,
        /// Why the round is paired by hand (required with --board).
        #[arg(long, requires = "board")]
        reason: Option<String>,
    },
    /// Exchange two players in the last round's pairing (the reason is logged).
    Swap {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// One player.
        a: String,
        /// The other.
        b: String,
        /// Why.
        #[arg(long)]
        reason: String,
        /// Exchange them even if it makes a rematch or gives a second bye (logged with the
        /// reason); without it such an exchange is refused, saying what it repeats.
        #[arg(long)]
        confirm: bool,
    },
    /// Enter a board's result: games as `1` (first won), `2`, `=`, `1f`/`2f` (forfeit), or
    /// `forfeit 1|2|none` for the whole round.
    Result {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result.
        result: String,
    },
    /// Attach a PDN file of a board's games.
    Pdn {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The PDN file.
        file: PathBuf,
    },
    /// A board played on crossboard: link its match file to the board and record the
    /// match's finished games as the board's result.
    Match {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The crossboard match file.
        file: PathBuf,
    },
    /// Print a round's pairings (default: the last).
    Pairings {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// The round.
        #[arg(long)]
        round: Option<u32>,
    },
    /// Why a player is paired as they are.
    Why {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// The player.
        player: String,
        /// The round (default: the last).
        #[arg(long)]
        round: Option<u32>,
    },
    /// Print the standings and crosstable.
    Standings {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// After this round (default: all).
        #[arg(long)]
        round: Option<u32>,
    },
    /// Publish: crosstable as text, csv or html; pairings as trf; games as pdn.
    Export {
        /// The event.
        event: String,
        /// The division.
        division: String,
        /// text, csv, html, trf or pdn.
        #[arg(long, default_value = "html")]
        format: String,
        /// For pdn: one round only.
        #[arg(long)]
        round: Option<u32>,
        /// The file (`-`: standard output).
        #[arg(long, short)]
        out: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
enum PlayerCmd {
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
struct DivisionArgs {
    /// The event.
    event: String,
    /// The division's name.
    name: String,
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
}

fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
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

fn division_settings(a: &DivisionArgs) -> Result<DivisionSettings, String> {
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
    s.validate().map_err(|e| e.to_string())?;
    Ok(s)
}

/// Why a command failed: its message.
type Failure = Box<dyn std::error::Error>;

/// What a director's command records: its actions and the sentence printed once committed.
type Recorded = Result<(Vec<Action>, String), Failure>;

struct Ctx {
    desk: Desk,
}

impl Ctx {
    fn event(&self, name: &str) -> Result<OpenEvent, Failure> {
        let id = self.desk.find_event(name)?;
        Ok(self.desk.load(id)?)
    }

    /// Event `event` read, and the index of its division `division`.
    fn division(&self, event: &str, division: &str) -> Result<(OpenEvent, usize), Failure> {
        let open = self.event(event)?;
        let d = open.event.find_division(division)?;
        Ok((open, d))
    }

    /// A director's command on `division` of `event`: `make` builds its actions and sentence
    /// from the event as read; they are recorded as one transaction and `recorded: SENTENCE`
    /// is printed only after the commit. The event as it is afterwards.
    fn act(
        &mut self,
        event: &str,
        division: &str,
        make: impl FnOnce(&OpenEvent, usize) -> Recorded,
    ) -> Result<(OpenEvent, usize), Failure> {
        let (mut open, d) = self.division(event, division)?;
        let (actions, what) = make(&open, d)?;
        if actions.is_empty() {
            // Nothing to change (the same result again): nothing is written.
            println!("{what}");
            return Ok((open, d));
        }
        self.desk.record(&mut open, &actions, now())?;
        println!("recorded: {what}");
        Ok((open, d))
    }
}

/// Link the crossboard match `file` to `board` of `round` and record its finished games.
fn link_match(open: &OpenEvent, d: usize, round: u32, board: u32, file: PathBuf) -> Recorded {
    let div = &open.event.divisions[d];
    let b = div
        .round(round)
        .and_then(|r| r.boards.iter().find(|b| b.number == board))
        .ok_or_else(|| format!("no board {board} in round {round} of {}", div.name))?;
    let m = crate::store::load_match(&file)
        .map_err(|e| e.to_string())?
        .the_match;
    let games = crate::event::board_result(&m, div, round, b)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let played = !games.is_empty();
    let result = crate::event::BoardResult::Games { games };
    let shown = result_text(Some(&result));
    let path = std::path::absolute(&file).unwrap_or(file);
    let mut actions = vec![Action::LinkMatch {
        division: d,
        round,
        board,
        file: path.display().to_string(),
    }];
    if played {
        actions.push(Action::Result {
            division: d,
            round,
            board,
            result,
        });
    }
    Ok((
        actions,
        format!(
            "round {round} board {board} from {}: {shown}",
            path.display()
        ),
    ))
}

/// A player of a division: registry id, or name (case-insensitive).
fn find_player(open: &OpenEvent, division: usize, who: &str) -> Result<u32, EventError> {
    open.event.divisions[division].find_player(who)
}

/// Run `crossboard event`.
#[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
pub(super) fn run(args: Args) -> CliResult {
    let path = args
        .db
        .or_else(default_db_path)
        .ok_or("no data folder on this machine: pass --db FILE")?;
    let mut ctx = Ctx {
        desk: Desk::open(&path)?,
    };
    match args.command {
        Cmd::New {
            name,
            site,
            start,
            end,
            director,
        } => {
            if name.trim().is_empty() {
                return Err("an event needs a name".into());
            }
            for (flag, day) in [("--start", &start), ("--end", &end)] {
                if !day.is_empty() && chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").is_err() {
                    return Err(format!("{flag} {day:?}: a day is YYYY-MM-DD (2026-05-15)").into());
                }
            }
            if !start.is_empty() && !end.is_empty() && end < start {
                return Err(format!("--end {end} is before --start {start}").into());
            }
            let info = EventInfo {
                name,
                site,
                start_date: start,
                end_date: end,
                director,
                game: "English draughts".into(),
            };
            let open = ctx.desk.create_event(&info, now())?;
            println!("recorded: event {} {:?}", open.id, info.name);
        }
        Cmd::List => {
            for e in ctx.desk.events()? {
                println!(
                    "{}\t{}\t{}\t{} actions",
                    e.id, e.name, e.created_at, e.actions
                );
            }
        }
        Cmd::Division(a) => {
            let settings = division_settings(&a)?;
            let mut open = ctx.event(&a.event)?;
            let action = Action::AddDivision {
                name: a.name.clone(),
                settings,
            };
            ctx.desk.record(&mut open, &[action], now())?;
            println!("recorded: division {:?}", a.name);
        }
        Cmd::Player {
            command:
                PlayerCmd::Add {
                    name,
                    club,
                    region,
                    ids,
                    rating,
                },
        } => {
            let info = PlayerInfo {
                name,
                club,
                region,
                federation_ids: ids,
                rating,
            };
            let id = ctx.desk.add_player(&info, now())?;
            println!("recorded: player {id} {:?}", info.name);
        }
        Cmd::Player {
            command: PlayerCmd::List,
        } => {
            for (id, p) in ctx.desk.players()? {
                let rating = p.rating.map_or(String::new(), |r| r.to_string());
                println!(
                    "{id}\t{}\t{}\t{}\t{}\t{rating}",
                    p.name, p.club, p.region, p.federation_ids
                );
            }
        }
        Cmd::Enter {
            event,
            division,
            players,
        } => {
            let (mut open, d) = ctx.division(&event, &division)?;
            let registry = ctx.desk.players()?;
            // Every name resolved first, then one transaction: a refused entry enters nobody.
            let mut entries = Vec::with_capacity(players.len());
            for who in &players {
                let who = who.trim();
                let known = match who.parse::<u32>() {
                    Ok(id) => Some(registry.iter().find(|(i, _)| *i == id).ok_or(format!(
                        "no player {id} in the registry (crossboard event player list)"
                    ))?),
                    Err(_) => registry
                        .iter()
                        .find(|(_, p)| p.name.eq_ignore_ascii_case(who)),
                };
                entries.push(match known {
                    Some((id, info)) => Entrant::Registered(*id, info.clone()),
                    None => Entrant::New(PlayerInfo::named(who)),
                });
            }
            let ids = ctx.desk.enter_players(&mut open, d, &entries, now())?;
            for (entry, id) in entries.iter().zip(ids) {
                match entry {
                    Entrant::Registered(_, info) => {
                        println!("recorded: {} entered (player {id})", info.name)
                    }
                    Entrant::New(info) => {
                        println!(
                            "recorded: {} registered and entered (player {id})",
                            info.name
                        )
                    }
                }
            }
        }
        Cmd::Withdraw {
            event,
            division,
            player,
            reason,
        } => {
            ctx.act(&event, &division, |open, d| {
                let player_id = find_player(open, d, &player)?;
                let action = Action::Withdraw {
                    division: d,
                    player: player_id,
                    reason,
                };
                Ok((vec![action], format!("{player} withdrawn")))
            })?;
        }
        Cmd::Absent {
            event,
            division,
            player,
            round,
        } => {
            ctx.act(&event, &division, |open, d| {
                let player_id = find_player(open, d, &player)?;
                open.event.divisions[d].absence_round(round)?;
                let action = Action::Absent {
                    division: d,
                    player: player_id,
                    round,
                };
                Ok((vec![action], format!("{player} absent in round {round}")))
            })?;
        }
        Cmd::Pair {
            event,
            division,
            seed,
            board,
            bye,
            reason,
        } => {
            let (open, d) = ctx.act(&event, &division, |open, d| {
                open.event.divisions[d].round_to_pair()?;
                let (pair, note) = if board.is_empty() {
                    let pair = match propose(d, &open.event.divisions[d]) {
                        Ok(p) => p,
                        // No pairing the engine may make: the director's command, spelled out.
                        Err(e @ EventError::Pairing(_)) => {
                            let q = |s: &str| {
                                if s.is_empty() || s.contains(char::is_whitespace) {
                                    format!("{s:?}")
                                } else {
                                    s.to_string()
                                }
                            };
                            return Err(format!(
                                "{e}: pair it by hand: crossboard event pair {} {} --board FIRST \
                                 SECOND [--board FIRST SECOND ...] [--bye NAME] --reason WHY",
                                q(&event),
                                q(&division)
                            )
                            .into());
                        }
                        Err(e) => return Err(e.into()),
                    };
                    (pair, String::new())
                } else {
                    let boards = board
                        .chunks(2)
                        .map(|p| Ok((find_player(open, d, &p[0])?, find_player(open, d, &p[1])?)))
                        .collect::<Result<Vec<_>, EventError>>()?;
                    let bye = bye
                        .as_deref()
                        .map(|b| find_player(open, d, b))
                        .transpose()?;
                    let why = reason.as_deref().unwrap_or("");
                    let div = &open.event.divisions[d];
                    // What it repeats is said and logged with the reason.
                    by_hand_noted(div, by_hand(d, div, boards, bye, why)?)
                };
                let mut after = open.event.clone();
                after.apply(&pair)?;
                let round = after.divisions[d].paired_rounds();
                let seed = seed.unwrap_or_else(|| now().timestamp_nanos_opt().unwrap_or(0) as u64);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let ballots = crate::event::draw_ballots(d, &after.divisions[d], round, &mut rng)?;
                Ok((vec![pair, ballots], format!("round {round} paired{note}")))
            })?;
            print_pairings(&open, d, open.event.divisions[d].paired_rounds());
        }
        Cmd::Swap {
            event,
            division,
            a,
            b,
            reason,
            confirm,
        } => {
            let (open, d) = ctx.act(&event, &division, |open, d| {
                let (pa, pb) = (find_player(open, d, &a)?, find_player(open, d, &b)?);
                let div = &open.event.divisions[d];
                let (mut action, repeats) = swap_repeats(d, div, pa, pb, &reason)?;
                let round = div.paired_rounds();
                let mut what = format!("{a} and {b} exchanged in round {round}");
                if !repeats.is_empty() {
                    let said = repeats_text(div, &repeats);
                    if !confirm {
                        return Err(format!(
                            "{said}: add --confirm to exchange them anyway (logged with the reason)"
                        )
                        .into());
                    }
                    action = with_reason_note(action, &format!("confirmed: {said}"));
                    what.push_str(&format!(" (confirmed: {said})"));
                }
                Ok((vec![action], what))
            })?;
            print_pairings(&open, d, open.event.divisions[d].paired_rounds());
        }
        Cmd::Result {
            event,
            division,
            round,
            board,
            result,
        } => {
            ctx.act(&event, &division, |open, d| {
                let div = &open.event.divisions[d];
                let result = parse_result(&result, div.settings.games_per_round)?;
                let shown = result_text(Some(&result));
                let had = div
                    .round(round)
                    .and_then(|r| r.board(board))
                    .and_then(|b| b.result.clone());
                if had.as_ref() == Some(&result) {
                    return Ok((
                        Vec::new(),
                        format!("unchanged: round {round} board {board} already has {shown}"),
                    ));
                }
                // A correction says what it replaces, and that a later round keeps its pairing.
                let mut what = format!("round {round} board {board}: {shown}");
                if let Some(old) = &had {
                    what.push_str(&format!(" (replaces {})", result_text(Some(old))));
                }
                if div.paired_rounds() > round {
                    what.push_str(&format!(
                        "; round {} was paired before this result and keeps its pairing",
                        round + 1
                    ));
                }
                let action = Action::Result {
                    division: d,
                    round,
                    board,
                    result,
                };
                Ok((vec![action], what))
            })?;
        }
        Cmd::Pdn {
            event,
            division,
            round,
            board,
            file,
        } => {
            ctx.act(&event, &division, |_, d| {
                let (text, games) = crate::store::board_pdn(&file)?;
                let action = Action::AttachPdn {
                    division: d,
                    round,
                    board,
                    pdn: text,
                };
                Ok((vec![action], attached_text(games, round, board)))
            })?;
        }
        Cmd::Match {
            event,
            division,
            round,
            board,
            file,
        } => {
            ctx.act(&event, &division, |open, d| {
                link_match(open, d, round, board, file)
            })?;
        }
        Cmd::Pairings {
            event,
            division,
            round,
        } => {
            let (open, d) = ctx.division(&event, &division)?;
            let round = round.unwrap_or(open.event.divisions[d].paired_rounds());
            print_pairings(&open, d, round);
        }
        Cmd::Why {
            event,
            division,
            player,
            round,
        } => {
            let (open, d) = ctx.division(&event, &division)?;
            let p = find_player(&open, d, &player)?;
            let div = &open.event.divisions[d];
            let round = round.unwrap_or(div.paired_rounds());
            let r = div
                .round(round)
                .ok_or(format!("round {round} is not paired"))?;
            for line in why(div, r, p) {
                println!("{line}");
            }
        }
        Cmd::Standings {
            event,
            division,
            round,
        } => {
            let (open, d) = ctx.division(&event, &division)?;
            let p = Published::new(
                &open.event,
                &open.event.divisions[d],
                round.unwrap_or(u32::MAX),
            );
            print!("{}", p.text());
        }
        Cmd::Export {
            event,
            division,
            format,
            round,
            out,
        } => {
            let (open, d) = ctx.division(&event, &division)?;
            let div = &open.event.divisions[d];
            let p = Published::new(&open.event, div, u32::MAX);
            // What the file holds when it is not the whole story: no round yet, games left
            // out of the PDN.
            let mut notes: Vec<String> = unpaired_note(div).into_iter().collect();
            let text = match format.as_str() {
                "text" => p.text(),
                "csv" => p.csv(),
                "html" => p.html(),
                "trf" => trf(&open.event, div),
                "pdn" => {
                    let pdn = pdn(&open.event, div, round);
                    notes.insert(0, pdn_note(&pdn));
                    pdn.text
                }
                f => return Err(format!("--format {f:?}: use text, csv, html, trf or pdn").into()),
            };
            let notes = notes.join("; ");
            if out.as_os_str() == "-" {
                print!("{text}");
                if !notes.is_empty() {
                    eprintln!("{notes}");
                }
            } else {
                ctx.desk.check_output(&out)?;
                write_atomic(&out, text.as_bytes())
                    .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
                if notes.is_empty() {
                    println!("wrote {}", out.display());
                } else {
                    println!("wrote {}: {notes}", out.display());
                }
            }
        }
    }
    Ok(())
}

/// The round's boards: number, first (Red in game 1), second, result so far; the bye.
fn print_pairings(open: &OpenEvent, d: usize, round: u32) {
    let div = &open.event.divisions[d];
    let Some(r) = div.round(round) else {
        println!("round {round} is not paired");
        return;
    };
    println!("Round {round} of {}", div.planned_rounds());
    for b in &r.boards {
        println!(
            "{:>3}  {:<28} {:<28} {}",
            b.number,
            div.name(b.first),
            div.name(b.second),
            result_text(b.result.as_ref())
        );
    }
    if let Some(b) = r.bye {
        println!("bye  {}", div.name(b));
    }
    for (k, ballot) in r.ballots.iter().enumerate() {
        println!("ballot {}: {}", k + 1, ballot_text(&ballot.opening));
    }
}
