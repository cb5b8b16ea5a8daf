//! The form read back: the match's settings, and the desk the match reports to.

use super::{FieldId, MatchSetupScreen, idx};
use crate::director::{
    BallotDraw, ColourMethod, GamePoints, MatchSettings, Player, RejectionPolicy, StrengthRule,
    TieRule,
};
use crate::engine::Rules;
use crate::openings::{DrawMode, System, ThreeMoveDeck};
use crate::tui::match_flow::network::{check_desk_url, check_token};

impl MatchSetupScreen {
    /// The settings as the form stands, or the first problem (field and message).
    pub fn settings(&self) -> Result<MatchSettings, (FieldId, String)> {
        let t = |id: FieldId| self.texts[idx(id)].value.clone();
        let c = |id: FieldId| self.choices[idx(id)];
        let mut s = self.options.defaults.clone();
        s.game = self.game();
        s.strength_rule = if c(FieldId::Strength) == 1 {
            StrengthRule::ThirtyPlusEight
        } else {
            StrengthRule::ThirtyEight
        };
        s.players = [t(FieldId::Name1), t(FieldId::Name2)];
        s.event = t(FieldId::Event);
        s.openings.system = System::ALL[c(FieldId::System).min(4)];
        s.openings.three_move_deck = ThreeMoveDeck::ALL[c(FieldId::Deck).min(3)];
        s.openings.mode = if c(FieldId::Mode) == 1 {
            DrawMode::Uniform
        } else {
            DrawMode::Faithful
        };
        s.openings.exclude_man_down = c(FieldId::ExcludeManDown) == 1;
        s.openings.exclude_kingsrow_lost = c(FieldId::ExcludeLost) == 1 && s.game == Rules::English;
        s.openings.no_repeat = c(FieldId::NoRepeat) == 1;
        s.ballots = match t(FieldId::Ballots).trim().parse::<u32>() {
            Ok(n) if n <= 99 => n,
            _ => {
                return Err((FieldId::Ballots, "a number of ballots from 1 to 99".into()));
            }
        };
        s.time_control = t(FieldId::Time)
            .parse()
            .map_err(|e: crate::director::TimeControlTextError| (FieldId::Time, e.to_string()))?;
        s.scoring.game = [
            GamePoints::OneHalfZero,
            GamePoints::TwoOneZero,
            GamePoints::Apca,
        ][c(FieldId::Points).min(2)];
        s.scoring.per_ballot = c(FieldId::PerBallot) == 1;
        s.rejection = [
            RejectionPolicy::PlayersMayReject,
            RejectionPolicy::AllExceptManDown,
            RejectionPolicy::AllPlayed,
        ][c(FieldId::Rejection).min(2)];
        s.tie = match c(FieldId::Tie) {
            1 => TieRule::HolderRetains {
                holder: Player::First,
            },
            2 => TieRule::HolderRetains {
                holder: Player::Second,
            },
            3 => {
                let text = t(FieldId::MaxBlocks);
                let max_blocks = if text.trim().is_empty() {
                    None
                } else {
                    Some(text.trim().parse::<u32>().map_err(|_| {
                        (
                            FieldId::MaxBlocks,
                            "a number, or empty for no limit".to_string(),
                        )
                    })?)
                };
                TieRule::ContinueInBlocks { max_blocks }
            }
            _ => TieRule::StaysTied,
        };
        s.colour_method = [
            ColourMethod::CoinFlip,
            ColourMethod::Bag,
            ColourMethod::ConcealedHands,
            ColourMethod::DirectorAssigns,
        ][c(FieldId::Colours).min(3)];
        s.ballot_draw = if c(FieldId::BallotDraw) == 1 {
            BallotDraw::Automatic
        } else {
            BallotDraw::CardByCard
        };
        if let Err(e) = s.validate() {
            use crate::director::SettingsError as E;
            let field = match &e {
                E::EmptyName(Player::First) | E::NameTooLong(Player::First, _) => FieldId::Name1,
                E::EmptyName(Player::Second)
                | E::NameTooLong(Player::Second, _)
                | E::SameName(_) => FieldId::Name2,
                E::ControlCharacter(what) if what.starts_with("first") => FieldId::Name1,
                E::ControlCharacter(what) if what.starts_with("second") => FieldId::Name2,
                E::EventTooLong(_) | E::ControlCharacter(_) => FieldId::Event,
                E::NoBallots
                | E::TooManyBallots(_)
                | E::TooManyGiven { .. }
                | E::GivenOpening { .. } => FieldId::Ballots,
                E::TimeControl(_) => FieldId::Time,
                E::ZeroBlocks | E::TooManyBlocks(_) => FieldId::MaxBlocks,
                E::KingsRowLostNotForGame(_) => FieldId::Game,
            };
            return Err((field, e.to_string()));
        }
        Ok(s)
    }

    /// The desk the match reports to and the board's token, both checked; `None` when both
    /// are empty (not reporting), else the first problem (field and message).
    pub fn desk_link(&self) -> Result<Option<(String, String)>, (FieldId, String)> {
        let desk = self.texts[idx(FieldId::Desk)].value.trim().to_string();
        let token = self.texts[idx(FieldId::Token)].value.trim().to_string();
        match (desk.is_empty(), token.is_empty()) {
            (true, true) => Ok(None),
            (false, true) => Err((
                FieldId::Token,
                "the board's token too (crossboard event token at the desk prints it), or no desk"
                    .into(),
            )),
            (true, false) => Err((
                FieldId::Desk,
                "the desk's address too (http://HOST:PORT), or no token".into(),
            )),
            (false, false) => {
                let desk = check_desk_url(&desk).map_err(|e| (FieldId::Desk, e))?;
                let token = check_token(&token).map_err(|e| (FieldId::Token, e))?;
                Ok(Some((desk, token)))
            }
        }
    }
}
