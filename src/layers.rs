//! The layers look down only: a module of one layer names no module of a layer above it (nor
//! of a layer beside it). Read from the sources, so a new `use` that breaks the order fails
//! here with its file and line.

use std::path::{Path, PathBuf};

/// The layers from the bottom up; modules on one line sit side by side and name neither.
const LAYERS: &[&[&str]] = &[
    &["engine"],
    &["egdb", "openings"],
    &["director", "search"],
    &["event"],
    &["store", "hub"],
    &["publish"],
    &["tui", "serve"],
    &["cli"],
];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level modules a line names through `crate::`, grouped (`crate::{a, b::c}`) or not.
fn named(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let rest = &line[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            // Only the first segment of each path in the group is a module of the crate.
            out.extend(group.split(',').filter_map(|p| {
                let p = p.trim();
                let head = p.split("::").next()?.trim();
                p.contains("::").then(|| head.to_string())
            }));
        } else {
            let head: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push(head);
        }
    }
    out
}

#[test]
fn every_layer_names_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    let mut checked = 0;
    for layer in LAYERS.iter().flat_map(|l| l.iter()) {
        let own = rank(layer).unwrap_or(0);
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        let single = src.join(format!("{layer}.rs"));
        if single.exists() {
            files.push(single);
        }
        assert!(!files.is_empty(), "no sources for {layer}");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for m in named(line) {
                    checked += 1;
                    if m != *layer && rank(&m).is_some_and(|r| r >= own) {
                        wrong.push(format!("{}:{}: {layer} names {m}", f.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(checked > 500, "only {checked} paths read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_grouped_path_names_its_heads() {
    assert_eq!(
        named("use crate::{engine::Color, store::x, Foo};"),
        ["engine", "store"]
    );
    assert_eq!(named("let x = crate::tui::render();"), ["tui"]);
}
