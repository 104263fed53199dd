#!/usr/bin/env bash
# Installs the peers bench/peers.py compares satsudoku with, from the package
# registries: GNU Prolog and hyperfine (Debian), clingo, OR-tools and pysat
# (PyPI), plus the cross-check tools of scripts/install-peers.sh (minisat,
# pyganak). sharpSAT is not packaged; bench/peers.py uses it only if present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-peers.sh
if ! command -v gplc >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gprolog hyperfine
fi
python3 -m pip install --quiet --disable-pip-version-check clingo ortools python-sat
