//! Windows: what differs there, tested on Linux through the same code.
//!
//! - [`keys`]: the key events and console events Windows sends, through the real event loop.

mod keys;
