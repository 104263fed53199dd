#!/usr/bin/env python3
"""Solve a MIP file (satsudoku export --as mip or mps) with HiGHS (pip
install highspy) and write its solution file (`name value` lines), which
`satsudoku decode --as mip` reads; an infeasible model writes `Infeasible`.

usage: highs_solve.py MODEL.lp|MODEL.mps SOLUTION.txt
"""
import sys

import highspy


def main(model, solution):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.readModel(model)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    with open(solution, "w") as out:
        out.write(f"Model status: {status}\n")
        if "nfeasible" in status:
            return
        values = h.getSolution().col_value
        lp = h.getLp()
        for name, value in zip(lp.col_names_, values):
            out.write(f"{name} {value:.0f}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
