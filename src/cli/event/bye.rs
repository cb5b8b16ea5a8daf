//! `event bye`: a requested bye, asked or taken back before its round is paired.

use super::{Ctx, find_player};
use crate::cli::CliResult;
use crate::event::Action;
use crate::publish::sentences::bye_request_text;

// The arguments of `event bye`.
#[derive(Debug, clap::Args)]
pub(super) struct ByeArgs {
    /// The event.
    pub(super) event: String,
    /// The division.
    pub(super) division: String,
    /// The player.
    pub(super) player: String,
    /// The round the player sits out.
    #[arg(long)]
    pub(super) round: u32,
    /// Take the request back.
    #[arg(long)]
    pub(super) cancel: bool,
}

/// `event bye`: recorded before the round is paired; refused once it is.
pub(super) fn bye(ctx: &mut Ctx, a: ByeArgs) -> CliResult {
    let ByeArgs {
        event,
        division,
        player,
        round,
        cancel,
    } = a;
    ctx.act(&event, &division, |open, d| {
        let player_id = find_player(open, d, &player)?;
        let action = Action::ByeRequest {
            division: d,
            player: player_id,
            round,
            cancel,
        };
        let what = bye_request_text(&open.event.divisions[d], player_id, round, cancel);
        Ok((vec![action], what))
    })?;
    Ok(())
}
