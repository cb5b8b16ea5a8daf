//! The division most event tests start from: one Swiss, "Open", scored 1/½/0 a game.

use crossboard::director::GamePoints;
use crossboard::event::{
    Acceleration, Action, DivisionSettings, Format, PlayerInfo, ScoreUnit, Tournament,
};

/// An event with one division, "Open": a Swiss of `rounds` rounds of `games` games a board,
/// accelerated as asked, `players` (registry id, as entered) entered in order.
pub(crate) fn open_swiss(
    rounds: u32,
    games: u32,
    acceleration: Acceleration,
    players: impl IntoIterator<Item = (u32, PlayerInfo)>,
) -> Tournament {
    let mut t = Tournament::new();
    let mut settings = DivisionSettings::new(
        Format::Swiss { rounds },
        games,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    settings.acceleration = acceleration;
    t.apply(&Action::AddDivision {
        name: "Open".into(),
        settings,
    })
    .unwrap();
    for (player, info) in players {
        t.apply(&Action::Enter {
            division: 0,
            player,
            info,
        })
        .unwrap();
    }
    t
}

/// A player as entered: a name and a rating.
pub(crate) fn rated(name: &str, rating: u32) -> PlayerInfo {
    PlayerInfo {
        rating: Some(rating),
        ..PlayerInfo::named(name)
    }
}
