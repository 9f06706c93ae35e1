#!/usr/bin/env bash
# The serial share of a tick (issue 47, BENCHMARKS.md "The tick's phases"): the time a tick
# spends outside every parallel pass, as a share of a one-thread tick. The phases bench runs
# the flock on one thread (the tick it takes), then on THREADS under `perf record` with call
# stacks; `serial_share.py` sorts the samples of the thread that steps the simulation into
# those under a rayon parallel pass (a parallel iterator's or `rayon::join`'s frames) and
# those not, and prints the second kind's time a tick, its share and where it is spent, and
# how the work of the grid's rebuild and the re-sort fell on each thread.
#
# usage: scripts/serial_share.sh [AGENTS] [THREADS]   (default: 10000 2)
# Needs `perf` (linux-tools) allowed to sample this user's processes
# (kernel.perf_event_paranoid <= 2).
set -euo pipefail
cd "$(dirname "$0")/.."
agents=${1:-10000}
threads=${2:-2}
bench=$(scripts/bench_binary.sh phases)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {
    STEERGRAPH_BENCH_AGENTS=$agents STEERGRAPH_BENCH_THREADS=$1 STEERGRAPH_BENCH_WORKLOAD=flock \
        "${@:2}" "$bench" --bench | grep 'thread(s)'
}
one=$(run 1)
echo "$one" | cut -c1-80
many=$(run "$threads" perf record -q -e cpu-clock -F 2000 --call-graph dwarf,32768 \
    -o "$work/perf.data")
echo "$many" | cut -c1-80
perf script -i "$work/perf.data" -F tid,period,ip,sym 2>/dev/null |
    python3 scripts/serial_share.py "$one" "$many"
