#!/usr/bin/env python3
"""The study docs/research.md shows: a family of puzzles (the contest
samples and the classic, jigsaw and 16x16 samples), solvers of five
paradigms on five formulations (minisat on CNF, clingo on ASP, clasp on
OPB, CBC on the binary MIP, MiniZinc/Gecode on MiniZinc) beside satsudoku's
plan and its dancing links, through `satsudoku compare --solvers`. Writes
bench/results/study-DATE.md (the table, medians of RUNS), the cactus plot
bench/results/study-cactus.svg and the scatter of minisat against clingo
bench/results/study-scatter.svg.

usage: python3 bench/study.py [RUNS] [TIMEOUT]   (build first: cargo build --release;
       the solvers: bash scripts/install-tools.sh)
"""
import os
import platform
import subprocess
import sys
import time

BIN = "target/release/satsudoku"
FILES = [
    "cnf-samples/contest.lp",
    "cnf-samples/kattis-sample.txt",
    "cnf-samples/zero.lp",
    "cnf-samples/some.lp",
    "cnf-samples/many.lp",
    "cnf-samples/family/wikipedia.txt",
    "cnf-samples/family/inkala.txt",
    "cnf-samples/family/classic-6x6.grid",
    "cnf-samples/family/jigsaw-7x7.puzzle",
    "cnf-samples/family/classic-16x16.txt",
]
SOLVERS = "minisat,cadical,ganak,clingo,clasp,cbc,highs,scip,minizinc,cp-sat,satsudoku,satsudoku-dlx"


def main():
    runs = sys.argv[1] if len(sys.argv) > 1 else "3"
    timeout = sys.argv[2] if len(sys.argv) > 2 else "60"
    args = [BIN, "compare", "--solvers", SOLVERS, "--repeat", runs, "--timeout", timeout, "--output", "markdown",
            "--svg", "bench/results/study-cactus.svg", "--scatter", "minisat,clingo",
            "--scatter-svg", "bench/results/study-scatter.svg", "-f", *FILES]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"compare --solvers exited {out.returncode}:\n{out.stderr}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    model = platform.machine()
    if os.path.exists("/proc/cpuinfo"):
        names = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")]
        model = names[0] if names else model
    date = time.strftime("%Y-%m-%d")
    with open(f"bench/results/study-{date}.md", "w") as f:
        f.write("# Five paradigms on ten puzzles (`compare --solvers`)\n\n")
        f.write(f"Machine: {model}, {os.cpu_count()} cores. Commit {commit}, {date}.\n")
        f.write(f"Command: `python3 bench/study.py {runs} {timeout}`\n\n")
        f.write(f"Whole-process times in ms, medians of {runs} runs; peak resident memory of the solver's process. ")
        f.write("minisat's and CaDiCaL's answers are verdicts (a model, then the same CNF with it blocked); clasp's, ")
        f.write("CBC's and HiGHS's a solution; ganak, clingo, MiniZinc, CP-SAT and satsudoku count. Every answer ")
        f.write("agrees with satsudoku's count.\n\n")
        f.write(out.stdout)
    print(out.stdout)


if __name__ == "__main__":
    main()
