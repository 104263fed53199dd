#!/usr/bin/env bash
# Installs the external tools the cross-check tests run: minisat (Debian) and
# ganak (PyPI's pyganak). Needs root for apt-get, or run the two lines by hand.
set -euo pipefail
if ! command -v minisat >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq minisat
fi
if ! python3 -c 'import pyganak' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pyganak
fi
command -v minisat >/dev/null
python3 -c 'import pyganak; print("pyganak", pyganak.__version__)'
