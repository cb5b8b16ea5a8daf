#!/bin/sh
# Remake the data and the pattern tables of the English evaluation (assets/eval/english.bin);
# see docs/engine.md, "How the evaluation is tuned". Under the hour on 2 cores, two release
# builds included; the output is byte for byte the shipped table.
#
#   tools/eval/make-weights.sh ACF.txt [WORK_DIR]
#
# ACF.txt: Checkers/ACF.txt of github.com/EricCJoyce/Datasets (MIT licence), 9,377 games of
# the American Checker Federation's archive. Two generations of self-play, node-limited, so
# they replay exactly from their seeds:
# 1. games of this source's build with the linear evaluation of src/search/eval/weights.rs
#    (`--eval linear`, seeds 29 and 30), and the first tables fitted to them and the archive;
# 2. games of the build with those first tables (seeds 31 and 32; the two sides of a game
#    search 5,000 and 7,000 nodes, so that a ballot's two games differ), and the shipped tables
#    fitted to all of them and the archive.
# The held-out games are split off by seed 27 both times.
set -eu
acf=$1
work=${2:-target/tune}
mkdir -p "$work"
python3 tools/eval/acf_to_pdn.py "$acf" > "$work/acf.pdn"
cargo build --release --locked
cb=target/release/crossboard
for seed in 29 30; do
    "$cb" engine-match --eval linear --ballots 1000 --seed "$seed" --nodes 6000 --jobs 2 \
        --hash 4 --no-egdb --out "$work/selfplay-$seed.pdn" > "$work/selfplay-$seed.log"
done
fit() {
    "$cb" tune --patterns --pdn "$work/acf.pdn" "$@" --seed 27 --epochs 150 --rate 0.5 \
        --l2 3e-9 --prior 0.000003 --out assets/eval/english.bin
}
fit "$work/selfplay-29.pdn" "$work/selfplay-30.pdn"
cargo build --release --locked
for seed in 31 32; do
    "$cb" engine-match --ballots 2000 --seed "$seed" --nodes 5000 --opponent-nodes 7000 \
        --jobs 2 --hash 4 --no-egdb --out "$work/selfplay-$seed.pdn" > "$work/selfplay-$seed.log"
done
fit "$work/selfplay-29.pdn" "$work/selfplay-30.pdn" "$work/selfplay-31.pdn" "$work/selfplay-32.pdn"
