//! `event publish`: the event as a static site, for any static host, CDN or `rsync`
//! (docs/publishing.md).

use crate::cli::CliResult;
use std::path::PathBuf;

/// The arguments of `event publish`.
#[derive(Debug, clap::Args)]
pub(super) struct PublishArgs {
    /// The event.
    event: String,
    /// The site's folder: made, or replaced whole if a site published before (a folder that
    /// is not one is refused).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The games as they were this many seconds ago (as `serve --delay`).
    #[arg(long, value_name = "SECONDS", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=86_400))]
    delay: u32,
}

/// `event publish`: the site written, and what changed.
pub(super) fn publish(db: PathBuf, a: PublishArgs) -> CliResult {
    let source = crate::serve::Source {
        db: Some(db),
        event: Some(a.event),
        match_file: None,
    };
    let delay = crate::serve::Delay::seconds(a.delay);
    let report = crate::serve::publish_site(source, delay, &a.out)?;
    outln!(
        "published {}: {} files, {} written, {} removed",
        a.out.display(),
        report.files,
        report.written,
        report.removed
    )?;
    Ok(())
}
