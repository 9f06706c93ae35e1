#!/usr/bin/env bash
# Two programs of Reciprocal against RVO2 in turn on one core (BENCHMARKS.md, "Reciprocal
# against RVO2's best builds"): A, then B, then A again, ROUNDS times each, all on core 1,
# one thread a side. For a short run (Blocks takes a quarter of a second) the at-once script
# (`at_once.sh`) favours whichever program it starts first; in turn, neither is alone on the
# machine for longer. Prints each program's median and fastest ms a step and B / A of both.
#
# usage: scripts/rvo2/in_turn.sh [ROUNDS] [SCENARIO] [A] [B]
#   (default: 20 blocks target/rvo2/harness-lto <release>/examples/versus_rvo2)
# Run it again with A and B swapped: the ratio of the two orders' medians is the figure.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-20}
scenario=${2:-blocks}
release=$(cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release
a=${3:-target/rvo2/harness-lto}
b=${4:-$release/examples/versus_rvo2}
for _ in $(seq "$rounds"); do
    for program in "$a" "$b"; do
        # shellcheck disable=SC2086 # the scenario is a word or two on purpose
        time=$(STEERGRAPH_THREADS=1 OMP_NUM_THREADS=1 taskset -c 1 "$program" $scenario 0 |
            grep -o '[0-9.]* ms per step' | cut -d' ' -f1)
        echo "$program $time"
    done
done | python3 -c '
import statistics, sys
times = {}
for line in sys.stdin:
    program, time = line.split()
    times.setdefault(program, []).append(float(time))
if len(times) != 2:
    sys.exit("a run failed or printed no time")
(a, ta), (b, tb) = times.items()
for name, t in ((a, ta), (b, tb)):
    print(f"{name}: median {statistics.median(t):.4f}, fastest {min(t):.4f} ms a step, {len(t)} rounds")
print(f"B / A: {statistics.median(tb) / statistics.median(ta):.3f} by the medians, "
      f"{min(tb) / min(ta):.3f} by the fastest")
'
