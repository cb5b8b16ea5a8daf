//! The subcommands that only read the desk: lists, pairings, explanations, standings, and the
//! published forms written to a file.

use super::args::{ExportArgs, PairingsArgs, SheetsArgs, StandingsArgs, WhyArgs};
use super::{Ctx, find_player};
use crate::cli::CliResult;
use crate::publish::sentences::{
    ballot_text, pdn_note, points_text, result_text, unpaired_note, why,
};
use crate::publish::{Paper, Published, SheetCodes, SheetKind, pdn, sheet, trf};
use crate::store::{BoardCodes, OpenEvent, write_atomic};

/// `event list`: an event a line, its id, name, when it was created (UTC, to the minute)
/// and how many actions it has.
pub(super) fn list_events(ctx: &Ctx) -> CliResult {
    for e in ctx.desk.events()? {
        outln!(
            "{}\t{}\t{}\t{} action{}",
            e.id,
            e.name,
            created_text(&e.created_at),
            e.actions,
            if e.actions == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

/// A creation time as the database keeps it (RFC 3339) as "2026-12-07 05:12 UTC"; a time
/// that does not read so is shown as it is.
fn created_text(at: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(at).map_or_else(
        |_| at.to_string(),
        |t| {
            t.with_timezone(&chrono::Utc)
                .format("%Y-%m-%d %H:%M UTC")
                .to_string()
        },
    )
}

/// `event player list`.
pub(super) fn list_players(ctx: &Ctx) -> CliResult {
    for (id, p) in ctx.desk.players()? {
        let rating = p.rating.map_or(String::new(), |r| r.to_string());
        outln!(
            "{id}\t{}\t{}\t{}\t{}\t{rating}",
            p.name,
            p.club,
            p.region,
            p.federation_ids
        )?;
    }
    Ok(())
}

/// `event pairings`: a round's (default: the last); round 0 or a round not paired is refused
/// as `event result` refuses it.
pub(super) fn pairings(ctx: &Ctx, a: &PairingsArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    let div = &open.event.divisions[d];
    let round = match a.round {
        Some(round) => round,
        None if div.rounds.is_empty() => {
            outln!("no round is paired yet")?;
            return Ok(());
        }
        None => div.paired_rounds(),
    };
    div.paired_round(round)?;
    print_pairings(ctx, &open, d, round)?;
    Ok(())
}

/// `event why`: why a player is paired as they are in a round (default: the last).
pub(super) fn explain(ctx: &Ctx, a: &WhyArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    let p = find_player(&open, d, &a.player)?;
    let div = &open.event.divisions[d];
    let round = a.round.unwrap_or(div.paired_rounds());
    let r = div.paired_round(round)?;
    for line in why(div, r, p) {
        outln!("{line}")?;
    }
    Ok(())
}

/// `event standings`: after a round (default: the last whose results are all in).
pub(super) fn standings(ctx: &Ctx, a: &StandingsArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    if let Some(round) = a.round {
        // A round not paired is refused as `event pairings` refuses it.
        open.event.divisions[d].paired_round(round)?;
    }
    let p = Published::new(
        &open.event,
        &open.event.divisions[d],
        a.round.unwrap_or(u32::MAX),
    );
    out!("{}", p.text())?;
    Ok(())
}

/// `event export`: the division in one of the published forms, to a file or standard output,
/// with a note when it is not the whole story.
pub(super) fn export(ctx: &Ctx, a: &ExportArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    let div = &open.event.divisions[d];
    let p = Published::new(&open.event, div, u32::MAX);
    // What the file holds when it is not the whole story: no round yet, games left out of the
    // PDN.
    let mut notes: Vec<String> = unpaired_note(div).into_iter().collect();
    let text = match a.format.as_str() {
        "text" => p.text_with_prizes(),
        "csv" => p.csv(),
        "html" => p.html(),
        "trf" => trf(&open.event, div),
        "pdn" => {
            let pdn = pdn(&open.event, div, a.round);
            notes.insert(0, pdn_note(&pdn));
            pdn.text
        }
        f @ ("acf" | "wcdf" | "acf-csv" | "wcdf-csv") => {
            super::federation::record(&open.event, div, f, a.allow_incomplete)?
        }
        f => {
            return Err(format!(
                "--format {f:?}: use text, csv, html, trf, pdn, acf, wcdf, acf-csv or wcdf-csv"
            )
            .into());
        }
    };
    write_out(ctx, &a.out, &text, &notes.join("; "))
}

/// `event sheets`: a round's sheet to print, to a file or standard output. The kind and the
/// paper are read before the event, so a mistyped one is named first.
pub(super) fn sheets(ctx: &Ctx, a: &SheetsArgs) -> CliResult {
    let kind: SheetKind = a.kind.parse().map_err(|e| format!("--kind: {e}"))?;
    let paper: Paper = a.paper.parse().map_err(|e| format!("--paper: {e}"))?;
    let (open, d) = ctx.division(&a.event, &a.division)?;
    let url = a.desk_url.clone().or_else(|| {
        let ip = crate::serve::hall_addresses().into_iter().next()?;
        Some(format!("http://{}/", std::net::SocketAddr::new(ip, 8080)))
    });
    let result_url = url.map(|u| format!("{}/result", u.trim_end_matches('/')));
    let codes = board_codes(ctx).map_or_else(Default::default, |c| {
        SheetCodes::of_round(&c, &open.event, d + 1, a.round, result_url)
    });
    let html = sheet(
        &open.event,
        &open.event.divisions[d],
        a.round,
        kind,
        paper,
        &codes,
    )?;
    write_out(ctx, &a.out, &html, "")
}

/// `text` to `out` (`-`: standard output) by the writer's rules (never over the desk's own
/// files, never half written), saying what was written and `notes` about it.
fn write_out(ctx: &Ctx, out: &std::path::Path, text: &str, notes: &str) -> CliResult {
    if out.as_os_str() == "-" {
        out!("{text}")?;
        if !notes.is_empty() {
            errln!("{notes}");
        }
    } else {
        ctx.desk.check_output(out)?;
        write_atomic(out, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        if notes.is_empty() {
            outln!("wrote {}", out.display())?;
        } else {
            outln!("wrote {}: {notes}", out.display())?;
        }
    }
    Ok(())
}

/// The round's boards: number, first (Red in game 1), second, result so far, the board's
/// code; the bye.
pub(super) fn print_pairings(ctx: &Ctx, open: &OpenEvent, d: usize, round: u32) -> CliResult {
    let div = &open.event.divisions[d];
    let Some(r) = div.round(round) else {
        outln!("round {round} is not paired")?;
        return Ok(());
    };
    let codes = board_codes(ctx);
    outln!("Round {round} of {}", div.planned_rounds())?;
    for b in &r.boards {
        let code = codes.as_ref().map_or(String::new(), |c| {
            c.code(&open.event.info.name, d + 1, round, b.number)
        });
        let line = format!(
            "{:>3}  {:<28} {:<28} {:<9} {code}",
            b.number,
            div.name(b.first),
            div.name(b.second),
            result_text(b.result.as_ref())
        );
        outln!("{}", line.trim_end())?;
    }
    if let Some(b) = r.bye {
        outln!("bye  {}", div.name(b))?;
    }
    for e in &div.entrants {
        if let Some(points) = div.requested_bye_points(e.player, round) {
            outln!("requested bye  {} ({})", e.info.name, points_text(points))?;
        }
    }
    for (k, ballot) in r.ballots.iter().enumerate() {
        outln!("ballot {}: {}", k + 1, ballot_text(&ballot.opening))?;
    }
    if codes.is_some() && !r.boards.is_empty() {
        outln!(
            "a board joins with its code: crossboard --desk http://DESK:8080 --board-code CODE"
        )?;
    }
    Ok(())
}

/// The desk's boards' codes; `None` (said on the standard error) when their key can be
/// neither read nor made.
pub(super) fn board_codes(ctx: &Ctx) -> Option<BoardCodes> {
    BoardCodes::of_desk(ctx.desk.path())
        .inspect_err(|e| errln!("the boards' codes are left out: {e}"))
        .ok()
}
