#!/usr/bin/env python3
"""Mean, spread and range of each side's figures in the lines `scripts/versus_rvo2.sh` prints
(read from stdin), per scenario and agent count: an ensemble of turned runs (PHASES) compares
two crowds that are chaotic, where a single run of each differs by chance."""
import collections
import re
import statistics
import sys

LINE = re.compile(
    r"(\S+) (\S+) (\d+) agents: (\d+) steps, ([\d.]+) ms per step, mean arrival ([\d.]+) s, "
    r"(\d+) not arrived, overlapping pairs (\d+)"
)
runs = collections.defaultdict(list)
for line in sys.stdin:
    found = LINE.match(line)
    if found:
        side, scenario, agents = found[1], found[2], found[3]
        runs[(scenario, agents, side)].append(
            (float(found[5]), float(found[6]), int(found[7]), int(found[8]))
        )
for (scenario, agents, side), figures in sorted(runs.items()):
    print(f"{scenario} {agents} {side}: {len(figures)} runs")
    for column, name in enumerate(["ms per step", "mean arrival (s)", "not arrived", "overlaps"]):
        values = [run[column] for run in figures]
        spread = statistics.stdev(values) if len(values) > 1 else 0.0
        print(
            f"    {name:17s} mean {statistics.mean(values):14.4f}  sd {spread:12.4f}"
            f"  min {min(values):12.4f}  max {max(values):12.4f}"
        )

# Steergraph against the reference at each thread count: RVO2's best one-thread build (-O3
# -flto) on one thread, its OpenMP build on more (mean ms per step over the runs).
means = {key: statistics.mean(run[0] for run in figures) for key, figures in runs.items()}
print("Steergraph / reference (mean ms per step):")
for (scenario, agents, side), mean in sorted(means.items()):
    found = re.fullmatch(r"Steergraph-t(\d+)", side)
    if not found:
        continue
    threads = found[1]
    reference = f"RVO2-lto-t{threads}" if threads == "1" else f"RVO2-lto-omp-t{threads}"
    if (scenario, agents, reference) in means:
        ratio = mean / means[(scenario, agents, reference)]
        print(f"    {scenario} {agents}, {threads} thread(s): {ratio:.2f}x {reference}")
