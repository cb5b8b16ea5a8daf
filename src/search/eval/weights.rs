//! The weights of the English evaluation (see `terms.rs` for the terms).
//! Written by `crossboard tune`: see docs/engine.md.

use super::terms::Weights;

/// The weights of English draughts, in the order of `terms::NAMES`.
pub(crate) const ENGLISH: Weights = super::terms::HAND;
