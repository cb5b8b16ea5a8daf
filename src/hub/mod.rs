//! Other engines: a program that speaks the Hub protocol run as a child process and asked for
//! moves (the GUI's side of the protocol; `search::hub` holds its lines and crossboard's own
//! engine side). Used by `crossboard engine-match`; it talks to a process, so it sits above
//! the search and below the front ends.

mod client;

pub use client::HubEngine;
