#!/usr/bin/env bash
# The serial share of a tick (issue 47, BENCHMARKS.md "The tick's phases"): the time a tick
# spends outside every parallel pass, as a share of a one-thread tick. The phases bench runs
# the flock on one thread (the tick it takes), then on THREADS under `perf record` with call
# stacks; `serial_share.py` sorts the samples of the thread that steps the simulation into
# those under a rayon parallel pass (a parallel iterator's or `rayon::join`'s frames) and
# those not, and prints the second kind's time a tick, its share and where it is spent, and
# how the work of the grid's rebuild and the re-sort fell on each thread.
#
# With WORKLOAD `circle`, Reciprocal on RVO2's Circle instead (`versus_rvo2 circle AGENTS`,
# its first 1,000 steps): the harness's checks between steps are not under the step and do
# not count as serial, but its own grid (for the overlaps) counts in the last table's rows.
#
# usage: scripts/serial_share.sh [AGENTS] [THREADS] [WORKLOAD]   (default: 10000 2 flock)
# Needs `perf` (linux-tools) allowed to sample this user's processes
# (kernel.perf_event_paranoid <= 2).
set -euo pipefail
cd "$(dirname "$0")/.."
agents=${1:-10000}
threads=${2:-2}
workload=${3:-flock}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$workload" = circle ]; then
    cargo build -q --release -p tests --example versus_rvo2
    release=$(cargo metadata --no-deps --format-version 1 |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release
    run() {
        STEPS=1000 STEERGRAPH_THREADS=$1 "${@:2}" "$release/examples/versus_rvo2" circle "$agents" |
            grep 'ms per step'
    }
else
    bench=$(scripts/bench_binary.sh phases)
    run() {
        STEERGRAPH_BENCH_AGENTS=$agents STEERGRAPH_BENCH_THREADS=$1 \
            STEERGRAPH_BENCH_WORKLOAD="$workload" "${@:2}" "$bench" --bench | grep 'thread(s)'
    }
fi
one=$(run 1)
echo "$one" | cut -c1-80
many=$(run "$threads" perf record -q -e cpu-clock -F 2000 --call-graph dwarf,32768 \
    -o "$work/perf.data")
echo "$many" | cut -c1-80
perf script -i "$work/perf.data" -F tid,period,ip,sym 2>/dev/null |
    python3 scripts/serial_share.py "$one" "$many"
