//! `crossboard openings <system> --summary | --list | --draw [--seed N]`: for directors who
//! prepare events, and for checking the opening tables.

use super::CliResult;
use crate::engine::Color;
use crate::openings::{
    self, DrawMode, DrawSettings, Opening, System, ThreeMoveClass, ThreeMoveDeck, loses_man_text,
    three_move_flags,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// Arguments of `crossboard openings`.
#[derive(Debug, clap::Args)]
#[command(group(
    clap::ArgGroup::new("action").required(true).args(["summary", "list", "positions", "draw", "analyse", "atlas", "book"])
))]
#[command(group(clap::ArgGroup::new("searching").args(["analyse", "atlas", "book"])))]
#[command(group(clap::ArgGroup::new("building").args(["atlas", "book"])))]
pub(super) struct Args {
    /// The system: gayp, two-move, three-move, eleven-man or roll-your-own.
    system: System,
    /// Print the counts (openings, distinct positions, openings losing a man at once, ...).
    #[arg(long)]
    summary: bool,
    /// Print one tab-separated line per opening, after a header line.
    #[arg(long)]
    list: bool,
    /// 11-man: one tab-separated line per public position (id, FEN, KingsRow class, man-down,
    /// the ballots giving it).
    #[arg(long)]
    positions: bool,
    /// Draw one opening and show every card or die as it is drawn.
    #[arg(long)]
    draw: bool,
    /// Search every distinct position with the engine and mark those that lose material by
    /// force within the horizon (beside the at-once check and KingsRow's class).
    #[arg(long)]
    analyse: bool,
    /// eleven-man: build the atlas (docs/eleven-man-atlas.md): every position searched to a
    /// fixed depth, one line each (id, verdict, score, depth, main line) written to --out.
    #[arg(long, requires = "out")]
    atlas: bool,
    /// eleven-man: build the opening book (docs/opening-book.md) by dropout expansion from
    /// the positions, every leaf searched to a fixed depth, written to --out.
    #[arg(long, requires = "out")]
    book: bool,
    /// --book: grow the tree to this many positions.
    #[arg(long, requires = "book", value_name = "N")]
    nodes: Option<usize>,
    /// --atlas, --book: the file written (atomically).
    #[arg(long, requires = "building", value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// --atlas, --book: positions searched side by side (the file is the same on any number).
    #[arg(long, requires = "building", default_value_t = 2)]
    threads: usize,
    /// --atlas, --book: only these public ids (`A-B`), for a measurement or a check.
    #[arg(
        long,
        requires = "building",
        value_name = "A-B",
        default_value = "1-2500"
    )]
    ids: String,
    /// --atlas: only the K-th of N shares of the ids (`K/N`: ids K, K+N, K+2N, ...), for
    /// machines or jobs that build their parts side by side; join them with --merge.
    #[arg(long, requires = "atlas", value_name = "K/N")]
    shard: Option<String>,
    /// --atlas: join the parts that shards wrote (no search) into --out.
    #[arg(long, requires = "atlas", num_args = 1.., value_name = "FILE", conflicts_with_all = ["shard", "ids", "depth", "threads"])]
    merge: Vec<std::path::PathBuf>,
    /// Search depth of --analyse (default 8), --atlas (default: the shipped atlas's) or
    /// --book's leaves (default 8).
    #[arg(long, requires = "searching")]
    depth: Option<u32>,
    /// --analyse: the endgame database folder (default: the data folder's, when built).
    #[arg(
        long,
        requires = "analyse",
        value_name = "DIR",
        conflicts_with = "no_egdb"
    )]
    egdb: Option<std::path::PathBuf>,
    /// --analyse: probe no endgame databases.
    #[arg(long, requires = "analyse")]
    no_egdb: bool,
    /// Seed of the draw (ChaCha8); a fresh seed is chosen and printed when omitted.
    #[arg(long, requires = "draw")]
    seed: Option<u64>,
    /// faithful (as the deck or dice do it) or uniform (over distinct positions).
    #[arg(long, default_value = "faithful", requires = "draw")]
    mode: DrawMode,
    /// 3-move deck: current156, crossboard144, tough50 or all174.
    #[arg(long, default_value = "current156")]
    deck: ThreeMoveDeck,
    /// Redraw openings in which a side loses a man at once.
    #[arg(long, requires = "draw")]
    exclude_man_down: bool,
    /// 11-man: redraw positions KingsRow classes lost.
    #[arg(long, requires = "draw")]
    exclude_lost: bool,
}

