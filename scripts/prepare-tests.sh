#!/usr/bin/env bash
# What `npm test` needs before vitest, at once: the Java world port (java/build.sh, with its JUnit
# tests), amulet-core in .venv (property-tests/python/setup.sh), the TypeScript build (tsc -b), the
# formatting check (prettier, .prettierrc.json; `npm run format` fixes it) and
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
  # At -O1 (the flag comes after the package's own -O3, so it wins): 40 s instead of 80 on one core,
  # the longest step here. The tests do not time SQLite; `npm ci` (with its install script, as the
  # README's set-up runs it) builds the package's own optimised module, which `npm run bench` measures.
  (CFLAGS="${CFLAGS:-} -O1" npm rebuild better-sqlite3 && sqlite_ready && echo "better-sqlite3: native module compiled (-O1, for the tests)") >"$logs/sqlite" 2>&1 & sqlite=$!
fi
npx prettier --check --log-level warn "**/*.{ts,mjs}" >"$logs/format" 2>&1 && echo "prettier: every .ts and .mjs file is formatted" >>"$logs/format" & format=$!
status=0
for step in java python tsc sqlite format; do
  wait "${!step}"
  code=$?
  cat "$logs/$step"
  if [ "$code" -ne 0 ]; then
    echo "prepare-tests: $step failed (exit $code)" >&2
    [ "$status" -ne 0 ] || status=$code
  fi
done
exit "$status"
