//! `crossboard bench publish`: an event the size of the 11-Man Nationals (three divisions, 40
//! players, 12 two-game rounds, every board played on crossboard and its match file linked)
//! published as a static site: the first publish (every file written) and a second with
//! nothing changed (every file compared, none written).

use crate::director::{Command, Match, MatchSettings, Now, Player};
use crate::engine::Color;
use crate::event::{
    Action, BoardGameResult, BoardResult, DivisionSettings, EventInfo, Format, PlayerInfo,
    ScoreUnit, match_settings, propose,
};
use crate::store::{Desk, Entrant, MatchStore, OpenEvent};
use rand::SeedableRng;
use std::path::Path;
use std::time::Instant;

type Failure = Box<dyn std::error::Error>;

/// The divisions: name and players (40 in all).
const DIVISIONS: [(&str, u32); 3] = [("Masters", 14), ("Majors", 13), ("Minors", 13)];
const ROUNDS: u32 = 12;
/// Plies of each game before it is resigned.
const PLIES: usize = 50;

fn at(t0: chrono::DateTime<chrono::Utc>, n: &mut i64) -> Now {
    *n += 1;
    Now {
        mono_ms: (*n * 1000) as u64,
        wall: t0 + chrono::TimeDelta::seconds(*n),
    }
}

/// A board's match: two games of `PLIES` plies (each side's first legal move), each then
/// resigned, written to `file`.
fn play_board(
    s: MatchSettings,
    file: &Path,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Result<(), Failure> {
    let t0 = chrono::Utc::now() - chrono::TimeDelta::days(1);
    let mut n = 0;
    let mut m = Match::new(s, at(t0, &mut n))?;
    let mut store = MatchStore::create(file, &m)?;
    let assign = Command::AssignColour {
        player: Player::First,
        colour: Color::Red,
    };
    m.apply(assign, at(t0, &mut n), rng)?;
    m.apply(Command::DrawBallot, at(t0, &mut n), rng)?;
    for _ in 0..2 {
        m.apply(Command::StartGame, at(t0, &mut n), rng)?;
        for _ in 0..PLIES {
            let Some(g) = m.playing() else { break };
            let pos = *g.game.position();
            let Some(&mv) = pos.legal_moves().first() else {
                break;
            };
            m.apply(
                Command::PlayMove {
                    colour: pos.turn(),
                    mv,
                },
                at(t0, &mut n),
                rng,
            )?;
        }
        if let Some(g) = m.playing() {
            let colour = g.game.position().turn();
            m.apply(Command::Resign { colour }, at(t0, &mut n), rng)?;
        }
    }
    store.save(&m)?;
    Ok(())
}

/// The event, in the database `db`, its match files beside it.
fn nationals(db: &Path) -> Result<(), Failure> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let now = chrono::Utc::now() - chrono::TimeDelta::days(1);
    let mut desk = Desk::open(db)?;
    let info = EventInfo {
        name: "11-Man Nationals".into(),
        ..EventInfo::default()
    };
    let mut open = desk.create_event(&info, now)?;
    for (d, (name, players)) in DIVISIONS.into_iter().enumerate() {
        let settings = DivisionSettings::new(
            Format::RoundRobin { cycles: 1 },
            2,
            crate::director::GamePoints::OneHalfZero,
            ScoreUnit::Game,
        );
        let add = Action::AddDivision {
            name: name.into(),
            settings,
        };
        desk.record(&mut open, &[add], now)?;
        let entries: Vec<Entrant> = (1..=players)
            .map(|p| Entrant::New(PlayerInfo::named(&format!("{name} player {p}"))))
            .collect();
        desk.enter_players(&mut open, d, &entries, now)?;
        for round in 1..=ROUNDS {
            play_round(&mut desk, &mut open, d, round, db, &mut rng)?;
        }
    }
    Ok(())
}

fn play_round(
    desk: &mut Desk,
    open: &mut OpenEvent,
    d: usize,
    round: u32,
    db: &Path,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Result<(), Failure> {
    let now = chrono::Utc::now() - chrono::TimeDelta::days(1);
    let pair = propose(d, &open.event.divisions[d])?;
    desk.record(open, &[pair], now)?;
    let draws = crate::event::draw_ballots(d, &open.event.divisions[d], round, rng)?;
    desk.record(open, &[draws], now)?;
    let division = &open.event.divisions[d];
    let r = division.round(round).ok_or("round not paired")?;
    let mut actions = Vec::new();
    for b in &r.boards {
        let s = match_settings(
            &MatchSettings::default(),
            "11-Man Nationals",
            division,
            round,
            b,
        )?;
        let file = db.with_file_name(format!("d{d}-r{round}-b{}.jsonl", b.number));
        play_board(s, &file, rng)?;
        actions.push(Action::LinkMatch {
            division: d,
            round,
            board: b.number,
            file: file.display().to_string(),
        });
        let games = vec![BoardGameResult::Draw, BoardGameResult::Draw];
        actions.push(Action::Result {
            division: d,
            round,
            board: b.number,
            result: BoardResult::Games { games },
        });
    }
    desk.record(open, &actions, now)?;
    Ok(())
}

/// The figures, one line each; `cpu` reads the process's CPU seconds.
pub fn bench_publish(cpu: &dyn Fn() -> Option<f64>) -> Result<Vec<String>, Failure> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("nationals.sqlite3");
    nationals(&db)?;
    let out = dir.path().join("site");
    let mut lines = Vec::new();
    for what in [
        "first publish (every file written)",
        "second publish (nothing changed)",
    ] {
        let source = super::Source {
            db: Some(db.clone()),
            ..super::Source::default()
        };
        let (c0, t0) = (cpu(), Instant::now());
        let report = super::publish_site(source, super::Delay::default(), &out)?;
        let wall = t0.elapsed().as_secs_f64();
        let used = match (c0, cpu()) {
            (Some(a), Some(b)) => format!(", CPU {:.2} s", b - a),
            _ => String::new(),
        };
        lines.push(format!(
            "publish the 11-Man Nationals (3 divisions, 40 players, 12 rounds, {} files), {what}: {wall:.2} s wall{used}; {} written (target < 2 s)",
            report.files, report.written
        ));
    }
    Ok(lines)
}