/// Run `openings`.
pub(super) fn run(args: Args) -> CliResult {
    let text = if args.summary {
        summary_text(args.system)
    } else if args.list {
        list_text(args.system, args.deck)
    } else if args.analyse {
        let egdb = if args.no_egdb {
            None
        } else {
            super::egdb::for_engine(args.egdb.as_deref())
        };
        let depth = args.depth.unwrap_or(crate::search::DEFAULT_BALLOT_DEPTH);
        super::ballot_analysis::analyse_text(args.system, depth, egdb.as_ref())
    } else if args.atlas {
        if args.system != System::ElevenMan {
            return Err("--atlas is for eleven-man".into());
        }
        let out = args.out.unwrap_or_default();
        if !args.merge.is_empty() {
            return super::atlas::merge(&out, &args.merge);
        }
        let plan = super::atlas::Plan {
            ids: super::atlas::parse_ids(&args.ids)?,
            shard: args
                .shard
                .as_deref()
                .map_or(Ok(super::atlas::Shard::WHOLE), super::atlas::Shard::parse)?,
            depth: args.depth.unwrap_or(super::atlas::ATLAS_DEPTH),
        };
        return super::atlas::build(&out, &plan, args.threads);
    } else if args.book {
        if args.system != System::ElevenMan {
            return Err("--book is for eleven-man".into());
        }
        let plan = super::book::BookPlan {
            ids: super::atlas::parse_ids(&args.ids)?,
            depth: super::in_range(
                "--depth",
                args.depth.unwrap_or(super::book::BOOK_DEPTH),
                1..=crate::search::MAX_DEPTH,
            )?,
            nodes: args.nodes.unwrap_or(super::book::BOOK_NODES),
        };
        return super::book::build(&args.out.unwrap_or_default(), &plan, args.threads);
    } else if args.positions {
        if args.system != System::ElevenMan {
            return Err("--positions is for eleven-man (public position ids)".into());
        }
        positions_text()
    } else {
        let seed = args.seed.unwrap_or_else(|| rand::rng().next_u64());
        let settings = DrawSettings {
            system: args.system,
            three_move_deck: args.deck,
            mode: args.mode,
            exclude_man_down: args.exclude_man_down,
            exclude_kingsrow_lost: args.exclude_lost,
            no_repeat: false,
            rules: crate::engine::Rules::English,
        };
        draw_text(&settings, seed)?
    };
    print_text(&text)
}

/// Print to stdout.
fn print_text(text: &str) -> CliResult {
    Ok(out!("{text}")?)
}

fn side_counts(red: usize, white: usize) -> String {
    format!("{} (Red {red}, White {white})", red + white)
}

/// The `--summary` text.
pub(super) fn summary_text(system: System) -> String {
    let s = openings::summary(system);
    let mut out = String::new();
    let mut line = |k: &str, v: String| {
        let _ = writeln!(out, "{k:<40}{v}");
    };
    line("system", system.title().to_string());
    let unit = match system {
        System::ElevenMan => "ballots",
        System::RollYourOwn => "rolls",
        _ => "openings",
    };
    line(unit, s.openings.to_string());
    line("distinct positions", s.positions.to_string());
    line(
        &format!("{unit} losing a man at once"),
        side_counts(s.openings_red_loses_man, s.openings_white_loses_man),
    );
    line(
        "positions losing a man at once",
        side_counts(s.positions_red_loses_man, s.positions_white_loses_man),
    );
    match system {
        System::ElevenMan => {
            line(
                "KingsRow-lost positions",
                s.kingsrow_lost_positions.to_string(),
            );
            line(
                "  of which lose a man at once",
                s.kingsrow_lost_and_man_down.to_string(),
            );
            line(
                "man-down positions KingsRow calls lost",
                format!(
                    "{} of {}",
                    s.kingsrow_lost_and_man_down,
                    s.positions_red_loses_man + s.positions_white_loses_man
                ),
            );
        }
        System::ThreeMove => {
            for deck in ThreeMoveDeck::ALL {
                let n = (1..=174).filter(|&k| deck.contains(k)).count();
                line(&format!("deck {}", deck.key()), n.to_string());
            }
            let barred = (1..=174)
                .filter_map(three_move_flags)
                .filter(|f| f.class == ThreeMoveClass::Barred)
                .count();
            let additions = (1..=174)
                .filter_map(three_move_flags)
                .filter(|f| f.class == ThreeMoveClass::Addition)
                .count();
            line("later additions (in current156)", additions.to_string());
            line("barred", barred.to_string());
        }
        System::TwoMove => {
            let sound = s.openings - s.openings_red_loses_man - s.openings_white_loses_man;
            line("sound (no man lost at once)", sound.to_string());
        }
        System::Gayp | System::RollYourOwn => {}
    }
    out
}

fn transpositions_text(o: &Opening) -> String {
    let t = o.transpositions();
    if t.is_empty() {
        "-".to_string()
    } else {
        t.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
    }
}

