//! The tui tests, one binary: each module was once a test binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking
#![allow(clippy::too_many_lines, clippy::cognitive_complexity)] // a scenario reads top to bottom

mod analysis_pane;
mod analysis_pane_hub;
mod atlas;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod desk;
mod desk_byes;
mod desk_hall;
mod desk_names;
mod desk_reports;
mod desk_status;
mod e2e_desk;
mod e2e_director;
mod e2e_match_flow;
mod e2e_practice_engine;
mod e2e_resume_paths;
mod e2e_signals;
mod e2e_tui;
mod e2e_variants;
mod egdb_offer;
mod hub_engines;
mod join;
mod keys;
mod library;
mod long_text;
mod match_flow;
mod match_live;
mod match_pictures;
mod match_render;
mod match_resume;
mod match_setup_memory;
mod match_stages;
mod match_variants;
mod position_setup;
mod practice;
mod practice_engine;
mod practice_hub;
mod render;
mod resume_paths;
mod review_graph;
mod text_fits;
#[path = "../variant_support/mod.rs"]
mod variant_support;
