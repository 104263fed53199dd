#!/usr/bin/env python3
"""Sudoku P (disjoint groups) counts under given lines, where the bands are
joined through the columns and the groups that cross them
(`src/count/bands/local/crossing.rs`): wall time and peak resident memory
of whole processes, taking turns run by run, medians, each count checked
against the forum's figure.

usage: python3 bench/crossing.py RUNS [BEFORE_BINARY] [ENUM_SECONDS]
  (from the repository root; builds satsudoku; writes
   bench/results/crossing-DATE.md). BEFORE_BINARY, if given, is another
   build of satsudoku run on the same puzzles in the same turns (the
   commit before a change). Enumeration (`--symmetry no-bands`, where the
   count goes by bands) runs once, stopped after ENUM_SECONDS (default
   300).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from unique import commit, machine, steal, steal_since, write_results  # noqa: E402

SATSUDOKU = "target/release/satsudoku"
COLUMN = "".join(f"{d}........\n" for d in "45237689")
# name, puzzle, count (enjoysudoku forum, "SudokuP - Analysis", 2018),
# whether the count goes by bands.
PUZZLES = [
    (
        "top band 123456789/456789123/789123456",
        "size 9\ndisjoint\ngivens\n123456789\n456789123\n789123456\n" + ".........\n" * 6,
        631369728,
        True,
    ),
    ("row 1 = 123456789, column 1 = 145237689", "size 9\ndisjoint\ngivens\n123456789\n" + COLUMN, 50861142, False),
]


def run(cmd, limit):
    """Wall seconds, peak resident MB and stdout of one run; None for the
    first two if it passed `limit` seconds."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        deadline = start + limit
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                os.wait4(child.pid, 0)
                return None, None, ""
            time.sleep(0.02)
        elapsed = time.perf_counter() - start
        out.seek(0)
        return elapsed, usage.ru_maxrss / 1024, out.read().decode()


def count_of(stdout):
    text = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    return int(text[len("solutions("):-2]) if text.startswith("solutions(") else None


def main():
    runs = int(sys.argv[1])
    before = sys.argv[2] if len(sys.argv) > 2 else None
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 300.0
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    stolen_from = steal()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, expected, by_bands in PUZZLES:
            puzzle = os.path.join(tmp, "p.puzzle")
            with open(puzzle, "w") as f:
                f.write(text)
            tools = {"satsudoku": ([SATSUDOKU, "count", puzzle], runs)}
            if before:
                tools["before"] = ([before, "count", puzzle], runs)
            if by_bands:
                tools["enumeration"] = ([SATSUDOKU, "count", "--symmetry", "no-bands", puzzle], 1)
            got = {tool: [] for tool in tools}
            for turn in range(runs):
                for tool, (cmd, times) in tools.items():
                    if turn >= times:
                        continue
                    elapsed, peak, stdout = run(cmd, limit)
                    if elapsed is not None and count_of(stdout) != expected:
                        sys.exit(f"{tool} on {name}: {stdout!r}, expected {expected}")
                    got[tool].append((elapsed, peak))
            rows.append((name, expected, got))
    stolen = steal_since(stolen_from)
    tools = list(rows[0][2])
    lines = [
        "# Sudoku P counts under given lines: bands joined through crossing groups",
        "",
        f"Machine: {machine()}. Commit {commit()}, {time.strftime('%Y-%m-%d')}.",
        f"Command: `python3 bench/crossing.py {' '.join(sys.argv[1:])}`; steal time {stolen:.1f}%.",
        "",
        f"Whole processes, median of {runs} runs taking turns (seconds, peak resident MB);",
        "`before` is the binary given on the command line, enumeration",
        f"(`--symmetry no-bands`) runs once, stopped after {limit:g} s. Each count is",
        "checked against the enjoysudoku forum's figure (\"SudokuP - Analysis\", 2018).",
        "",
        "| given | count | " + " | ".join(tools) + " |",
        "|---|---|" + "---|" * len(tools),
    ]
    for name, expected, got in rows:
        def cell(tool):
            results = got.get(tool, [])
            if not results:
                return "-"
            if results[-1][0] is None:
                return f"over {limit:g} s"
            seconds = statistics.median(r[0] for r in results)
            peak = statistics.median(r[1] for r in results)
            return f"{seconds:.2f} s, {peak:,.0f} MB"
        lines.append(f"| {name} | {expected:,} | " + " | ".join(cell(tool) for tool in tools) + " |")
    write_results("crossing", lines)


if __name__ == "__main__":
    main()
