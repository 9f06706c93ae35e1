#!/usr/bin/env python3
"""Sorts `perf script -F tid,period,ip,sym` samples (stdin) of the phases bench or of
`versus_rvo2` into serial and parallel time (see serial_share.sh). Arguments: the program's line
for one thread and for the thread count sampled ("... tick X ms ...; N ticks stepped; ..." or
"... N steps, X ms per step ...")."""
import collections
import re
import sys

# A frame of a rayon parallel pass: everything under it may run on any thread of the pool.
PARALLEL = re.compile(r"bridge_producer_consumer|bridge_unindexed|join_context|rayon_core::join::")
STEP = "Simulation::step_observed"
# The grid's rebuild and the re-sort, by the functions that do their work.
GRID = re.compile(r"rebuild_known|build::Part::|count_and_total|Cells::locate_all|SpatialGrid>::scatter")
RESORT = re.compile(r"layout::Layout::resort|layout::\{impl#\d+\}::resort")


def line_figures(line):
    """The tick's milliseconds and the ticks stepped, from the phases bench's line or from
    `versus_rvo2`'s ("... N steps, X ms per step ...")."""
    bench = re.search(r"tick ([0-9.]+) ms", line)
    if bench:
        ticks = int(re.search(r"(\d+) ticks stepped", line).group(1))
        return float(bench.group(1)), ticks
    found = re.search(r"(\d+) steps, ([0-9.]+) ms per step", line)
    return float(found.group(2)), int(found.group(1))


def samples(text):
    """Each sample's thread, period (ns) and frames, innermost first."""
    for block in text.split("\n\n"):
        lines = block.strip().split("\n")
        if len(lines) < 2:
            continue
        head = lines[0].split()
        frames = [line.strip().split(" ", 1)[-1] for line in lines[1:]]
        yield int(head[0]), int(head[1]), frames


def main():
    one_tick, _ = line_figures(sys.argv[1])
    many_tick, ticks = line_figures(sys.argv[2])
    by_thread = collections.Counter()
    in_step = collections.Counter()
    parts = collections.Counter()
    serial = collections.Counter()
    parsed = list(samples(sys.stdin.read()))
    for tid, period, frames in parsed:
        by_thread[tid] += period
        if any(STEP in frame for frame in frames):
            in_step[tid] += period
    stepper = max(in_step, key=in_step.get)
    serial_ns = 0
    for tid, period, frames in parsed:
        joined = " ".join(frames)
        work = "grid" if GRID.search(joined) else "resort" if RESORT.search(joined) else None
        if work:
            parts[(work, "stepping thread" if tid == stepper else f"worker {tid}")] += period
        if tid != stepper:
            continue
        below = next((i for i, frame in enumerate(frames) if STEP in frame), None)
        if below is None or any(PARALLEL.search(frame) for frame in frames[:below]):
            continue
        serial_ns += period
        inner = next((f for f in frames[:below] if "graph_runtime" in f), frames[below])
        serial[inner[:100]] += period
    per_tick = serial_ns / ticks * 1e-6
    print(
        f"serial: {per_tick * 1e3:.1f} µs a tick ({ticks} ticks sampled on the stepping thread)"
        f" = {100 * per_tick / one_tick:.2f} % of the one-thread tick ({one_tick:.4f} ms),"
        f" {100 * per_tick / many_tick:.2f} % of this tick ({many_tick:.4f} ms)"
    )
    for name, ns in serial.most_common(8):
        print(f"  {ns / ticks * 1e-3:6.2f} µs a tick  {name}")
    print("grid's rebuild and re-sort, CPU time a tick by thread:")
    for (work, thread), ns in sorted(parts.items()):
        print(f"  {work:6} {thread:16} {ns / ticks * 1e-3:7.1f} µs")


if __name__ == "__main__":
    main()
