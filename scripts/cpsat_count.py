#!/usr/bin/env python3
"""Count the solutions of an OPB file (satsudoku export --as opb) with
OR-tools CP-SAT, enumerating every solution (pip install ortools).

Prints `s mc N` when the search is complete, `s UNKNOWN` otherwise, and the
first solution as a `v` line of the OPB's variables.

usage: cpsat_count.py FILE.opb [SECONDS]
"""
import re
import sys

from ortools.sat.python import cp_model


def main(path, seconds):
    model = cp_model.CpModel()
    xs = {}

    def var(name):
        if name not in xs:
            xs[name] = model.NewBoolVar(name)
        return xs[name]

    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("*"):
                continue
            body, _, _ = line.partition(";")
            m = re.match(r"(.*?)(>=|=)\s*(-?\d+)\s*$", body)
            terms = re.findall(r"([+-]?\d+)\s+(x\d+)", m.group(1))
            expr = sum(int(c) * var(x) for c, x in terms)
            if m.group(2) == "=":
                model.Add(expr == int(m.group(3)))
            else:
                model.Add(expr >= int(m.group(3)))

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.count, self.first = 0, None

        def on_solution_callback(self):
            self.count += 1
            if self.first is None:
                self.first = [(x, self.Value(v)) for x, v in xs.items()]

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    if seconds:
        solver.parameters.max_time_in_seconds = seconds
    counter = Counter()
    status = solver.Solve(model, counter)
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        print(f"s mc {counter.count}")
    else:
        print("s UNKNOWN")
    if counter.first:
        print("v " + " ".join(x if value else "-" + x for x, value in counter.first))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0)
