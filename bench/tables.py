#!/usr/bin/env python3
"""Writes the figures of docs/performance.md from bench/results: for each kind
of benchmark, the newest results file's title, its machine and command lines
(which carry the date and commit), and its tables, between the page's
`<!-- results:begin -->` and `<!-- results:end -->` markers.

usage: python3 bench/tables.py          (from the repository root)
       python3 bench/tables.py --check  (exit 1 if the page is not up to date)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import newest  # noqa: E402

PAGE = "docs/performance.md"
BEGIN, END = "<!-- results:begin -->\n", "<!-- results:end -->"

# Each kind: its files' prefix in bench/results, and what the section says it is.
KINDS = [
    ("peers", "Contest instances against the peers (`python3 bench/peers.py 5`)"),
    ("unique", "`unique` on minimal 9x9 puzzles against tdoku (`python3 bench/unique.py`)"),
    ("many", "Counting puzzles with 10^5..10^6 solutions against tdoku (`python3 bench/many.py`)"),
    ("variants", "The 85 public variant puzzles against Rangsk's solver (`python3 bench/variants.py`)"),
    ("hard", "Hard classic puzzles against tdoku (`python3 bench/hard.py`)"),
    ("learning", "The learning engine against `enum` and `blocking` (`python3 bench/learning.py`)"),
    ("bands", "Grid counts by bands (`python3 bench/bands.py`)"),
    ("crossing", "Sudoku P counts under given lines, bands joined through crossing groups (`python3 bench/crossing.py`)"),
    ("dlx", "Dancing links against the other engines (`python3 bench/dlx.py`)"),
    ("study", "Five paradigms on ten puzzles (`python3 bench/study.py`)"),
    ("rate", "`rate` against HoDoKu's rating (`python3 bench/rate.py`)"),
    ("generate", "`generate` against HoDoKu's generator (`python3 bench/generate.py`)"),
    ("fewest", "The fewest givens by layout (`python3 bench/fewest.py`)"),
    ("iss", "ISS's own puzzles against ISS (`python3 bench/iss.py`)"),
    ("iss-variants", "The 85 public variant puzzles against ISS (`python3 bench/iss.py RUNS TIMEOUT variants`)"),
    ("iss-unsolved", "ISS's collection puzzles without a recorded solution against ISS (`python3 bench/iss.py RUNS TIMEOUT unsolved`)"),
    ("skyscrapers", "Skyscraper-heavy puzzles against an earlier build (`python3 bench/skyscrapers.py`; 2026-11-26: the automaton against the forward encoding, 26.4x)"),
    ("orbits", "Essentially different grids (`count --up-to-symmetry`)"),
    ("symmetry", "Symmetry reductions"),
    ("components", "Independent parts"),
    ("estimate-8x8", "The 8x8 count and its estimates"),
    ("fuzz", "Fuzzing"),
]


def extract(path):
    """The file's title, its lines naming machine, command, date or commit, and its tables."""
    lines = open(path).read().splitlines()
    title = next((l.lstrip("# ").strip() for l in lines if l.startswith("# ")), os.path.basename(path))
    about = [l for l in lines if re.match(r"(Machine|Command|Commit|Date|Run)", l)]
    tables, current = [], []
    for line in lines:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return title, about, tables


def section():
    out = []
    for prefix, what in KINDS:
        path = newest(prefix)
        if path is None:
            continue
        title, about, tables = extract(path)
        out.append(f"### {what}\n")
        out.append(f"From [{os.path.basename(path)}](../{path}): {title}.\n")
        out.extend(about)
        if about:
            out.append("")
        for table in tables:
            out.extend(table)
            out.append("")
    return "\n".join(out)


def main():
    page = open(PAGE).read()
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    wanted = f"{head}{BEGIN}{section()}{END}{tail}"
    if "--check" in sys.argv:
        sys.exit(0 if wanted == page else 1)
    open(PAGE, "w").write(wanted)


if __name__ == "__main__":
    main()
