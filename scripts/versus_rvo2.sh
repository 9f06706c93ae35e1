#!/usr/bin/env bash
# Reciprocal (ORCA) against RVO2, the UNC reference implementation, on RVO2's own Circle and
# Blocks examples: BENCHMARKS.md, "Reciprocal against RVO2". Both on one thread, in turn, each
# printing steps, time per step, mean arrival time and overlapping pairs.
#
# RVO2 is not a dependency of anything: this clones it (pinned) into target/rvo2 and builds
# scripts/rvo2/harness.cc against it with the system C++ compiler:
#   g++ -std=c++17 -O3 -DNDEBUG (no -fopenmp, so RVO2's doStep runs on one thread)
# Steergraph's side is tests/examples/versus_rvo2.rs, cargo's release profile (opt-level 3),
# on a rayon pool of one thread.
#
# usage: scripts/versus_rvo2.sh [ROUNDS] [SCENARIOS...]   (default: 3 "circle 250" "circle 1000" blocks)
# `circle 10000` (40 rings) takes several minutes a side.
#
# Both crowds are chaotic: the same algorithm in other rounding takes another way through the
# jam, so one run of each says little about whether they move the same way. PHASES (angles in
# radians, default "0") runs each scenario turned by each angle, and the figures then go
# through scripts/rvo2/summary.py (mean and spread per side):
#   PHASES="$(seq -s ' ' 0 0.001 0.019)" scripts/versus_rvo2.sh 1 blocks
# TRAJECTORY=FILE in the environment of one side writes its positions after steps 1 to 1600;
# scripts/rvo2/trajectories.py compares two such files.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then scenarios=("circle 250" "circle 1000" "blocks"); fi
commit=1c25b27258d191e26c2df83ff6e31abc8efbdaed
src=target/rvo2/RVO2
if [ ! -d "$src" ]; then
    mkdir -p target/rvo2
    git clone -q https://github.com/snape/RVO2 "$src"
fi
git -C "$src" checkout -q "$commit"
g++ -std=c++17 -O3 -DNDEBUG -I "$src/src" "$src"/src/*.cc scripts/rvo2/harness.cc -o target/rvo2/harness
cargo build --release -q -p tests --example versus_rvo2
phases=${PHASES:-0}
for scenario in "${scenarios[@]}"; do
    for _ in $(seq "$rounds"); do
        for phase in $phases; do
            # shellcheck disable=SC2086 # the scenario is a word or two on purpose
            target/rvo2/harness $scenario "$phase"
            # shellcheck disable=SC2086
            target/release/examples/versus_rvo2 $scenario "$phase"
        done
    done
done | tee target/rvo2/last-run.txt
python3 scripts/rvo2/summary.py < target/rvo2/last-run.txt
