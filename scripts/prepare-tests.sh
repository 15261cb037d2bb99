#!/usr/bin/env bash
# What `npm test` needs before vitest, at once: the Java world port (java/build.sh, with its JUnit
# tests), amulet-core in .venv (property-tests/python/setup.sh) and the TypeScript build (tsc -b).
# Each one's output is printed whole when it ends; the first to fail fails the script with its status.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
bash java/build.sh >"$logs/java" 2>&1 & java=$!
bash property-tests/python/setup.sh >"$logs/python" 2>&1 & python=$!
npx tsc -b >"$logs/tsc" 2>&1 & tsc=$!
status=0
for step in java python tsc; do
  wait "${!step}"
  code=$?
  cat "$logs/$step"
  if [ "$code" -ne 0 ]; then
    echo "prepare-tests: $step failed (exit $code)" >&2
    [ "$status" -ne 0 ] || status=$code
  fi
done
exit "$status"
