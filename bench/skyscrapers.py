#!/usr/bin/env python3
"""The slow case of issue 39: 9x9 puzzles with 28 skyscraper clues, three
renban lines and the givens `satsudoku generate` adds until each is unique
(bench/instances/skyscrapers/, made by `python3 bench/gen_skyscrapers.py
10 39 28 0 DIR` and then `satsudoku generate -n 1 --seed 1` on each).
`satsudoku unique` (whole process) with each binary given, RUNS times
each, taking turns; median wall times and their ratio.

usage: python3 bench/skyscrapers.py OLD_BINARY NEW_BINARY [RUNS [OLD_COMMIT]]
(OLD: by default a build of the commit before the automaton encoding,
c9a1383, whose skyscraper clauses propagate forwards only; with OLD_COMMIT,
a build of that commit, and the columns are named by the commits)
"""
import glob
import os
import statistics
import subprocess
import sys
import time

from benchlib import machine




def timed(binary, path):
    start = time.perf_counter()
    out = subprocess.run([binary, "unique", "-j1", path], capture_output=True, text=True)
    return time.perf_counter() - start, out.stdout.split("\t")[0].strip()


def main():
    old, new = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    base = sys.argv[4] if len(sys.argv) > 4 else None
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    if base is None:
        print("# Skyscrapers: the automaton encoding against the forward one\n")
        names = ("forward", "automaton")
    else:
        print(f"# Skyscrapers: commit {commit} against {base}\n")
        names = (base, commit)
    print(f"Machine: {machine()}. Commit {commit}, {time.strftime('%Y-%m-%d')}.")
    old_from = base or "c9a1383"
    extra = f" {base}" if base else ""
    print(f"Command: `python3 bench/skyscrapers.py OLD NEW {runs}{extra}` (OLD built from {old_from})\n")
    print(f"`unique -j1`, whole process, median of {runs} runs taking turns; both say `unique` for every puzzle.\n")
    print(f"| puzzle | {names[0]} (ms) | {names[1]} (ms) | {names[0]} / {names[1]} |")
    print("|---|---|---|---|")
    totals = [0.0, 0.0]
    for path in sorted(glob.glob("bench/instances/skyscrapers/*.puzzle")):
        times = ([], [])
        for _ in range(runs):
            for k, binary in enumerate((old, new)):
                elapsed, verdict = timed(binary, path)
                assert verdict == "unique", f"{binary} on {path}: {verdict}"
                times[k].append(elapsed)
        a, b = statistics.median(times[0]), statistics.median(times[1])
        totals[0] += a
        totals[1] += b
        print(f"| {os.path.basename(path)} | {a * 1e3:,.0f} | {b * 1e3:,.0f} | {a / b:.1f}x |")
    print(f"| all | {totals[0] * 1e3:,.0f} | {totals[1] * 1e3:,.0f} | {totals[0] / totals[1]:.1f}x |")


if __name__ == "__main__":
    main()
