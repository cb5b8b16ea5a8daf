//! The prize list beside the standings, as published: as text (`event prizes`, the text
//! export) and as HTML (the exported crosstable page and the printed crosstable sheet, by
//! maud, which escapes every name typed at the desk). One function per form.

use super::export::{Published, points};
use crate::event::{Award, Division, Money, prize_list};
use maud::{Markup, html};
use std::fmt::Write as _;

/// The prize list of `division` beside its standings: each winner with place, name, points,
/// amount and prize (and by how many it is shared), then the prizes no eligible player could
/// win; marked provisional while rounds remain. Nothing when the division has no prize.
pub fn prizes_html(division: &Division) -> Markup {
    if division.prizes.list.is_empty() {
        return html! {};
    }
    let list = prize_list(division);
    let not_won: Vec<String> = list
        .not_won
        .iter()
        .map(|&i| {
            format!(
                "{} {}",
                list.names[i],
                Money(division.prizes.list[i].amount)
            )
        })
        .collect();
    html! {
        section.prizes {
            h2 { "Prizes" }
            @if list.provisional {
                p { strong { "Provisional:" } " not every round is finished." }
            }
            table.prizes {
                caption {
                    "Prizes of " (division.name) " (ties on points shared " (list.share) ")"
                }
                thead { tr {
                    th { "Place" } th.n { "Name" } th { "Points" } th { "Amount" } th.n { "Prize" }
                } }
                tbody { @for (s, w) in &list.winners { tr {
                    td { (Published::place_text(s)) }
                    td.n { (division.entrants[s.entrant].info.name) }
                    td { (points(s.score)) }
                    td { (Money(w.amount)) }
                    td.n { (prize_won(&list.names, w)) }
                } } }
            }
            @if !not_won.is_empty() {
                p { "Not won (no eligible player): " (not_won.join("; ")) "." }
            }
        }
    }
}

/// The prize list of `division` as text, as `event prizes` prints it and the text export ends:
/// each winner with place, name, points, amount and prize, then the prizes not won; marked
/// provisional while rounds remain.
pub fn prizes_text(div: &Division) -> String {
    if div.prizes.list.is_empty() {
        return format!("No prizes are set for {}.\n", div.name);
    }
    let list = prize_list(div);
    let mut out = format!(
        "Prizes of {} (ties on points shared {})\n",
        div.name, list.share
    );
    if list.provisional {
        out += "Provisional: not every round is finished.\n";
    }
    for (s, w) in &list.winners {
        let _ = writeln!(
            out,
            "{:>5}  {:<32} {:>5}  {:>10}  {}",
            Published::place_text(s),
            div.entrants[s.entrant].info.name,
            points(s.score),
            Money(w.amount).to_string(),
            prize_won(&list.names, w)
        );
    }
    for &i in &list.not_won {
        let _ = writeln!(
            out,
            "not won: {} {} (no eligible player)",
            list.names[i],
            Money(div.prizes.list[i].amount)
        );
    }
    out
}

/// The prize of an award (`names`: the list's [`Prizes::names`](crate::event::Prizes::names))
/// and how many share it: "1st class 1400-1599", "2nd place, shared by 3".
pub(super) fn prize_won(names: &[String], w: &Award) -> String {
    let prize = &names[w.prize];
    if w.shared_by > 1 {
        format!("{prize}, shared by {}", w.shared_by)
    } else {
        prize.clone()
    }
}

impl Published<'_> {
    /// The crosstable as text, then the prize list when prizes are set and the standings are
    /// as they stand: the text export.
    pub fn text_with_prizes(&self) -> String {
        if self.division.prizes.list.is_empty() || !self.as_they_stand() {
            self.text()
        } else {
            self.text() + "\n" + &prizes_text(self.division)
        }
    }
}
