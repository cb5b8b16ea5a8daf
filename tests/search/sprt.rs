//! The statistics of `engine-match --sprt`: Elo over game pairs with its interval, the
//! generalised log-likelihood ratio and the decision it reaches.

use crossboard::search::sprt::{Hypothesis, Pentanomial, Sprt, elo_of_score, elo_text};
use proptest::prelude::*;

fn pairs(counts: [u64; 5]) -> Pentanomial {
    Pentanomial { counts }
}

fn sprt(elo0: f64, elo1: f64) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05).unwrap()
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn the_llr_matches_the_published_calculation() {
    // Reference figures from Michel Van den Bergh's LLRcalc.LLR_logistic (github.com/vdbergh/
    // pentanomial, the GSPRT fishtest and fastchess follow), run on these counts:
    //   [10, 20, 40, 20, 10] [0, 10]  -> -0.13789922175464486
    //   [5, 30, 100, 45, 20] [0, 10]  ->  2.674812418913053
    //   [20, 45, 100, 30, 5] [0, 10]  -> -3.3596649620352803
    //   [3, 12, 40, 15, 6]   [-5, 5]  ->  0.6281338163034969
    //   [0, 0, 2, 0, 37]     [0, 20]  ->  2.1804148877162857 (empty outcomes: the prior)
    //   [0, 0, 50, 0, 0]     [0, 10]  -> -1.4579224331793719 (all draws)
    let cases = [
        ([10, 20, 40, 20, 10], (0.0, 10.0), -0.137_899_221_754_644_86),
        ([5, 30, 100, 45, 20], (0.0, 10.0), 2.674_812_418_913_053),
        ([20, 45, 100, 30, 5], (0.0, 10.0), -3.359_664_962_035_280_3),
        ([3, 12, 40, 15, 6], (-5.0, 5.0), 0.628_133_816_303_496_9),
        ([0, 0, 2, 0, 37], (0.0, 20.0), 2.180_414_887_716_285_7),
        ([0, 0, 50, 0, 0], (0.0, 10.0), -1.457_922_433_179_371_9),
    ];
    for (counts, (e0, e1), want) in cases {
        let got = sprt(e0, e1).llr(&pairs(counts));
        assert!(
            close(got, want, 1e-6),
            "{counts:?} [{e0}, {e1}]: {got} != {want}"
        );
    }
}

#[test]
fn the_llr_agrees_with_the_hand_approximation() {
    // By hand, with Van den Bergh's approximation LLR ~ N (s1 - s0)(2s - s0 - s1) / (2 var):
    // [10, 20, 40, 20, 10] has N = 100 pairs, mean s = 0.5 and variance per pair
    // (10*0.25 + 20*0.0625 + 20*0.0625 + 10*0.25) / 100 = 0.075; s0 = 0.5 and
    // s1 = 1 / (1 + 10^(-10/400)) = 0.514387; LLR ~ 100 * 0.014387 * -0.014387 / 0.15 = -0.13799.
    let got = sprt(0.0, 10.0).llr(&pairs([10, 20, 40, 20, 10]));
    assert!(close(got, -0.13799, 5e-4), "{got}");
}

#[test]
fn the_decision_bounds_are_walds() {
    // log(beta / (1 - alpha)) and log((1 - beta) / alpha) at alpha = beta = 0.05: -/+ ln 19.
    let test = sprt(0.0, 10.0);
    let (lower, upper) = test.llr_bounds();
    assert!(close(lower, -(19f64.ln()), 1e-12), "{lower}");
    assert!(close(upper, 2.944_438_979_166_44, 1e-12), "{upper}");
    assert_eq!(test.decision(upper), Some(Hypothesis::H1));
    assert_eq!(test.decision(upper - 1e-9), None);
    assert_eq!(test.decision(lower), Some(Hypothesis::H0));
    assert_eq!(test.decision(lower + 1e-9), None);
    assert_eq!(test.decision(0.0), None);
    // Other rates: alpha 0.01, beta 0.1: log(0.1 / 0.99) and log(0.9 / 0.01).
    let (lower, upper) = Sprt::new(0.0, 5.0, 0.01, 0.1).unwrap().llr_bounds();
    assert!(close(lower, (0.1f64 / 0.99).ln(), 1e-12));
    assert!(close(upper, 90f64.ln(), 1e-12));
}

