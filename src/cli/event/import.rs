//! `event import`: an entry list (CSV) entered in a division, after its report.

use super::{Ctx, now};
use crate::cli::CliResult;
use crate::event::parse_delimiter;
use crate::store::read_entry_file;
use std::path::PathBuf;

// The arguments of `event import`.
#[derive(Debug, clap::Args)]
pub(super) struct ImportArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The list: CSV with a header row (Name, ID, Rating, Club, State or Country).
    pub(super) file: PathBuf,
    /// The cells' delimiter: `,` `;` or `tab` (default: the one the header holds most).
    #[arg(long)]
    pub(super) delimiter: Option<String>,
    /// Print the report only: nothing is recorded.
    #[arg(long)]
    pub(super) dry_run: bool,
}

/// `event import`: the list's report (its problems and notes, each naming file, line and
/// field), then, without a problem, every player entered in one transaction.
pub(super) fn import(ctx: &mut Ctx, a: &ImportArgs) -> CliResult {
    let delimiter = a
        .delimiter
        .as_deref()
        .map(parse_delimiter)
        .transpose()
        .map_err(|e| format!("--delimiter: {e}"))?;
    let (mut open, d) = ctx.division(&a.event, &a.division)?;
    let list = read_entry_file(&ctx.desk, &a.file, delimiter, &open, d)?;
    outln!("{}", list.summary())?;
    for line in list.report() {
        outln!("{line}")?;
    }
    if list.problems() > 0 {
        return Err(format!(
            "{}: {} problem(s): nothing imported",
            list.file,
            list.problems()
        )
        .into());
    }
    if a.dry_run {
        outln!("dry run: nothing recorded")?;
        return Ok(());
    }
    let div = &open.event.divisions[d];
    let late = match div.paired_rounds() {
        0 => String::new(),
        r => format!(", late entries from round {}", r + 1),
    };
    let name = div.name.clone();
    let ids = ctx.desk.import_players(&mut open, d, &list, now())?;
    let new = list
        .players
        .iter()
        .filter(|p| p.registered.is_none())
        .count();
    outln!(
        "recorded: {} player(s) entered in {name} ({new} registered){late}",
        ids.len()
    )?;
    Ok(())
}
