#!/usr/bin/env bash
# Reciprocal's scan of the grid's cells (`scan_nearest`, a third of a Reciprocal step) with no
# iterator's code called out of line (issue 47). Zipping two slices' `chunks_exact(4)` there
# left the zip's constructor called once a run, not inlined, in some builds: unrelated
# changes elsewhere in the runtime moved its code between codegen units, and the scan took
# 10 % more instructions. This reads the machine code of a release binary that links the
# runtime (the fuzzer's, which `.ci/run` builds just before) and fails if the scan calls
# anything from `core::iter`.
#
# usage: scripts/scan_codegen.sh [BINARY]   (default: target/release/examples/fuzz)
# Needs `objdump` (binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-target/release/examples/fuzz}
scan='graph_runtime::behaviors::reciprocal_nearest::scan_nearest'
code=$(objdump -d --no-show-raw-insn -C "$binary" | awk -v name="<$scan>:" '$2 == name { on = 1; next } on && /^$/ { on = 0 } on')
if [ -z "$code" ]; then
    echo "scan_codegen: $scan not found in $binary (inlined into its caller, or renamed): look at its callers' code" >&2
    exit 1
fi
calls=$(grep -E '\bcall' <<< "$code" | grep -E 'core::iter|Iterator' || true)
if [ -n "$calls" ]; then
    echo "scan_codegen: $scan calls iterator code out of line:" >&2
    echo "$calls" >&2
    exit 1
fi
echo "scan_codegen: $scan, $(grep -c . <<< "$code") instructions, calls no iterator code out of line"
