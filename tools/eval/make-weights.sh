#!/bin/sh
# Remake the data and the weights of the English evaluation (src/search/eval/weights.rs); see
# docs/engine.md, "How the evaluation is tuned". About 45 minutes on 2 cores.
#
#   tools/eval/make-weights.sh ACF.txt [PRIOR] [WORK_DIR]
#
# ACF.txt: Checkers/ACF.txt of github.com/EricCJoyce/Datasets (MIT licence), 9,377 games of
# the American Checker Federation's archive. The self-play games are played by commit 2bcd532
# (the hand-set evaluation), built in a worktree of its own under WORK_DIR.
set -eu
acf=$1
prior=${2:-0}
work=${3:-target/tune}
mkdir -p "$work"
python3 tools/eval/acf_to_pdn.py "$acf" > "$work/acf.pdn"
if [ ! -x "$work/hand/target/release/crossboard" ]; then
    git worktree add --detach "$work/hand" 2bcd532
    (cd "$work/hand" && cargo build --release --locked)
fi
hand=$work/hand/target/release/crossboard
"$hand" engine-match --ballots 700 --seed 27 --nodes 4000 --jobs 2 --hash 4 --no-egdb \
    --out "$work/selfplay.pdn" > "$work/selfplay.log"
"$hand" engine-match --ballots 1400 --seed 28 --nodes 4000 --jobs 2 --hash 4 --no-egdb \
    --out "$work/selfplay2.pdn" > "$work/selfplay2.log"
cargo run --release --locked -- tune --pdn "$work/acf.pdn" "$work/selfplay.pdn" \
    "$work/selfplay2.pdn" --seed 27 --prior "$prior" --out src/search/eval/weights.rs
