//! The match flow screens (issue 6, part B): set-up form, colour choice, ballot draw,
//! accept/reject, the game under clocks, between games and the end with the score table, and the
//! director menu. Built on the framework of [`crate::tui`]; see its module doc for how to add a
//! screen.