/// The `--list` text: a header line, then one tab-separated line per opening.
pub(super) fn list_text(system: System, deck: ThreeMoveDeck) -> String {
    let mut out = String::new();
    let header = match system {
        System::ElevenMan => {
            "ballot\tcards\tname\tfen\tpublic_id\tkingsrow\tloses_man\ttransposes_with"
        }
        System::ThreeMove => "number\tmoves\tfen\tdeck\ttough\tin_deck\tloses_man\tname",
        System::RollYourOwn => "roll\tdice\tname\tfen\tloses_man\ttransposes_with",
        System::TwoMove | System::Gayp => "number\tmoves\tfen\tloses_man",
    };
    out.push_str(header);
    out.push('\n');
    for o in openings::all_ref(system) {
        let fen = o.position.to_fen();
        let lm = loses_man_text(o.loses_man);
        let line = match system {
            System::ElevenMan => {
                let cards = openings::Ballot::from_number(o.number)
                    .map(|b| {
                        format!(
                            "{} {} {} {}",
                            b.red_removal, b.white_removal, b.red_move, b.white_move
                        )
                    })
                    .unwrap_or_default();
                format!(
                    "{}\t{cards}\t{}\t{fen}\t{}\t{}\t{lm}\t{}",
                    o.number,
                    o.name,
                    o.public_id.map_or("-".to_string(), |i| i.to_string()),
                    if o.kingsrow_lost { "lost" } else { "standard" },
                    transpositions_text(o)
                )
            }
            System::ThreeMove => {
                let f = three_move_flags(o.number);
                let class = match f.map(|f| f.class) {
                    Some(ThreeMoveClass::Crossboard) => "crossboard",
                    Some(ThreeMoveClass::Addition) => "addition",
                    Some(ThreeMoveClass::Barred) => "barred",
                    None => "-",
                };
                format!(
                    "{}\t{}\t{fen}\t{class}\t{}\t{}\t{lm}\t{}",
                    o.number,
                    o.moves_text(),
                    if f.is_some_and(|f| f.tough) {
                        "tough"
                    } else {
                        "-"
                    },
                    if deck.contains(o.number) { "yes" } else { "no" },
                    f.and_then(|f| f.common_name.as_deref()).unwrap_or("-")
                )
            }
            System::RollYourOwn => {
                let dice = openings::Roll::from_number(o.number)
                    .map(|r| {
                        format!(
                            "{} {} {} {}",
                            r.red_removal, r.red_place, r.white_removal, r.white_place
                        )
                    })
                    .unwrap_or_default();
                format!(
                    "{}\t{dice}\t{}\t{fen}\t{lm}\t{}",
                    o.number,
                    o.name,
                    transpositions_text(o)
                )
            }
            System::TwoMove | System::Gayp => {
                let moves = o.moves_text();
                let moves = if moves.is_empty() { "-".into() } else { moves };
                format!("{}\t{moves}\t{fen}\t{lm}", o.number)
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The `--positions` text: the 2,500 11-man positions by public id.
pub(super) fn positions_text() -> String {
    let mut out = String::from("id\tfen\tkingsrow\tloses_man\tballots\tname\n");
    for p in openings::eleven_man_positions() {
        let ballots: Vec<String> = p.ballots.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}",
            p.id,
            p.position.to_fen(),
            if p.kingsrow_lost { "lost" } else { "standard" },
            loses_man_text(p.loses_man),
            ballots.join(","),
            p.public_name
        );
    }
    out
}

/// The `--draw` text: the seed, each card or die, then the opening drawn.
pub(super) fn draw_text(
    settings: &DrawSettings,
    seed: u64,
) -> Result<String, openings::OpeningError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let d = openings::draw(settings, &[], &mut rng)?;
    let o = &d.opening;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} draw, {} mode, seed {seed} (ChaCha8; replay with --seed {seed})",
        o.system.title(),
        settings.mode.key()
    );
    let meanings = openings::describe_steps(settings, &d.steps);
    for (s, meaning) in d.steps.iter().zip(&meanings) {
        let _ = writeln!(out, "  {:<14} {:>4}  {meaning}", s.kind.label(), s.card);
    }
    let _ = writeln!(out, "{}: {}", o.reference(), o.name);
    if let Some(id) = o.public_id {
        let _ = writeln!(
            out,
            "public position {id} (KingsRow: {})",
            if o.kingsrow_lost { "lost" } else { "standard" }
        );
    }
    let t = o.transpositions();
    if !t.is_empty() {
        let _ = writeln!(out, "transposes with {}", transpositions_text(o));
    }
    let _ = writeln!(
        out,
        "loses a man at once: {}",
        match o.loses_man {
            Some(Color::Red) => "Red",
            Some(Color::White) => "White",
            None => "no",
        }
    );
    let _ = write!(out, "{}", o.position);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}
