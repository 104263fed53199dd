#!/usr/bin/env python3
"""`satsudoku fewest` on the layouts it reaches: the fewest givens, the
grids and classes searched, the sets checked with the solver, and the
time (median of RUNS), each against the value in the literature where
there is one.

usage: python3 bench/fewest.py [RUNS]   (cargo build --release first)
"""
import json
import statistics
import subprocess
import sys
import time

from benchlib import machine

BIN = "target/release/satsudoku"

LAYOUTS = [
    ("4x4 Sudoku", "." * 16 + "\n", "4 (OEIS A198297)"),
    ("4x4 Sudoku X (both diagonals)", "size 4\ndiagonal+\ndiagonal-\n", ""),
    ("4x4 disjoint groups", "size 4\ndisjoint\n", ""),
    ("4x4 Latin square", "size 4\nbox none\n", "4 (⌊n²/4⌋)"),
    ("5x5 Latin square", "size 5\nbox none\n", "6 (⌊n²/4⌋)"),
    ("6x6 Sudoku (2x3 boxes)", "size 6\n", "8 (Sudoku Programmers forum, 2011)"),
    ("6x6 Sudoku X", "size 6\ndiagonal+\ndiagonal-\n", ""),
    ("6x6 disjoint groups", "size 6\ndisjoint\n", ""),
    ("6x6 Latin square", "size 6\nbox none\n", "9 (⌊n²/4⌋)"),
]




def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print("# The fewest givens by layout (`satsudoku fewest`)\n")
    print(f"Machine: {machine()}. Commit {commit}, {time.strftime('%Y-%m-%d')}.")
    print(f"Command: `python3 bench/fewest.py {runs}`\n")
    print(f"Whole-process wall time, median of {runs} runs; one thread.\n")
    print("| layout | fewest givens | known | grids | classes searched | sets checked | seconds | a puzzle |")
    print("|---|---|---|---|---|---|---|---|")
    for name, text, known in LAYOUTS:
        times, record = [], None
        for _ in range(runs):
            start = time.perf_counter()
            out = subprocess.run([BIN, "fewest", "--output", "json", "-"], input=text, capture_output=True, text=True, check=True)
            times.append(time.perf_counter() - start)
            record = json.loads(out.stdout)
        grids = int(record["grids"])
        print(f"| {name} | {record['fewest_givens']} | {known or '-'} | {grids:,} | {record['classes']:,} | "
              f"{record['checks']:,} | {statistics.median(times):.2f} | `{record['example']}` |")


if __name__ == "__main__":
    main()
