#!/usr/bin/env bash
# Installs what the tests and benchmarks run besides satsudoku, from the
# package registries (apt-get needs root):
#   bash scripts/install-tools.sh          the tests' cross-check tools: minisat
#                                          (Debian), ganak (PyPI's pyganak),
#                                          rsvg-convert (Debian's librsvg2-bin),
#                                          which renders compare's chart in a test,
#                                          and GNU parallel (Debian's parallel),
#                                          which runs a split count in a test
#                                          and the solvers the formulation round
#                                          trips and compare --solvers run
#                                          (tests/it/formulations.rs): CBC and
#                                          GLPK (MIP), clingo (Debian's gringo),
#                                          clasp (OPB), MiniZinc with Gecode,
#                                          CaDiCaL, PicoSAT, CryptoMiniSat
#                                          (Debian), HiGHS, OR-tools CP-SAT and
#                                          SCIP (PyPI's highspy, ortools,
#                                          pyscipopt)
#   bash scripts/install-tools.sh --research  the same: every solver
#                                          compare --solvers knows that the
#                                          package registries have (kissat is
#                                          not packaged here)
#   bash scripts/install-tools.sh --bench  also the peers bench/peers.py times:
#                                          GNU Prolog and hyperfine (Debian),
#                                          clingo, OR-tools and pysat (PyPI),
#                                          and HoDoKu's Python port (PyPI's
#                                          hodoku-py, GPL: run by bench/rate.py
#                                          and bench/generate.py as a program)
# sharpSAT is not packaged; bench/peers.py uses it only if it is on PATH.
set -euo pipefail
apt_install() {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}
if ! command -v minisat >/dev/null 2>&1 || ! command -v rsvg-convert >/dev/null 2>&1 \
  || ! command -v parallel >/dev/null 2>&1 || ! command -v cbc >/dev/null 2>&1 \
  || ! command -v glpsol >/dev/null 2>&1 || ! command -v clingo >/dev/null 2>&1 \
  || ! command -v clasp >/dev/null 2>&1 || ! command -v minizinc >/dev/null 2>&1; then
  apt_install minisat librsvg2-bin parallel coinor-cbc glpk-utils gringo clasp minizinc
fi
if ! command -v cadical >/dev/null 2>&1 || ! command -v picosat >/dev/null 2>&1 \
  || ! command -v cryptominisat5 >/dev/null 2>&1; then
  apt_install cadical picosat cryptominisat
fi
# Node runs sigh's Interactive Sudoku Solver (../shared/peers/iss) in the
# ISS cross-check of tests/it/external.rs.
if ! command -v node >/dev/null 2>&1; then
  apt_install nodejs
fi
if ! python3 -c 'import highspy, ortools, pyscipopt' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check highspy ortools pyscipopt
fi
if ! python3 -c 'import pyganak' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pyganak
fi
if [ "${1:-}" = "--bench" ]; then
  if ! command -v gplc >/dev/null 2>&1 || ! command -v hyperfine >/dev/null 2>&1; then
    apt_install gprolog hyperfine
  fi
  python3 -m pip install --quiet --disable-pip-version-check clingo ortools python-sat hodoku-py
fi
command -v minisat >/dev/null
command -v rsvg-convert >/dev/null
command -v parallel >/dev/null
command -v node >/dev/null
for solver in cbc glpsol clingo clasp minizinc cadical picosat cryptominisat5; do command -v "$solver" >/dev/null; done
python3 -c "import highspy, ortools, pyscipopt"
python3 -c 'import pyganak; print("pyganak", pyganak.__version__)'
