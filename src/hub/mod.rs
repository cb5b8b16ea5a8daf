//! Other engines: a program that speaks the Hub protocol run as a child process, asked for
//! moves and analyses (the GUI's side of the protocol; `search::hub` holds its lines and
//! crossboard's own engine side). Used by `crossboard engine-match` and `crossboard analyse`,
//! and on a thread of its own ([`HubAnalyst`]) by the analysis pane and the review's graph;
//! it talks to a process, so it sits above the search and below the front ends.

mod analysis;
mod client;
mod review;
mod worker;

pub use analysis::{HubAnalysis, HubInfo, HubStop};
pub use client::HubEngine;
pub use review::{HubReview, review_game};
pub use worker::{HubAnalyst, HubProgram, HubReport, HubTask};
