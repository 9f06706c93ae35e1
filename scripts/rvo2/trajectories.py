#!/usr/bin/env python3
"""How far apart two runs' agents are after each traced step: `trajectories.py A B`, where A
and B are the TRAJECTORY files of the harness and the example (lines `step agent x y`). The
same algorithm stays within float rounding (about 1e-5) until the crowd jams; a different one
shows a gap within a few steps."""
import collections
import math
import sys


def load(path):
    steps = collections.defaultdict(dict)
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            step, agent, x, y = line.split()
            steps[int(step)][int(agent)] = (float(x), float(y))
    return steps


first, second = load(sys.argv[1]), load(sys.argv[2])
print("step   largest |dp|   mean |dp|   agents > 1e-3   agents > 0.1")
for step in sorted(set(first) & set(second)):
    gaps = [math.dist(p, second[step][agent]) for agent, p in first[step].items()]
    print(
        f"{step:5d} {max(gaps):13.3g} {sum(gaps) / len(gaps):11.3g}"
        f" {sum(g > 1e-3 for g in gaps):15d} {sum(g > 0.1 for g in gaps):14d}"
    )
