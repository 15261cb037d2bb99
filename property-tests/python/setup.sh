#!/usr/bin/env bash
# The Python side of the interop tests: amulet-core (an independent reader and writer of Minecraft
# saves) in .venv at the repository root, pinned by requirements.txt. Does nothing when it is there.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -x .venv/bin/python ] && .venv/bin/python -c "import amulet" >/dev/null 2>&1; then
  exit 0
fi
if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
  echo "python3 with venv is needed for the amulet interop tests (Debian: apt-get install python3-venv)" >&2
  exit 1
fi
rm -rf .venv
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -r property-tests/python/requirements.txt
echo "amulet-core installed in .venv for the interop tests"
