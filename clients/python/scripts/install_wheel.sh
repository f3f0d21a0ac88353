#!/usr/bin/env bash
# Builds the tablelock wheel and installs it (with its psycopg and dev extras) into the venv given,
# creating the venv if need be: what users get, never the source tree.
# Usage: clients/python/scripts/install_wheel.sh <venv-dir>
set -euo pipefail

venv=${1:?usage: install_wheel.sh <venv-dir>}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Machines without a Python index have a local mirror there; elsewhere pip's own settings apply.
if [ -z "${PIP_INDEX_URL:-}" ] && [ -d /opt/pypi/simple ]; then
  export PIP_INDEX_URL=file:///opt/pypi/simple PIP_CONFIG_FILE=/dev/null
fi
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet hatchling build
"$venv/bin/python" -m build --wheel --no-isolation "$here" -o "$wheels" >/dev/null
wheel=$(ls "$wheels"/tablelock-*.whl)
"$venv/bin/pip" install --quiet "$wheel[psycopg,dev]"
# A rebuilt wheel of the same version replaces the one installed before.
"$venv/bin/pip" install --quiet --no-deps --force-reinstall "$wheel"

# From elsewhere than the source tree, with no PYTHONPATH: `tablelock` can only come from the venv.
cd /
PYTHONPATH= "$venv/bin/python" -c 'import tablelock, sys; sys.exit(0 if "site-packages" in tablelock.__file__ else "tablelock is not the installed wheel: " + tablelock.__file__)'
