#!/usr/bin/env bash
# Reciprocal (ORCA) against RVO2, the UNC reference implementation, on RVO2's own Circle and
# Blocks examples: BENCHMARKS.md, "Reciprocal against RVO2". Each program in turn, each
# printing steps, time per step, mean arrival time and overlapping pairs.
#
# RVO2 is not a dependency of anything: this clones it (pinned) into target/rvo2 and builds
# scripts/rvo2/harness.cc against it with the system C++ compiler, three ways (issue 47):
#   RVO2-O3       g++ -std=c++17 -O3 -DNDEBUG                 (one thread)
#   RVO2-lto      the same with -flto, upstream's interprocedural-optimisation option
#                 (one thread): THE REFERENCE on one thread, RVO2's best build
#   RVO2-lto-omp  the same with -fopenmp, upstream's OpenMP option (doStep's agent loop on
#                 OMP_NUM_THREADS threads): the reference on more than one thread
# Steergraph's side is tests/examples/versus_rvo2.rs, cargo's release profile (opt-level 3),
# on a rayon pool of STEERGRAPH_THREADS threads.
#
# usage: scripts/versus_rvo2.sh [ROUNDS] [SCENARIOS...]   (default: 3 "circle 250" "circle 1000" blocks)
# THREADS="1 2 16" (default "1") runs every scenario at each thread count: on one thread the
# two one-thread builds and Steergraph, on more the OpenMP build and Steergraph on as many.
# RVO2_SOURCE (default https://github.com/snape/RVO2) is where the clone comes from (a local
# mirror on a machine without the network).
# `circle 10000` (40 rings) takes several minutes a side. STEPS=N (in the environment) stops
# both sides after at most N steps: `STEPS=100 scripts/versus_rvo2.sh 1 "circle 100000"` times
# the first 100 steps of 100,000 agents, as issue 47's table does.
#
# Both crowds are chaotic: the same algorithm in other rounding takes another way through the
# jam, so one run of each says little about whether they move the same way. PHASES (angles in
# radians, default "0") runs each scenario turned by each angle, and the figures then go
# through scripts/rvo2/summary.py (mean and spread per side):
#   PHASES="$(seq -s ' ' 0 0.001 0.019)" scripts/versus_rvo2.sh 1 blocks
# scripts/rvo2/at_once.sh runs one RVO2 build and Steergraph at the same time, one on each
# core, for a shared machine whose load comes and goes between runs in turn.
# TRAJECTORY=FILE in the environment of one side writes its positions after steps 1 to 1600;
# scripts/rvo2/trajectories.py compares two such files.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then scenarios=("circle 250" "circle 1000" "blocks"); fi
threads=${THREADS:-1}
# shellcheck source=scripts/rvo2/source.sh
. scripts/rvo2/source.sh
build_harness -o target/rvo2/harness-O3
build_harness -flto -o target/rvo2/harness-lto
build_harness -flto -fopenmp -o target/rvo2/harness-lto-omp
cargo build --release -q -p tests --example versus_rvo2
release=$(cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release
phases=${PHASES:-0}
for scenario in "${scenarios[@]}"; do
    for count in $threads; do
        if [ "$count" = 1 ]; then builds="O3 lto"; else builds="lto-omp"; fi
        for _ in $(seq "$rounds"); do
            for phase in $phases; do
                for build in $builds; do
                    # shellcheck disable=SC2086 # the scenario is a word or two on purpose
                    OMP_NUM_THREADS=$count RVO2_LABEL="RVO2-$build-t$count" \
                        target/rvo2/harness-$build $scenario "$phase"
                done
                # shellcheck disable=SC2086
                STEERGRAPH_THREADS=$count "$release/examples/versus_rvo2" $scenario "$phase"
            done
        done
    done
done | tee target/rvo2/last-run.txt
python3 scripts/rvo2/summary.py < target/rvo2/last-run.txt
