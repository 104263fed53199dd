#!/usr/bin/env python3
"""The peers a user would reach for instead of satsudoku, one per subcommand.
Each prints solutions(S). for one instance, so bench/peers.py can time whole
processes and check that every peer agrees.

  run_peer.py clingo FILE.lp          clingo (PyPI) on an ASP encoding, models counted by clasp
  run_peer.py clingo2 FILE.lp         the same on two threads (clasp's `-t 2`)
  run_peer.py cpsat FILE.lp           OR-tools CP-SAT, enumerate_all_solutions with a counting callback
  run_peer.py minisat FILE.cnf        pysat's minisat22 in a blocking loop on satsudoku's exported CNF
  run_peer.py cadical FILE.cnf        pysat's cadical153 in the same loop

The CNF loops block on the projection (`c p show`) variables, as satsudoku does.
"""
import re
import sys

ADJ = [(0, 1), (1, 2), (3, 4), (4, 5), (6, 7), (7, 8)]
VERTICAL = {2: 0, 4: 1, 7: 3, 9: 4, 12: 6, 14: 7}  # line -> upper grid row (0-based)
ROW = {1: 0, 3: 1, 5: 2, 6: 3, 8: 4, 10: 5, 11: 6, 13: 7, 15: 8}


def relations(path):
    """(cell a, cell b, symbol) with cells as (row, col), 0-based."""
    rels = []
    with open(path) as f:
        for m in re.finditer(r"(row|vertical)\(([^)]*)\)", f.read()):
            values = [int(v) for v in m.group(2).split(",")]
            line, syms = values[0], values[1:]
            if m.group(1) == "row":
                r = ROW[line]
                rels += [((r, a), (r, b), s) for (a, b), s in zip(ADJ, syms)]
            else:
                r = VERTICAL[line]
                rels += [((r, c), (r + 1, c), s) for c, s in enumerate(syms)]
    return rels


ASP = """
num(1..9).
1 { x(R,C,N) : num(N) } 1 :- num(R), num(C).
:- x(R,C1,N), x(R,C2,N), C1 < C2.
:- x(R1,C,N), x(R2,C,N), R1 < R2.
:- x(R1,C1,N), x(R2,C2,N), (R1-1)/3 == (R2-1)/3, (C1-1)/3 == (C2-1)/3, (R1,C1) < (R2,C2).
:- rel(R1,C1,R2,C2,-1), x(R1,C1,A), x(R2,C2,B), A+B >= 10.
:- rel(R1,C1,R2,C2,0), x(R1,C1,A), x(R2,C2,B), A+B != 10.
:- rel(R1,C1,R2,C2,1), x(R1,C1,A), x(R2,C2,B), A+B <= 10.
#show x/3.
"""


def clingo_count(path, threads=1):
    import clingo

    facts = "".join(f"rel({a[0]+1},{a[1]+1},{b[0]+1},{b[1]+1},{s})." for a, b, s in relations(path))
    ctl = clingo.Control(["0", "--project", f"--parallel-mode={threads}"])
    ctl.add("base", [], ASP + facts)
    ctl.ground([("base", [])])
    ctl.solve()
    return int(ctl.statistics["summary"]["models"]["enumerated"])


def cpsat_count(path):
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [[model.NewIntVar(1, 9, f"x{r}{c}") for c in range(9)] for r in range(9)]
    for i in range(9):
        model.AddAllDifferent(x[i])
        model.AddAllDifferent([x[r][i] for r in range(9)])
        br, bc = i // 3 * 3, i % 3 * 3
        model.AddAllDifferent([x[br + k // 3][bc + k % 3] for k in range(9)])
    for (ra, ca), (rb, cb), s in relations(path):
        total = x[ra][ca] + x[rb][cb]
        model.Add(total < 10) if s < 0 else model.Add(total == 10) if s == 0 else model.Add(total > 10)

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.count = 0

        def on_solution_callback(self):
            self.count += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Counter()
    solver.Solve(model, counter)
    return counter.count


def blocking_count(path, name):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = CNF(from_file=path)
    show = []
    for line in cnf.comments:
        words = line.split()
        if words[:3] == ["c", "p", "show"]:
            show += [int(w) for w in words[3:] if w != "0"]
    show = show or list(range(1, cnf.nv + 1))
    count = 0
    with Solver(name=name, bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            solver.add_clause([-model[v - 1] for v in show if model[v - 1] > 0] or [-model[v - 1] for v in show])
            count += 1
    return count


def main():
    peer, path = sys.argv[1], sys.argv[2]
    if peer == "clingo":
        n = clingo_count(path)
    elif peer == "clingo2":
        n = clingo_count(path, threads=2)
    elif peer == "cpsat":
        n = cpsat_count(path)
    elif peer == "minisat":
        n = blocking_count(path, "minisat22")
    elif peer == "cadical":
        n = blocking_count(path, "cadical153")
    else:
        sys.exit(f"unknown peer {peer}")
    print(f"solutions({n}).")


if __name__ == "__main__":
    main()
