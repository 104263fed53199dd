#!/usr/bin/env python3
"""Count the solutions of a binary MIP file (satsudoku export --as mip or
mps) with SCIP's counting (pip install pyscipopt; SCIP's `count` command
with the counter emphasis).

Prints `s mc N` when the count is complete, `s UNKNOWN` otherwise.

usage: scip_count.py MODEL.lp|MODEL.mps [SECONDS]
"""
import sys

from pyscipopt import SCIP_PARAMEMPHASIS, Model


def main(path, seconds):
    model = Model()
    model.hideOutput()
    model.readProblem(path)
    model.setEmphasis(SCIP_PARAMEMPHASIS.COUNTER)
    model.setParam("constraints/countsols/collect", False)
    if seconds:
        model.setParam("limits/time", seconds)
    model.count()
    status = model.getStatus()
    if status in ("optimal", "infeasible"):
        print(f"s mc {model.getNCountedSols()}")
    else:
        print(f"s UNKNOWN ({status})")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0)
