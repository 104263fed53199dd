#!/usr/bin/env python3
"""What the puzzles of an ISS run that satsudoku was slower on search.

Reads the table "The puzzles where satsudoku's whole process is slower than
ISS cold" of a results file of bench/iss.py (the newest
bench/results/iss-*.md by default) and runs each of those puzzles once more,
one after the other: `satsudoku count --max 2 --stats -j 1` (its engine,
decisions and clauses) and ISS cold through ../shared/peers/iss/run_iss.mjs
(its guesses, build and search milliseconds). Prints a markdown table with
the run's times beside them, for docs/performance.md's account of each
puzzle still slower (issue 39: "which puzzle misses, by how much, and why").

usage: python3 bench/iss_slower.py [RESULTS.md] [TIMEOUT]
  (from the repository root, after cargo build --release)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import iss_rows, newest  # noqa: E402

BIN = "target/release/satsudoku"


def slower(results):
    """(index, name, our process seconds, ISS cold seconds) of each row."""
    rows, inside = [], False
    for line in open(results):
        if line.startswith("The puzzles where satsudoku's whole process is slower"):
            inside = True
        elif inside and line.startswith("| ") and line[2].isdigit():
            f = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((int(f[0]), f[1], f[2], f[4]))
        elif inside and rows and not line.startswith("|"):
            break
    return rows


def ours(path, timeout):
    err = subprocess.run([BIN, "count", "--max", "2", "--stats", "-j", "1", "--timeout", str(timeout), path],
                         capture_output=True, text=True).stderr

    def stat(key):
        m = re.search(rf"^{key}: (\S+)", err, re.M)
        return m.group(1) if m else "-"
    return stat("engine"), stat("decisions"), stat("clauses")


def iss(path, timeout):
    for f in iss_rows("--timeout", str(timeout), path):
        return f[7], f[5], f[6]
    return "-", "-", "-"


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else newest("iss")
    timeout = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    corpus = json.load(open("tests/corpus/iss/examples.json"))
    print(f"From {results}; decisions and guesses measured again (timeout {timeout} s).\n")
    print("| # | name | satsudoku process s | ISS cold s | our engine | our decisions | ISS guesses "
          "| our clauses | ISS build ms | ISS search ms |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for index, name, process, cold in slower(results):
            path = os.path.join(tmp, f"{index:03d}.iss")
            with open(path, "w") as f:
                f.write(corpus[index]["input"])
            engine, decisions, clauses = ours(path, timeout)
            guesses, build, search = iss(path, timeout)
            print(f"| {index} | {name} | {process} | {cold} | {engine} | {decisions} | {guesses} | {clauses} "
                  f"| {build} | {search} |", flush=True)


if __name__ == "__main__":
    main()
