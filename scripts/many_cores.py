#!/usr/bin/env python3
"""Issue 47's targets, met or not, from the report of `many_cores.sh run` (stdin); the
argument is the thread count the report was run with."""
import re
import sys

# Steergraph-t16 circle 10000 agents: 1000 steps, 1.2345 ms per step, ...
STEP = re.compile(r"^(RVO2-lto(?:-omp)?|Steergraph)-t(\d+) \w+ (\d+) agents: \d+ steps, ([0-9.]+) ms per step")
SPEEDUP = re.compile(r"^(\d+)-thread speedup at (\d+) agents: ([0-9.]+)x \(8-tick means[,)]")
# Steergraph speedup 1 -> 16 threads, circle 10000 agents: 9.87x (median of 125 turns ...
IN_TURN = re.compile(r"^Steergraph speedup 1 -> (\d+) threads, \w+ (\d+) agents: ([0-9.]+)x \(median")


def verdict(ok):
    return "met" if ok else "NOT met"


def main():
    threads = int(sys.argv[1])
    step = {}
    speedup = {}
    in_turn = {}
    for line in sys.stdin:
        if match := STEP.match(line):
            who, count, agents, ms = match.groups()
            step[(who.split("-t")[0] if who == "Steergraph" else who, int(count), int(agents))] = float(ms)
        elif match := IN_TURN.match(line):
            count, agents, times = match.groups()
            in_turn[(int(count), int(agents))] = float(times)
        elif match := SPEEDUP.match(line):
            count, agents, times = match.groups()
            speedup[(int(count), int(agents))] = float(times)
    print(f"\nIssue 47's targets on {threads} threads (this run):")
    for agents in (10_000, 100_000):
        ours_one = step.get(("Steergraph", 1, agents))
        ours_many = step.get(("Steergraph", threads, agents))
        rvo_one = step.get(("RVO2-lto", 1, agents))
        rvo_many = step.get(("RVO2-lto-omp", threads, agents))
        if None in (ours_one, ours_many, rvo_one, rvo_many):
            print(f"  Circle {agents:,}: a run is missing from the report")
            continue
        print(
            f"  Circle {agents:,}, 1 thread: {ours_one:.3f} ms a step against RVO2 -O3 -flto's "
            f"{rvo_one:.3f}, {ours_one / rvo_one:.2f}x (<= 1.0: {verdict(ours_one <= rvo_one)})"
        )
        # Its own speedup: the median over turns of steps timed in turn (the whole run's means
        # where the report has no such line).
        own = in_turn.get((threads, agents), ours_one / ours_many)
        print(
            f"  Circle {agents:,}, {threads} threads: {ours_many:.3f} ms against RVO2 OpenMP's "
            f"{rvo_many:.3f}, {ours_many / rvo_many:.2f}x (<= 1.0: {verdict(ours_many <= rvo_many)}); "
            f"{own:.1f}x its own 1-thread step"
            # The aim on 16 threads: 10x.
            + (f" (>= 10: {verdict(own >= 10)})" if threads >= 16 else "")
        )
    for agents in (10_000, 100_000, 1_000_000):
        two = speedup.get((2, agents))
        many = speedup.get((threads, agents))
        if two is not None:
            print(f"  Flock {agents:,}, 1 to 2 threads: {two:.2f}x (>= 1.9: {verdict(two >= 1.9)})")
        if many is not None and threads != 2:
            # The aim for the flock: 12x on 16 threads at 1,000,000 agents.
            aim = agents == 1_000_000 and threads >= 16
            print(
                f"  Flock {agents:,}, 1 to {threads} threads: {many:.2f}x"
                + (f" (>= 12: {verdict(many >= 12)})" if aim else "")
            )


if __name__ == "__main__":
    main()
