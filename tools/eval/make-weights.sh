#!/bin/sh
# Remake the data and the pattern tables of the English evaluation (assets/eval/english.bin);
# see docs/engine.md, "How the evaluation is tuned". About 10 minutes on 2 cores
# after the release build; the output is byte for byte the shipped table.
#
#   tools/eval/make-weights.sh ACF.txt [WORK_DIR]
#
# ACF.txt: Checkers/ACF.txt of github.com/EricCJoyce/Datasets (MIT licence), 9,377 games of
# the American Checker Federation's archive. The self-play games are played by this source's
# own build with the linear evaluation of src/search/eval/weights.rs (`--eval linear`), node-
# limited, so they replay exactly from their seeds; the tables are then fitted to the archive
# and those games, the held-out games split off by seed 27.
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
"$cb" tune --patterns --pdn "$work/acf.pdn" "$work/selfplay-29.pdn" "$work/selfplay-30.pdn" \
    --seed 27 --epochs 150 --rate 0.5 --l2 3e-9 --prior 0.000003 --out assets/eval/english.bin
