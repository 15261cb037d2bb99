#!/usr/bin/env bash
# What `npm test` needs before vitest, at once: the Java world port (java/build.sh, with its JUnit
# tests), amulet-core in .venv (property-tests/python/setup.sh), the TypeScript build (tsc -b) and
# better-sqlite3's native module when it is missing (CI installs with `npm ci --ignore-scripts` and
# compiles it here, next to the others, instead of alone inside npm ci: its prebuilt binaries are
# on GitHub, which CI does not reach, so it compiles SQLite from source, 80 s on one core).
# Each one's output is printed whole when it ends; the first to fail fails the script with its status.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
bash java/build.sh >"$logs/java" 2>&1 & java=$!
bash property-tests/python/setup.sh >"$logs/python" 2>&1 & python=$!
npx tsc -b >"$logs/tsc" 2>&1 & tsc=$!
sqlite_ready() { node -e 'new (require("better-sqlite3"))(":memory:").close()' >/dev/null 2>&1; }
if sqlite_ready; then
  echo "better-sqlite3: native module present" >"$logs/sqlite"
  true & sqlite=$!
else
  (npm rebuild better-sqlite3 && sqlite_ready && echo "better-sqlite3: native module compiled") >"$logs/sqlite" 2>&1 & sqlite=$!
fi
status=0
for step in java python tsc sqlite; do
  wait "${!step}"
  code=$?
  cat "$logs/$step"
  if [ "$code" -ne 0 ]; then
    echo "prepare-tests: $step failed (exit $code)" >&2
    [ "$status" -ne 0 ] || status=$code
  fi
done
exit "$status"
