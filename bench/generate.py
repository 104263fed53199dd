#!/usr/bin/env python3
"""`satsudoku generate` against HoDoKu's generator (hodoku-py, GPL-3.0, run as
a separate program): minimal classic 9x9 puzzles with one solution.

satsudoku makes COUNT puzzles (`generate -n COUNT -j2`), RUNS times, median
wall time; every puzzle is then checked unique and minimal by `satsudoku
minimal` (all must print `minimal`). HoDoKu's generator (the one behind its
"new puzzle", without its difficulty filter: `generate_sudoku(symmetric=False)`,
which removes givens while the puzzle stays unique) makes HODOKU puzzles,
timed the same way; the table compares time per puzzle.

usage: python3 bench/generate.py [COUNT] [HODOKU] [RUNS]   (cargo build --release; pip install hodoku-py)
"""
import statistics
import subprocess
import sys
import time

from benchlib import machine

BIN = "target/release/satsudoku"

HODOKU = """
import sys, time
from hodoku import Generator
g = Generator()._generator
n = int(sys.argv[1])
start = time.perf_counter()
puzzles = [g.generate_sudoku(symmetric=False) for _ in range(n)]
print(time.perf_counter() - start)
for p in puzzles:
    print(p)
"""




def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    hodoku = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    ours, theirs, givens = [], [], {}
    for run in range(runs):
        start = time.perf_counter()
        out = subprocess.run([BIN, "generate", "-n", str(count), "--seed", str(run + 1), "-j2", "-"],
                             input="." * 81 + "\n", capture_output=True, text=True, check=True).stdout
        ours.append(time.perf_counter() - start)
        puzzles = out.split()
        assert len(puzzles) == count
        checked = subprocess.run([BIN, "minimal", "-j2", "-"], input=out, capture_output=True, text=True).stdout
        verdicts = [l.split("\t")[-1] for l in checked.splitlines()]
        assert verdicts == ["minimal"] * count, "a generated puzzle is not unique and minimal"
        givens.setdefault("satsudoku", []).extend(81 - p.count(".") for p in puzzles)
        try:
            h = subprocess.run([sys.executable, "-c", HODOKU, str(hodoku)], capture_output=True, text=True, check=True)
        except (subprocess.CalledProcessError, FileNotFoundError):
            print("hodoku-py is not installed: pip install hodoku-py", file=sys.stderr)
            h = None
        if h:
            lines = h.stdout.split()
            theirs.append(float(lines[0]))
            givens.setdefault("HoDoKu", []).extend(81 - sum(c in "0." for c in p) for p in lines[1:])
    print("# `satsudoku generate` against HoDoKu's generator\n")
    print(f"Machine: {machine()}. Commit {commit}, {time.strftime('%Y-%m-%d')}.")
    print(f"Command: `python3 bench/generate.py {count} {hodoku} {runs}`\n")
    print(f"Minimal classic 9x9 puzzles with one solution, no symmetry; median of {runs} runs taking turns.")
    print("satsudoku's are all checked unique and minimal by `satsudoku minimal`.\n")
    print("| generator | puzzles | seconds | ms per puzzle | mean givens | per puzzle against satsudoku |")
    print("|---|---|---|---|---|---|")
    o = statistics.median(ours)
    print(f"| `satsudoku generate -j2` | {count:,} | {o:.2f} | {o / count * 1e3:.2f} | {statistics.mean(givens['satsudoku']):.1f} | 1x |")
    if theirs:
        t = statistics.median(theirs)
        ratio = (t / hodoku) / (o / count)
        print(f"| HoDoKu 2.2 (hodoku-py, one thread) | {hodoku:,} | {t:.2f} | {t / hodoku * 1e3:.2f} | {statistics.mean(givens['HoDoKu']):.1f} | {ratio:.0f}x |")


if __name__ == "__main__":
    main()
