#!/usr/bin/env bash
# Compares the tuner's CMA-ES with uniform random search of the same budget on the tuning
# problems in presets/: for each problem and search seed 1..5, the number of candidates each
# evaluates before one meets every goal (the search stops there; "-" when the budget of the
# problem file runs out first). Prints a Markdown table (BENCHMARKS.md, "Tuning").
# usage: scripts/tune_vs_random.sh [problem ...]   (release build of steergraph needed)
set -euo pipefail
cd "$(dirname "$0")/.."
steergraph=target/release/steergraph
problems=("${@:-swap_circle errands boids}")
echo "| problem | search | runs to meet every goal, search seeds 1-5 | met | median runs | mean runs (met) |"
echo "| --- | --- | --- | ---: | ---: | ---: |"
for problem in ${problems[@]}; do
  for search in cmaes random; do
    flag=""; [ "$search" = random ] && flag="--random"
    counts=()
    for seed in 1 2 3 4 5; do
      out=$($steergraph tune "presets/$problem.tune.ron" --stop-when-met --search-seed "$seed" $flag 2>/dev/null || true)
      runs=$(printf '%s\n' "$out" | sed -n -e 's/^best of \([0-9]*\) runs\{0,1\} (run.*/\1/p' \
        -e 's/^the values as they are meet every goal.*/1/p')
      if printf '%s\n' "$out" | grep -q '^all goals met$'; then counts+=("$runs"); else counts+=("-"); fi
    done
    met=$(printf '%s\n' "${counts[@]}" | grep -vc '^-$' || true)
    median=$(printf '%s\n' "${counts[@]}" | grep -v '^-$' | sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}')
    mean=$(printf '%s\n' "${counts[@]}" | grep -v '^-$' | awk '{s+=$1} END {if (NR==0) print "-"; else printf "%.1f", s/NR}')
    echo "| $problem | $search | ${counts[*]} | $met/5 | $median | $mean |"
  done
done
