//! `event prize` (the director sets the prize list: each change one action in the log) and
//! `event prizes` (who wins what, beside the final standings).

use super::Ctx;
use super::args::{PrizeArgs, PrizesArgs};
use crate::cli::CliResult;
use crate::event::{Action, Prize, TieShare};
use crate::publish::prizes_text;

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
            prizes.share.words()
        );
        let division = d;
        Ok((vec![Action::SetPrizes { division, prizes }], what))
    })?;
    Ok(())
}

/// `event prizes`: the standings with each player's prize beside, then the prizes not won.
pub(super) fn show(ctx: &Ctx, a: &PrizesArgs) -> CliResult {
    let (open, d) = ctx.division(&a.event, &a.division)?;
    out!("{}", prizes_text(&open.event.divisions[d]))?;
    Ok(())
}
