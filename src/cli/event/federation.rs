//! What a federation is sent: `event export --format acf|wcdf|acf-csv|wcdf-csv` (checked
//! first, refused with every gap named unless `--allow-incomplete`), and `event ratings`, the
//! rating preview by the ACF's formula.

use super::Ctx;
use super::args::RatingsArgs;
use crate::cli::CliResult;
use crate::event::{Division, Tournament, rating_preview, window_size};
use crate::publish::{Federation, federation_csv, federation_gaps, federation_report};
use std::fmt::Write as _;

/// The record of `division` in federation format `format` (`acf`, `wcdf`, `acf-csv`,
/// `wcdf-csv`): checked first; with gaps, refused naming each of them, unless `allow`, when
/// the text report lists them at its top.
pub(super) fn record(
    event: &Tournament,
    division: &Division,
    format: &str,
    allow: bool,
) -> Result<String, String> {
    let (fed, csv) = match format {
        "acf" => (Federation::Acf, false),
        "wcdf" => (Federation::Wcdf, false),
        "acf-csv" => (Federation::Acf, true),
        "wcdf-csv" => (Federation::Wcdf, true),
        f => return Err(format!("--format {f:?} is no federation format")),
    };
    let gaps = federation_gaps(event, division, fed);
    if !gaps.is_empty() && !allow {
        let mut msg = format!(
            "the {} record of {} is incomplete; nothing was written:\n",
            fed.label(),
            division.name
        );
        for g in &gaps {
            let _ = writeln!(msg, "  - {g}");
        }
        msg += "complete these (event new, event player add, results), or pass --allow-incomplete";
        return Err(msg);
    }
    Ok(if csv {
        federation_csv(event, division, fed)
    } else {
        federation_report(event, division, fed, &gaps)
    })
}

/// `event ratings`: each player's rating change by the ACF's formula, from the rounds
/// finished.
pub(super) fn ratings(ctx: &Ctx, a: &RatingsArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    out!("{}", ratings_text(&open.event.divisions[d]))?;
    Ok(())
}

/// The preview as printed: a heading with the formula's constants, a line per player.
fn ratings_text(div: &Division) -> String {
    let window = window_size(div.settings.scoring.unit);
    let mut out = format!(
        "Rating preview of {} by the ACF formula: Rp = Rc + {window} x (W - L) / N, averaged \
         with the last 128 games\n",
        div.name
    );
    let _ = writeln!(
        out,
        "{:<32} {:>7} {:>9} {:>5} {:>6} {:>6} {:>7} {:>6}",
        "Player", "Old", "W-L-D", "Games", "Rc", "Rp", "New", "Change"
    );
    let show = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
    for c in rating_preview(div) {
        let e = &div.entrants[c.entrant];
        let old = c.old.map_or("unrated".to_string(), |r| r.to_string());
        let change = match (c.change(), c.old) {
            (Some(0), _) => "0".into(),
            (Some(d), _) => format!("{d:+}"),
            (None, None) if c.new.is_some() => "new".into(),
            _ => "-".into(),
        };
        let _ = writeln!(
            out,
            "{:<32} {old:>7} {:>9} {:>5} {:>6} {:>6} {:>7} {change:>6}",
            e.info.name,
            format!("{}-{}-{}", c.won, c.lost, c.drawn),
            c.games,
            show(c.competition),
            show(c.performance),
            show(c.new),
        );
    }
    out += "Only rounds finished and games over the board count; games against unrated players \
            are left out; an unrated player's new rating is their performance.\n";
    out
}
