//! `crossboard openings <system> --analyse [--depth N]`: the engine's verdict on every distinct
//! opening position, beside the at-once check and (11-man) KingsRow's class.

use crate::egdb::Egdb;
use crate::engine::Color;
use crate::openings::{self, System, loses_man_text};
use crate::search::MAN;
use crate::search::ProofResult;
use crate::search::Score;
use crate::search::{BALLOT_PROOF, PositionVerdict, analyse_all};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What the searches found, from Red's side: the material-only search's result for a marked
/// position (`White wins 1.00 men by force`, `database win for Red`, `Red wins in 17 plies`),
/// then the forcing-line proof (`Red wins a man along a forcing line of 3 plies`, `no man won
/// along forcing lines of 12 plies` when refuted for both sides); `-` when nothing is known.
pub(super) fn finding(v: &PositionVerdict) -> String {
    let mut parts = Vec::new();
    if let (Some(loser), true) = (v.loses_material, v.red_material.0.abs() >= MAN - 40) {
        let winner = loser.opponent();
        let m = v.red_material;
        parts.push(match m.plies_to_end() {
            Some(p) => format!("{winner} wins in {} plies", p.unsigned_abs()),
            None if m.is_database() => format!("database win for {winner}"),
            None => format!(
                "{winner} wins {:.2} men by force",
                f64::from(m.0.abs()) / 100.0
            ),
        });
    }
    match v.forcing_win() {
        Some((winner, 0)) => parts.push(format!("{winner} wins a man at once (captures)")),
        Some((winner, p)) => parts.push(format!(
            "{winner} wins a man along a forcing line of {p} plies"
        )),
        None if v.forcing.iter().all(|r| *r == ProofResult::Refuted) => parts.push(format!(
            "no man won along forcing lines of {} plies",
            BALLOT_PROOF.threat
        )),
        None => {}
    }
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join("; ")
    }
}

/// A material-only score from Red's side: men, or the known result.
fn material_text(m: Score) -> String {
    if m.is_known() {
        m.to_string()
    } else {
        format!("{:+.2}", f64::from(m.0) / 100.0)
    }
}

/// The `--analyse` table: a header, one tab-separated line per distinct position, and `#`
/// summary lines. `egdb`: the endgame databases probed. Progress goes to stderr.
pub(super) fn analyse_text(system: System, depth: u32, egdb: Option<&Arc<Egdb>>) -> String {
    let mut seen = HashSet::new();
    let list: Vec<_> = openings::all_ref(system)
        .iter()
        .filter(|o| seen.insert(o.position))
        .collect();
    let mut list = list;
    list.sort_by_key(|o| (o.public_id.unwrap_or(0), o.number));
    let stop = Arc::new(AtomicBool::new(false));
    let t = Instant::now();
    let positions: Vec<_> = list.iter().map(|o| o.position).collect();
    let total = positions.len();
    let verdicts = analyse_all(&positions, depth, egdb, &stop, &|n| {
        if n % 250 < 25 || n == total {
            errln!("analysed {n} of {total} positions");
        }
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "id\topening\tballots\tfen\tat_once\tkingsrow\tscore_red\tbest\tmaterial_red\tfound\tengine_verdict"
    );
    let (mut marked, mut lost, mut both, mut at_once, mut by_db) = (0, 0, 0, 0, 0);
    let (mut by_proof, mut refuted) = (0, 0);
    let mut marked_ballots = 0;
    let (mut only_engine, mut only_kingsrow) = (Vec::new(), Vec::new());
    for (o, v) in list.iter().zip(&verdicts) {
        let id = o.public_id.unwrap_or(o.number);
        let verdict = match v.loses_material {
            Some(Color::Red) => "Red loses material",
            Some(Color::White) => "White loses material",
            None => "-",
        };
        let kingsrow = match (system, o.kingsrow_lost) {
            (System::ElevenMan, true) => "lost",
            (System::ElevenMan, false) => "standard",
            _ => "-",
        };
        let mut ballots = vec![o.number];
        ballots.extend(o.transpositions());
        ballots.sort_unstable();
        let ballot_text: Vec<String> = ballots.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            "{id}\t{}\t{}\t{}\t{}\t{kingsrow}\t{}\t{}\t{}\t{}\t{verdict}",
            o.name,
            ballot_text.join(","),
            o.position.to_fen(),
            loses_man_text(o.loses_man),
            v.red_score,
            v.best.map_or("-".to_string(), |m| m.to_string()),
            material_text(v.red_material),
            finding(v),
        );
        let m = v.loses_material.is_some();
        marked += usize::from(m);
        by_db += usize::from(m && v.red_material.is_database());
        by_proof += usize::from(v.forcing_win().is_some());
        refuted += usize::from(v.forcing.iter().all(|r| *r == ProofResult::Refuted));
        if m {
            marked_ballots += ballots.len();
        }
        lost += usize::from(o.kingsrow_lost);
        both += usize::from(m && o.kingsrow_lost);
        at_once += usize::from(o.loses_man.is_some());
        if m && !o.kingsrow_lost {
            only_engine.push(id);
        }
        if o.kingsrow_lost && !m {
            only_kingsrow.push(id);
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "# {} positions at depth {depth} in {secs:.1} s wall ({} threads, endgame databases: {}); {at_once} lose a man at once; the engine marks {marked} positions ({marked_ballots} openings) as losing material by force, {by_db} of them by a database win",
        list.len(),
        rayon::current_num_threads(),
        super::egdb::describe(egdb),
    );
    let _ = writeln!(
        out,
        "# forcing-line proof ({} forcing plies, a man won held for {} more): a man won in {by_proof} positions, none for either side in {refuted}, the rest beyond its budget of {} nodes",
        BALLOT_PROOF.threat, BALLOT_PROOF.verify, BALLOT_PROOF.nodes,
    );
    if system == System::ElevenMan {
        let _ = writeln!(
            out,
            "# KingsRow lost: {lost}; marked by the engine and KingsRow-lost: {both}; engine only: {}; KingsRow only: {}",
            only_engine.len(),
            only_kingsrow.len()
        );
        if !only_engine.is_empty() {
            let ids: Vec<String> = only_engine.iter().map(u32::to_string).collect();
            let _ = writeln!(out, "# marked by the engine only: {}", ids.join(" "));
        }
    }
    out
}
