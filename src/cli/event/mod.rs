//! `crossboard event ...`: the tournament desk for scripts. Every command that changes an
//! event is one transaction in the desk's database and prints `recorded: ...` only once it is
//! committed.
//!
//! Here the command's arguments and its dispatch; the subcommands' arguments are in `args`,
//! those that change the desk in `record`, those that read it in `output`,
//! what a federation is sent in `federation`, the prize list in `prizes`, an entry list
//! imported in `import`, the static site in `publish`.

mod args;
mod bye;
mod federation;
mod import;
mod output;
mod prizes;
mod publish;
mod record;

use super::CliResult;
use crate::event::EventError;
use crate::event::{Action, PlayerInfo};
use crate::store::{Desk, OpenEvent, default_db_path};
use args::{Cmd, PlayerCmd};
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

/// Run `crossboard event`.
pub(super) fn run(args: Args) -> CliResult {
    let path = args
        .db
        .or_else(default_db_path)
        .ok_or("no data folder on this machine: pass --db FILE")?;
    // Only the commands that make something new make the database; the others need it.
    let creates = matches!(
        args.command,
        Cmd::New(_)
            | Cmd::Player {
                command: PlayerCmd::Add { .. }
            }
    );
    let desk = if creates {
        Desk::open(&path)?
    } else {
        Desk::open_existing(&path)?
    };
    let mut ctx = Ctx { desk };
    match args.command {
        Cmd::New(a) => record::new_event(&mut ctx, a),
        Cmd::List => output::list_events(&ctx),
        Cmd::Division(a) => record::add_division(&mut ctx, &a),
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
            record::add_player(&mut ctx, info)
        }
        Cmd::Player {
            command: PlayerCmd::List,
        } => output::list_players(&ctx),
        Cmd::Enter(a) => record::enter(&mut ctx, a),
        Cmd::Import(a) => import::import(&mut ctx, &a),
        Cmd::Withdraw(a) => record::withdraw(&mut ctx, a),
        Cmd::Absent(a) => record::absent(&mut ctx, a),
        Cmd::Bye(a) => bye::bye(&mut ctx, a),
        Cmd::Pair(a) => record::pair(&mut ctx, a),
        Cmd::Swap(a) => record::swap(&mut ctx, a),
        Cmd::Result(a) => record::result(&mut ctx, a),
        Cmd::Pdn(a) => record::attach_pdn(&mut ctx, a),
        Cmd::Match(a) => record::match_file(&mut ctx, a),
        Cmd::Token(a) => board_token(&ctx, &a),
        Cmd::Resync(a) => resync(&ctx, &a),
        Cmd::Pairings(a) => output::pairings(&ctx, &a),
        Cmd::Why(a) => output::explain(&ctx, &a),
        Cmd::Standings(a) => output::standings(&ctx, &a),
        Cmd::Export(a) => output::export(&ctx, &a),
        Cmd::Ratings(a) => federation::ratings(&ctx, &a),
        Cmd::Prize(a) => prizes::set(&mut ctx, &a),
        Cmd::Prizes(a) => prizes::show(&ctx, &a),
        Cmd::Sheets(a) => output::sheets(&ctx, &a),
        Cmd::Publish(a) => publish::publish(ctx.desk.path().to_path_buf(), a),
    }
}

/// `event token`: a new random token for a board, or with `--director` for the event's
/// director, its digest kept beside the database.
fn board_token(ctx: &Ctx, a: &args::NewTokenArgs) -> CliResult {
    let key = match (&a.division, a.round, a.board) {
        (Some(division), Some(round), Some(board)) if !a.director => {
            let (open, d) = ctx.division(&a.event, division)?;
            let div = &open.event.divisions[d];
            div.round(round)
                .and_then(|r| r.boards.iter().find(|b| b.number == board))
                .ok_or_else(|| format!("no board {board} in round {round} of {}", div.name))?;
            format!("{}/{}/{round}/{board}", open.event.info.name, d + 1)
        }
        _ => {
            let id = ctx.desk.find_event(&a.event)?;
            crate::store::director_key(&ctx.desk.load(id)?.event.info.name)
        }
    };
    let token = format!("{:032x}", rand::random::<u128>());
    crate::store::keep_board_token(ctx.desk.path(), &key, &token)?;
    outln!("{token}")?;
    if a.director {
        errln!("the director's page: serve's address followed by director?key={token}");
    }
    Ok(())
}

/// `event resync`: the desk's copy of a reporting board put aside, for the board to send its
/// file again from the first line (results recorded from the old copy stay: correct them with
/// `event result` if they differ).
fn resync(ctx: &Ctx, a: &args::TokenArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    let at = (d + 1, a.round, a.board);
    let name = &open.event.info.name;
    let aside = crate::store::archive_copy(ctx.desk.path(), name, at, now())?;
    let said = crate::publish::sentences::resync_text(a.round, a.board, aside.as_deref());
    outln!("{said}")?;
    Ok(())
}

fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
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
            outln!("{what}")?;
            return Ok((open, d));
        }
        self.desk.record(&mut open, &actions, now())?;
        outln!("recorded: {what}")?;
        Ok((open, d))
    }
}

/// A player of a division: registry id, or name (case-insensitive).
fn find_player(open: &OpenEvent, division: usize, who: &str) -> Result<u32, EventError> {
    open.event.divisions[division].find_player(who)
}
