//! `event prize` (the director sets the prize list: each change one action in the log) and
//! `event prizes` (who wins what, beside the final standings).

use super::Ctx;
use super::args::{PrizeArgs, PrizesArgs};
use crate::cli::CliResult;
use crate::event::{Action, Division, Money, Prize, TieShare, prize_awards, standings};
use std::fmt::Write as _;

/// `event prize`: add a prize (`place 100`, `class 1600-1799 50`, `under 1600 40`), set how
/// ties share (`--share equal|hort`), or clear the list first (`--clear`).
pub(super) fn set(ctx: &mut Ctx, a: &PrizeArgs) -> CliResult {
    let words: Vec<&str> = a.prize.iter().map(String::as_str).collect();
    let added = if words.is_empty() {
        None
    } else {
        Some(Prize::parse(&words)?)
    };
    let share = match a.share.as_deref() {
        None => None,
        Some("equal") => Some(TieShare::Equal),
        Some("hort") => Some(TieShare::Hort),
        Some(s) => return Err(format!("--share {s:?}: use equal or hort").into()),
    };
    if added.is_none() && share.is_none() && !a.clear {
        return Err("say what to set: a prize (place 100), --share or --clear".into());
    }
    ctx.act(&a.event, &a.division, |open, d| {
        let mut prizes = open.event.divisions[d].prizes.clone();
        if a.clear {
            prizes.list.clear();
        }
        prizes.list.extend(added);
        if let Some(s) = share {
            prizes.share = s;
        }
        let n = prizes.list.len();
        let what = format!(
            "{n} {}, ties shared {}",
            if n == 1 { "prize" } else { "prizes" },
            share_text(prizes.share)
        );
        let division = d;
        Ok((vec![Action::SetPrizes { division, prizes }], what))
    })?;
    Ok(())
}

fn share_text(s: TieShare) -> &'static str {
    match s {
        TieShare::Equal => "equally",
        TieShare::Hort => "by the Hort method",
    }
}

/// `event prizes`: the standings with each player's prize beside, then the prizes not won.
pub(super) fn show(ctx: &Ctx, a: &PrizesArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    out!("{}", prizes_text(&open.event.divisions[d]))?;
    Ok(())
}

/// The prize list beside the final standings, as `event prizes` prints it and the text export
/// ends.
pub(super) fn prizes_text(div: &Division) -> String {
    let prizes = &div.prizes;
    if prizes.list.is_empty() {
        return format!("No prizes are set for {}.\n", div.name);
    }
    let names = prizes.names();
    let awards = prize_awards(div);
    let (_, list) = standings(div, u32::MAX);
    let mut out = format!(
        "Prizes of {} (ties on points shared {})\n",
        div.name,
        share_text(prizes.share)
    );
    if !div.rounds_complete() || div.paired_rounds() < div.planned_rounds() {
        out += "Provisional: not every round is finished.\n";
    }
    for s in &list {
        let Some(w) = awards.iter().find(|w| w.entrant == s.entrant) else {
            continue;
        };
        let place = if s.place_to > s.place {
            format!("{}-{}", s.place, s.place_to)
        } else {
            s.place.to_string()
        };
        let shared = if w.shared_by > 1 {
            format!(", shared by {}", w.shared_by)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{place:>5}  {:<32} {:>5}  {:>10}  {}{shared}",
            div.entrants[s.entrant].info.name,
            s.score.to_string(),
            Money(w.amount).to_string(),
            names[w.prize]
        );
    }
    let won: Vec<usize> = awards.iter().map(|w| w.prize).collect();
    for (i, p) in prizes.list.iter().enumerate() {
        if !won.contains(&i) {
            let _ = writeln!(
                out,
                "not won: {} {} (no eligible player)",
                names[i],
                Money(p.amount)
            );
        }
    }
    out
}