#[test]
fn the_parameters_are_checked() {
    assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err(), "elo0 below elo1");
    assert!(Sprt::new(5.0, 5.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, f64::INFINITY, 0.05, 0.05).is_err());
    assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.05, 0.6).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.05, f64::NAN).is_err());
}

#[test]
fn elo_and_its_interval_come_from_the_pairs() {
    // [5, 30, 100, 45, 20]: 200 pairs, mean (30*0.25 + 100*0.5 + 45*0.75 + 20) / 200 = 0.55625,
    // Elo -400 log10(1/0.55625 - 1) = +39.25; variance per pair 0.0515234375, standard error
    // sqrt(0.0515234375 / 200) = 0.016050, so 0.55625 -/+ 1.96 * 0.016050 gives
    // +17.24 to +61.58 Elo.
    let e = pairs([5, 30, 100, 45, 20]).elo().unwrap();
    assert!(close(e.elo, 39.252_663, 1e-5), "{e:?}");
    assert!(close(e.low, 17.241_163, 1e-5), "{e:?}");
    assert!(close(e.high, 61.582_906, 1e-5), "{e:?}");
    assert_eq!(e.to_string(), "+39.3 (95 %: +17.2 to +61.6)");
    assert!(close(elo_of_score(0.5), 0.0, 1e-12));
    assert!(close(elo_of_score(0.75), 190.848_501_887_864_8, 1e-9));
}

#[test]
fn extreme_results_give_no_nan() {
    let test = sprt(0.0, 10.0);
    for counts in [
        [0, 0, 7, 0, 0],
        [0, 0, 0, 0, 9],
        [9, 0, 0, 0, 0],
        [0, 0, 0, 0, 1],
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
    ] {
        let p = pairs(counts);
        let llr = test.llr(&p);
        assert!(llr.is_finite(), "{counts:?}: {llr}");
        let e = p.elo().unwrap();
        let text = e.to_string();
        assert!(
            !text.contains("NaN") && !text.contains('?'),
            "{counts:?}: {text}"
        );
    }
    // All draws: Elo 0 exactly, a zero-width interval, and a lean to H0 (no gain shown).
    let draws = pairs([0, 0, 40, 0, 0]);
    assert_eq!(
        draws.elo().unwrap().to_string(),
        "+0.0 (95 %: +0.0 to +0.0)"
    );
    assert!(test.llr(&draws) < 0.0);
    // All wins: an infinite estimate, said in words.
    let wins = pairs([0, 0, 0, 0, 12]);
    assert_eq!(wins.elo().unwrap().to_string(), "+inf (95 %: +inf to +inf)");
    assert!(test.llr(&wins) > 0.0);
    assert_eq!(elo_text(f64::NEG_INFINITY), "-inf");
    // No pair yet: no estimate, an LLR of 0.
    assert_eq!(pairs([0; 5]).elo(), None);
    assert_eq!(test.llr(&pairs([0; 5])), 0.0);
}

proptest! {
    /// A better pair in place of a worse one never lowers the LLR.
    #[test]
    fn the_llr_rises_with_better_results(
        counts in proptest::array::uniform5(0u64..60),
        from in 0usize..4,
        up in 1usize..5,
    ) {
        let to = (from + up).min(4);
        prop_assume!(counts[from] > 0 && to > from);
        let test = sprt(0.0, 10.0);
        let before = test.llr(&pairs(counts));
        let mut better = counts;
        better[from] -= 1;
        better[to] += 1;
        let after = test.llr(&pairs(better));
        prop_assert!(after >= before - 1e-9, "{counts:?} -> {better:?}: {before} -> {after}");
        // And the Elo estimate rises with it.
        let (e0, e1) = (pairs(counts).elo().unwrap().elo, pairs(better).elo().unwrap().elo);
        prop_assert!(e1 > e0, "{e0} -> {e1}");
    }
}

