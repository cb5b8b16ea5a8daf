//! The subcommands that change the desk: events, divisions, the registry, entries, pairings,
//! results. Each director's command is one transaction ([`Ctx::act`]).

use super::args::{
    AbsentArgs, DivisionArgs, EnterArgs, MatchArgs, NewArgs, PairArgs, PdnArgs, ResultArgs,
    SwapArgs, WithdrawArgs, division_settings,
};
use super::output::print_pairings;
use super::{Ctx, Recorded, find_player, now};
use crate::cli::CliResult;
use crate::event::{Action, EventError, EventInfo, PlayerInfo};
use crate::event::{by_hand, propose, swap_repeats, with_reason_note};
use crate::publish::sentences::{
    attached_text, by_hand_noted, parse_result, repeats_text, result_text,
};
use crate::store::{Entrant, OpenEvent};
use rand::SeedableRng;
use std::path::PathBuf;

/// `event new`: an event, its days checked.
pub(super) fn new_event(ctx: &mut Ctx, a: NewArgs) -> CliResult {
    let NewArgs {
        name,
        site,
        start,
        end,
        director,
    } = a;
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
    outln!("recorded: event {} {:?}", open.id, info.name)?;
    Ok(())
}

/// `event division`.
pub(super) fn add_division(ctx: &mut Ctx, a: &DivisionArgs) -> CliResult {
    let settings = division_settings(a)?;
    let mut open = ctx.event(&a.event)?;
    let action = Action::AddDivision {
        name: a.name.clone(),
        settings,
    };
    ctx.desk.record(&mut open, &[action], now())?;
    outln!("recorded: division {:?}", a.name)?;
    Ok(())
}

/// `event player add`.
pub(super) fn add_player(ctx: &mut Ctx, info: PlayerInfo) -> CliResult {
    let id = ctx.desk.add_player(&info, now())?;
    outln!("recorded: player {id} {:?}", info.name)?;
    Ok(())
}

/// `event enter`: every name resolved first, then one transaction: a refused entry enters
/// nobody.
pub(super) fn enter(ctx: &mut Ctx, a: EnterArgs) -> CliResult {
    let (mut open, d) = ctx.division(&a.event, &a.division)?;
    let registry = ctx.desk.players()?;
    let mut entries = Vec::with_capacity(a.players.len());
    for who in &a.players {
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
                outln!("recorded: {} entered (player {id})", info.name)?
            }
            Entrant::New(info) => outln!(
                "recorded: {} registered and entered (player {id})",
                info.name
            )?,
        }
    }
    Ok(())
}

/// `event withdraw`.
pub(super) fn withdraw(ctx: &mut Ctx, a: WithdrawArgs) -> CliResult {
    let WithdrawArgs {
        event,
        division,
        player,
        reason,
    } = a;
    ctx.act(&event, &division, |open, d| {
        let player_id = find_player(open, d, &player)?;
        let action = Action::Withdraw {
            division: d,
            player: player_id,
            reason,
        };
        Ok((vec![action], format!("{player} withdrawn")))
    })?;
    Ok(())
}

/// `event absent`: for a round of the division's plan.
pub(super) fn absent(ctx: &mut Ctx, a: AbsentArgs) -> CliResult {
    let AbsentArgs {
        event,
        division,
        player,
        round,
    } = a;
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
    Ok(())
}

/// `event pair`: the next round, by the engine or by hand, and its ballots; its pairings
/// printed.
pub(super) fn pair(ctx: &mut Ctx, a: PairArgs) -> CliResult {
    let (open, d) = ctx.act(&a.event, &a.division, |open, d| {
        open.event.divisions[d].round_to_pair()?;
        let (pair, note) = if a.board.is_empty() {
            (proposed(open, d, &a)?, String::new())
        } else {
            by_hand_pairing(open, d, &a)?
        };
        let mut after = open.event.clone();
        after.apply(&pair)?;
        let round = after.divisions[d].paired_rounds();
        let seed = a
            .seed
            .unwrap_or_else(|| now().timestamp_nanos_opt().unwrap_or(0) as u64);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let ballots = crate::event::draw_ballots(d, &after.divisions[d], round, &mut rng)?;
        Ok((vec![pair, ballots], format!("round {round} paired{note}")))
    })?;
    print_pairings(ctx, &open, d, open.event.divisions[d].paired_rounds())?;
    Ok(())
}

