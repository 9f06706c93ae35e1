#!/usr/bin/env bash
# Reciprocal against RVO2 with both programs running at the same time, one on each of two
# cores (BENCHMARKS.md, "Reciprocal against RVO2's best builds"). On a shared machine whose
# other tenants' load comes and goes, two programs run in turn see different loads; run at
# once, they see the same. The cores are swapped every round, so neither side keeps the
# better core. One thread a side.
#
# usage: scripts/rvo2/at_once.sh [ROUNDS] [SCENARIO] [A] [B]
#   (default: 4 "circle 1000" target/rvo2/harness-lto <release>/examples/versus_rvo2)
# A and B are RVO2 harnesses (their names hold "harness") or Steergraph's versus_rvo2; run
# scripts/versus_rvo2.sh once first to build them. Prints each round's ms a step of A and B
# and B / A, then the mean ratio. Two copies of one binary show the method's own spread.
# STEPS=N in the environment reaches both programs: `STEPS=100 scripts/rvo2/at_once.sh 2
# "circle 100000"` times the first 100 steps of 100,000 agents. Run it again with A and B
# swapped: the two orders can differ by several percent.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-4}
scenario=${2:-circle 1000}
release=$(cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release
a=${3:-target/rvo2/harness-lto}
b=${4:-$release/examples/versus_rvo2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One run of program $1 on core $2, its ms a step into file $3.
run() {
    # shellcheck disable=SC2086 # the scenario is a word or two on purpose
    STEERGRAPH_THREADS=1 OMP_NUM_THREADS=1 taskset -c "$2" "$1" $scenario 0 |
        grep -o '[0-9.]* ms per step' | cut -d' ' -f1 > "$3"
}
for round in $(seq "$rounds"); do
    if ((round % 2)); then core_a=0 core_b=1; else core_a=1 core_b=0; fi
    run "$a" "$core_a" "$out/a" &
    first=$!
    run "$b" "$core_b" "$out/b"
    # A run that failed (or printed no time) stops the script here, not in a division later.
    wait "$first"
    echo "$(cat "$out/a") $(cat "$out/b")"
done | awk -v a="$a" -v b="$b" '
    { ratio = $2 / $1; sum += ratio; printf "round %d: A %s, B %s ms a step, B / A %.3f\n", NR, $1, $2, ratio }
    END {
        if (NR == 0) { print "no round finished"; exit 1 }
        printf "A = %s\nB = %s\nmean B / A over %d rounds: %.3f\n", a, b, NR, sum / NR
    }'