/// `engine-match` run with `args` (node-limited, small tables, short games) into `dir`.
fn engine_match(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_crossboard"))
        .args([
            "engine-match",
            "--seed",
            "5",
            "--nodes",
            "1500",
            "--hash",
            "2",
        ])
        .args(["--max-plies", "120", "--no-egdb", "--out"])
        .arg(dir.join("games.pdn"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn an_sprt_match_stops_at_its_decision_and_says_it_by_its_status() {
    let dir = tempfile::tempdir().unwrap();
    // Wide bounds and error rates (LLR bounds -/+ ln 4) so that a few pairs decide: the master
    // beats the beginner in every pair, about +0.42 LLR a pair.
    let run = |first: &str, second: &str, ballots: &str| {
        let sprt = ["--sprt", "0", "200", "--alpha", "0.2", "--beta", "0.2"];
        let sides = ["--level", first, "--opponent", second, "--ballots", ballots];
        let out = engine_match(dir.path(), &[&sprt[..], &sides[..]].concat());
        (out.status.code(), stdout_of(&out))
    };
    let (status, text) = run("master", "beginner", "30");
    assert_eq!(status, Some(0), "{text}");
    let head = "SPRT [0, 200]: H1 accepted after ";
    let verdict = text.lines().find(|l| l.starts_with("SPRT")).unwrap();
    assert!(verdict.starts_with(head), "{text}");
    let pairs: u64 = verdict[head.len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!((3..30).contains(&pairs), "{text}");
    // Only the pairs counted are saved, both games of each.
    let pdn = std::fs::read_to_string(dir.path().join("games.pdn")).unwrap();
    let games = crossboard::store::read_pdn(&pdn);
    assert_eq!(games.len() as u64, 2 * pairs, "{text}");
    let over = format!("over {} games", 2 * pairs);
    assert!(text.contains(&over), "{text}");
    assert!(text.contains("Elo of crossboard master: "), "{text}");
    // The other way round, H0, and its own status.
    let (status, text) = run("beginner", "master", "30");
    assert_eq!(status, Some(3), "{text}");
    assert!(text.contains("SPRT [0, 200]: H0 accepted after "), "{text}");
    // A limit reached first: no decision, status 4.
    let (status, text) = run("master", "beginner", "1");
    assert_eq!(status, Some(4), "{text}");
    let undecided = "SPRT [0, 200]: no decision: stopped at the ballot limit after 1 pairs";
    assert!(text.contains(undecided), "{text}");
}

#[test]
fn a_node_limited_sprt_decides_alike_at_any_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    let run = |concurrency: &str| {
        let out = engine_match(
            dir.path(),
            &[
                "--sprt",
                "-50",
                "50",
                "--alpha",
                "0.2",
                "--beta",
                "0.2",
                "--level",
                "expert",
                "--opponent",
                "club",
                "--ballots",
                "6",
                "--concurrency",
                concurrency,
            ],
        );
        (out.status.code(), stdout_of(&out))
    };
    let (one, two) = (run("1"), run("2"));
    // The times per move differ from run to run; the results, Elo and decision do not.
    let figures = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.contains("ms per move"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(one.0, two.0);
    assert_eq!(figures(&one.1), figures(&two.1));
    assert!(one.1.contains("Elo of crossboard expert"), "{}", one.1);
}

#[test]
fn every_match_reports_elo_and_bad_bounds_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let plain = engine_match(dir.path(), &["--ballots", "1", "--level", "expert"]);
    let text = stdout_of(&plain);
    assert!(plain.status.success(), "{text}");
    // The same level on both sides: the two told apart.
    assert!(
        text.contains("Elo of crossboard expert (first): "),
        "{text}"
    );
    assert!(
        text.contains("over game pairs: 1 pairs, pentanomial ["),
        "{text}"
    );
    assert!(!text.contains("NaN"), "{text}");
    for bad in [
        &["--sprt", "10", "0"][..],
        &["--sprt", "0", "10", "--alpha", "0"],
        &["--sprt", "0", "10", "--beta", "0.7"],
        &["--alpha", "0.1"],
    ] {
        let out = engine_match(dir.path(), bad);
        assert!(!out.status.success(), "{bad:?}");
        assert!(!matches!(out.status.code(), Some(3 | 4)), "{bad:?}");
    }
}