/// The engine's pairing of the next round; when it finds none, the director's command to
/// pair it by hand, spelled out.
fn proposed(open: &OpenEvent, d: usize, a: &PairArgs) -> Result<Action, super::Failure> {
    match propose(d, &open.event.divisions[d]) {
        Ok(p) => Ok(p),
        Err(e @ EventError::Pairing(_)) => {
            let q = |s: &str| {
                if s.is_empty() || s.contains(char::is_whitespace) {
                    format!("{s:?}")
                } else {
                    s.to_string()
                }
            };
            Err(format!(
                "{e}: pair it by hand: crossboard event pair {} {} --board FIRST \
                 SECOND [--board FIRST SECOND ...] [--bye NAME] --reason WHY",
                q(&a.event),
                q(&a.division)
            )
            .into())
        }
        Err(e) => Err(e.into()),
    }
}

/// The director's pairing from `--board` and `--bye`, and what it repeats (said and logged
/// with the reason).
fn by_hand_pairing(
    open: &OpenEvent,
    d: usize,
    a: &PairArgs,
) -> Result<(Action, String), EventError> {
    let boards = a
        .board
        .chunks(2)
        .map(|p| Ok((find_player(open, d, &p[0])?, find_player(open, d, &p[1])?)))
        .collect::<Result<Vec<_>, EventError>>()?;
    let bye = a
        .bye
        .as_deref()
        .map(|b| find_player(open, d, b))
        .transpose()?;
    let why = a.reason.as_deref().unwrap_or("");
    let div = &open.event.divisions[d];
    Ok(by_hand_noted(div, by_hand(d, div, boards, bye, why)?))
}

/// `event swap`: a rematch or a second bye only with `--confirm`; the pairings printed.
pub(super) fn swap(ctx: &mut Ctx, a: SwapArgs) -> CliResult {
    let SwapArgs {
        event,
        division,
        a,
        b,
        reason,
        confirm,
    } = a;
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
    print_pairings(ctx, &open, d, open.event.divisions[d].paired_rounds())?;
    Ok(())
}

/// `event result`: the same result again changes nothing; a correction says what it
/// replaces, and that a later round keeps its pairing.
pub(super) fn result(ctx: &mut Ctx, a: ResultArgs) -> CliResult {
    let ResultArgs {
        event,
        division,
        round,
        board,
        result,
    } = a;
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
    Ok(())
}

/// `event pdn`.
pub(super) fn attach_pdn(ctx: &mut Ctx, a: PdnArgs) -> CliResult {
    let PdnArgs {
        event,
        division,
        round,
        board,
        file,
        override_reason,
    } = a;
    ctx.act(&event, &division, |open, d| {
        let div = &open.event.divisions[d];
        let b = div
            .round(round)
            .and_then(|r| r.board(board))
            .ok_or_else(|| format!("no board {board} in round {round} of {}", div.name))?;
        let read = crate::store::read_attachment(&file, div, round, b)?;
        let games = read.games;
        let action = read.action(d, round, board, override_reason.as_deref())?;
        let said = attached_text(games, round, board, &action);
        Ok((vec![action], said))
    })?;
    Ok(())
}

/// `event match`.
pub(super) fn match_file(ctx: &mut Ctx, a: MatchArgs) -> CliResult {
    let MatchArgs {
        event,
        division,
        round,
        board,
        file,
    } = a;
    ctx.act(&event, &division, |open, d| {
        link_match(open, d, round, board, file)
    })?;
    Ok(())
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
