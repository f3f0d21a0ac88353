#!/usr/bin/env bash
# Installs the tablelock wheel into the venv given (install_wheel.sh) and runs the client's unit
# tests against it, never against the source tree.
# Usage: clients/python/scripts/build_and_test.sh [--venv <dir>] [pytest args...]
# Without --venv, a venv of its own is made and removed at the end.
set -euo pipefail

if [ "${1:-}" = --venv ]; then
  venv=${2:?--venv needs a directory}
  shift 2
else
  venv=$(mktemp -d)/venv
  trap 'rm -rf "$(dirname "$venv")"' EXIT
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/scripts/install_wheel.sh" "$venv"

# From the tests' folder, with no PYTHONPATH: `tablelock` can only come from the venv.
cd "$here/tests"
PYTHONPATH= PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -p no:cacheprovider "$here/tests" "$@"
