//! Pool's APCA presets on the set-up form: filled in when pool is chosen, and what they
//! replaced given back when another game is.

use super::{FieldId, MatchSetupScreen, idx};
use crate::director::{MatchSettings, PoolClock};

/// The fields that choosing pool fills in: the time control, points, tie rule, block limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PoolPresets {
    pub(super) time: String,
    pub(super) points: usize,
    pub(super) tie: usize,
    pub(super) max_blocks: String,
}

impl MatchSetupScreen {
    /// The fields choosing pool fills in, as they stand.
    pub(super) fn pool_fields(&self) -> PoolPresets {
        PoolPresets {
            time: self.texts[idx(FieldId::Time)].value.clone(),
            points: self.choices[idx(FieldId::Points)],
            tie: self.choices[idx(FieldId::Tie)],
            max_blocks: self.texts[idx(FieldId::MaxBlocks)].value.clone(),
        }
    }

    /// Leaving pool: each field still holding its APCA preset gets back what it held before.
    pub(super) fn restore_before_pool(&mut self) {
        let Some(before) = self.before_pool.take() else {
            return;
        };
        let preset = Self::apca_presets();
        let now = self.pool_fields();
        if now.time == preset.time {
            self.texts[idx(FieldId::Time)].value = before.time;
        }
        if now.points == preset.points {
            self.choices[idx(FieldId::Points)] = before.points;
        }
        if now.tie == preset.tie {
            self.choices[idx(FieldId::Tie)] = before.tie;
        }
        if now.max_blocks == preset.max_blocks {
            self.texts[idx(FieldId::MaxBlocks)].value = before.max_blocks;
        }
    }

    /// The APCA presets of pool: clock 35/70 15/30, 4/2/0, a tie played off in blocks of two
    /// games, no limit on the blocks.
    pub(super) fn apca_presets() -> PoolPresets {
        let p = MatchSettings::default().apca_pool(PoolClock::Periods);
        PoolPresets {
            time: p.time_control.to_string(),
            points: 2,
            tie: 3,
            max_blocks: String::new(),
        }
    }

    /// Choosing pool fills in the APCA presets, each stays changeable; what they replace is
    /// kept for a change of mind.
    pub(super) fn apply_pool_presets(&mut self) {
        if self.before_pool.is_none() {
            self.before_pool = Some(self.pool_fields());
        }
        let p = Self::apca_presets();
        self.texts[idx(FieldId::Time)].value = p.time;
        self.choices[idx(FieldId::Points)] = p.points;
        self.choices[idx(FieldId::Tie)] = p.tie;
        self.texts[idx(FieldId::MaxBlocks)].value = p.max_blocks;
    }
}
