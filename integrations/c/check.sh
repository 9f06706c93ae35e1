#!/usr/bin/env bash
# The C interface end to end, as a C or Python programmer meets it: builds the library and
# `steergraph`, compiles the C examples with the system C compiler (and the header as C++),
# checks that a replay played back through C prints `steergraph replay`'s rows byte for byte,
# and that their CSV is byte for byte `steergraph simulate`'s on seven presets (walls and a
# flow field, Reciprocal, own goals, facings, jumps, planned routes), that routed presets give
# the same CSV on 1 and 2 threads, the same for the Python example, runs the navigation
# example (a game's own walls, every agent routed to its goal), and runs every C program under
# valgrind: 0 errors, 0 leaks. About a minute after `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v valgrind > /dev/null; then
    echo "valgrind is missing; installing it (Debian's package)"
    if [ "$(id -u)" = 0 ]; then apt-get install -y -q valgrind > /dev/null; else sudo apt-get install -y -q valgrind > /dev/null; fi
fi

cargo build --locked -p steergraph-c -p app
# The build's folder, wherever CARGO_TARGET_DIR or a config puts it.
target=$(cargo metadata --locked --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
lib="$target/debug"
steergraph="$lib/steergraph"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

flags=(-std=c11 -Wall -Wextra -Werror -pedantic -g -I integrations/c/include)
echo "== compile: shared library (simulate, errors), static library (game_loop), header as C++"
cc "${flags[@]}" integrations/c/examples/simulate.c -L"$lib" -lsteergraph -Wl,-rpath,"$lib" -o "$work/simulate"
cc "${flags[@]}" integrations/c/examples/errors.c -L"$lib" -lsteergraph -Wl,-rpath,"$lib" -lm -o "$work/errors"
cc "${flags[@]}" integrations/c/examples/game_loop.c "$lib/libsteergraph.a" -lpthread -ldl -lm -o "$work/game_loop"
cc "${flags[@]}" integrations/c/examples/navigate.c -L"$lib" -lsteergraph -Wl,-rpath,"$lib" -lm -o "$work/navigate"
cc "${flags[@]}" integrations/c/examples/replay.c -L"$lib" -lsteergraph -Wl,-rpath,"$lib" -o "$work/replay"
echo '#include "steergraph.h"' | c++ -std=c++17 -Wall -Wextra -Werror -I integrations/c/include -x c++ -fsyntax-only -

ticks=300
dt=0.016666668
echo "== CSV byte for byte: C and steergraph simulate, $ticks ticks"
for scene in rooms swap_circle errands sentry chasm halls jammed; do
    "$steergraph" simulate "presets/$scene.scene.ron" --ticks "$ticks" --dt "$dt" --out "$work/cli.csv"
    "$work/simulate" "presets/$scene.scene.ron" "$ticks" "$dt" "$work/c.csv"
    cmp "$work/cli.csv" "$work/c.csv"
    echo "same: $scene ($(wc -l < "$work/c.csv") lines)"
done
"$steergraph" simulate presets/errands.scene.ron --ticks 60 --dt 0.02 --seed 7 --out "$work/cli.csv"
"$work/simulate" presets/errands.scene.ron 60 0.02 "$work/c.csv" 7
cmp "$work/cli.csv" "$work/c.csv"
echo "same: errands with --seed 7 and --dt 0.02"

echo "== CSV byte for byte: routed presets on 1 and 2 threads"
for scene in halls jammed; do
    "$steergraph" simulate "presets/$scene.scene.ron" --ticks "$ticks" --dt "$dt" --threads 1 --out "$work/one.csv"
    "$steergraph" simulate "presets/$scene.scene.ron" --ticks "$ticks" --dt "$dt" --threads 2 --out "$work/two.csv"
    cmp "$work/one.csv" "$work/two.csv"
    echo "same: $scene on 1 and 2 threads"
done

echo "== a replay played back through C: the rows steergraph replay prints, byte for byte"
# The recording beside its scene (C opens scenes inside the replay's folder only).
cp -r presets "$work/levels"
for scene in chasm halls; do
    "$steergraph" record "$work/levels/$scene.scene.ron" --seconds 3 --out "$work/levels/$scene.sgrec" > /dev/null
    for tick in 0 97 180; do
        "$steergraph" replay "$work/levels/$scene.sgrec" --tick "$tick" --out "$work/cli.csv"
        "$work/replay" "$work/levels/$scene.sgrec" "$tick" "$work/c.csv"
        cmp "$work/cli.csv" "$work/c.csv"
    done
    echo "same: $scene at ticks 0, 97 and 180"
done

echo "== a game's own level: navigation from its own walls, every agent routed to its goal"
"$work/navigate" presets | tail -1

echo "== CSV byte for byte: Python (ctypes) and steergraph simulate"
"$steergraph" simulate presets/rooms.scene.ron --ticks "$ticks" --dt "$dt" --out "$work/cli.csv"
STEERGRAPH_LIB="$lib/libsteergraph.so" python3 integrations/c/examples/simulate.py presets/rooms.scene.ron "$ticks" "$dt" "$work/py.csv"
cmp "$work/cli.csv" "$work/py.csv"
echo "same: rooms from Python"

echo "== valgrind: every C program, 0 errors and 0 leaks"
memcheck=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
    --suppressions=integrations/c/valgrind.supp)
"${memcheck[@]}" "$work/errors" presets > "$work/errors.txt" || { cat "$work/errors.txt"; exit 1; }
tail -1 "$work/errors.txt"
"${memcheck[@]}" "$work/game_loop" presets > /dev/null
echo "game_loop: clean"
"${memcheck[@]}" "$work/navigate" presets > /dev/null
echo "navigate: clean"
for scene in rooms swap_circle errands chasm; do
    "${memcheck[@]}" "$work/simulate" "presets/$scene.scene.ron" 30 "$dt" "$work/c.csv"
    echo "simulate $scene: clean"
done
"${memcheck[@]}" "$work/replay" "$work/levels/chasm.sgrec" 60 "$work/c.csv"
echo "replay chasm: clean"
