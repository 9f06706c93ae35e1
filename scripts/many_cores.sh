#!/usr/bin/env bash
# Issue 47's figures on a machine with many cores, in one short run (BENCHMARKS.md, "Reciprocal
# against RVO2's best builds"): Reciprocal against RVO2's `-O3 -flto` build on one thread and
# its OpenMP build on N, on Circle with 10,000 agents (first 1,000 steps) and 100,000 (first
# 100), Steergraph's 1 and N threads in turns in one process (with each phase's time); the
# flock's speedup over one thread at 10,000, 100,000 and 1,000,000 agents (`versus_fast_loop`),
# and at 10,000 ticked once a frame as a game ticks (the pool asleep between ticks); the
# tick's phases at 10,000 and 1,000,000 on 1 and N threads. Then each of the issue's targets,
# met or not.
#
# Two steps, so the run needs neither cargo nor the network (a lent machine has neither):
#   scripts/many_cores.sh pack       builds every program here into target/many_cores/bin
#                                    (RVO2 cloned as versus_rvo2.sh does, linked statically;
#                                    debug info stripped) and prints its size
#   scripts/many_cores.sh run [N]    runs them (N threads: default every core), writes
#                                    target/many_cores/report.txt and prints the summary
# To measure on another x86-64 Linux machine, carry target/many_cores/bin there (about 10 MB)
# and run `scripts/many_cores.sh run 16`: some three minutes on 16 cores. The Rust programs
# need the glibc version that `pack` prints, or newer.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/many_cores/bin
case "${1:-}" in
pack)
    mkdir -p "$bin"
    # shellcheck source=scripts/rvo2/source.sh
    . scripts/rvo2/source.sh
    build_harness -static -flto -o "$bin/harness-lto"
    build_harness -static -flto -fopenmp -o "$bin/harness-lto-omp"
    cargo build --release -q -p tests --example versus_rvo2
    release=$(cargo metadata --no-deps --format-version 1 |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release
    cp "$release/examples/versus_rvo2" "$bin/"
    for bench in versus_fast_loop phases; do
        cp "$(scripts/bench_binary.sh "$bench")" "$bin/$bench"
    done
    strip --strip-debug "$bin"/*
    du -sh "$bin"
    echo "glibc needed: $(objdump -T "$bin"/versus_rvo2 "$bin"/versus_fast_loop "$bin"/phases |
        grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
    ;;
run)
    threads=${2:-$(nproc)}
    report=target/many_cores/report.txt
    for program in harness-lto harness-lto-omp versus_rvo2 versus_fast_loop phases; do
        [ -x "$bin/$program" ] || { echo "$bin/$program is missing: run '$0 pack' first" >&2; exit 1; }
    done
    {
        echo "# $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-); $threads threads"
        for scenario in "circle 10000:1000" "circle 100000:100"; do
            steps=${scenario#*:}
            for count in 1 "$threads"; do
                if [ "$count" = 1 ]; then build=lto; else build=lto-omp; fi
                # shellcheck disable=SC2086 # the scenario is two words on purpose
                STEPS=$steps OMP_NUM_THREADS=$count RVO2_LABEL="RVO2-$build-t$count" \
                    "$bin/harness-$build" ${scenario%:*} 0
            done
            # Steergraph's two counts in one process, in turns of 8 steps: its speedup over
            # one thread compares steps timed moments apart, whatever the machine's load does.
            # shellcheck disable=SC2086
            STEPS=$steps STEERGRAPH_THREADS=1,$threads STEERGRAPH_PHASE_TIMES=1 \
                "$bin/versus_rvo2" ${scenario%:*} 0
        done
        STEERGRAPH_BENCH_AGENTS=10000,100000,1000000 STEERGRAPH_BENCH_WORKLOAD=flock \
            STEERGRAPH_BENCH_THREADS=$(printf '%s\n' 1 2 4 8 "$threads" | sort -nu |
            awk -v n="$threads" '$1 <= n' | paste -sd,) "$bin/versus_fast_loop" --bench
        # A game's ticks, one a frame: 1 ms of the calling thread's own work before each while
        # the pool idles, so each tick wakes its threads; prefixed, so the verdicts skip it.
        STEERGRAPH_BENCH_GAP_US=1000 STEERGRAPH_BENCH_AGENTS=10000 STEERGRAPH_BENCH_WORKLOAD=flock \
            STEERGRAPH_BENCH_THREADS=1,"$threads" "$bin/versus_fast_loop" --bench |
            sed 's/^/once a frame: /'
        STEERGRAPH_BENCH_AGENTS=10000,1000000 STEERGRAPH_BENCH_WORKLOAD=flock \
            STEERGRAPH_BENCH_THREADS=1,"$threads" "$bin/phases" --bench
    } 2>&1 | tee "$report"
    python3 scripts/many_cores.py "$threads" < "$report"
    ;;
*)
    echo "usage: $0 pack | $0 run [THREADS]" >&2
    exit 2
    ;;
esac
