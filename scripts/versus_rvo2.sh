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
for scenario in "${scenarios[@]}"; do
    for _ in $(seq "$rounds"); do
        # shellcheck disable=SC2086
        target/rvo2/harness $scenario
        # shellcheck disable=SC2086
        target/release/examples/versus_rvo2 $scenario
    done
done
