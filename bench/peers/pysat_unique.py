#!/usr/bin/env python3
"""A pysat+minisat22 blocking loop as a `unique` peer, prepared as
satsudoku's own path is: one incremental solver on the empty 9x9 layout
(the CNF satsudoku exports, direct encoding), each puzzle's givens as
assumptions, its blocking clause guarded by a fresh activation literal that
is retired afterwards. Prints `LINE:COUNT` (up to 2) per puzzle, as
tdoku-solve does.

usage: python3 bench/peers/pysat_unique.py LAYOUT.cnf < puzzles.txt
"""
import sys

from pysat.formula import CNF
from pysat.solvers import Minisat22


def main():
    layout = CNF(from_file=sys.argv[1])
    top = layout.nv
    with Minisat22(bootstrap_with=layout.clauses) as solver:
        for line in sys.stdin:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            givens = [9 * i + int(ch) for i, ch in enumerate(line) if ch not in ".0"]
            top += 1
            guard = top
            found = 0
            while found < 2 and solver.solve(assumptions=givens + [guard]):
                found += 1
                model = solver.get_model()
                # Block this grid (its true cell digits) while `guard` holds.
                solver.add_clause([-guard] + [-v for v in model[:729] if v > 0])
            solver.add_clause([-guard])
            print(f"{line}:{found}")


if __name__ == "__main__":
    main()
