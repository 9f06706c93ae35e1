#!/usr/bin/env bash
# Builds the runtime's bench NAME (release, `cargo bench --no-run`) and prints its executable's
# path: for scripts that run a bench binary under a tool (perf) or carry it elsewhere.
#
# usage: scripts/bench_binary.sh NAME
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p graph-runtime --bench "$1" --no-run --message-format=json |
    python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("target", {}).get("name") == sys.argv[1] and message.get("executable"):
        print(message["executable"])' "$1"
