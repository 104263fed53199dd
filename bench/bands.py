#!/usr/bin/env python3
"""Sudoku grid counts by bands (the default plan; blank, and with givens
inside bands), against the plan
without bands (`--symmetry no-bands`: relabelling, line permutations and
transposition, then enumeration) and against ganak on the exported CNF;
whole processes taking turns run by run, medians, each count checked
against the literature.

usage: python3 bench/bands.py RUNS [PEER_SECONDS]
  (from the repository root; builds satsudoku; writes
   bench/results/bands-DATE.md). A command that does not finish within
   PEER_SECONDS (default 60) is run once and reported as not finishing.
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
# name, puzzle, count (literature).
LAYOUTS = [
    ("4x4 (2x2 boxes)", "size 4\nbox 2x2\n", 288),
    ("6x6 (2x3 boxes)", "size 6\nbox 2x3\n", 28200960),
    ("8x8 (2x4 boxes)", "size 8\nbox 2x4\n", 29136487207403520),
    ("9x9 (3x3 boxes)", "size 9\nbox 3x3\n", 6670903752021072936960),
    ("10x10 (2x5 boxes)", "size 10\nbox 2x5\n", 1903816047972624930994913280000),
    # Givens inside bands: the top-left box given leaves the 9x9 grids over
    # 9!; the top band given, its class's completions in Felgenhauer &
    # Jarvis's table times 72.
    ("9x9, top-left box given", "123......456......789......" + "." * 54 + "\n", 18383222420692992),
    ("9x9, top band given", "123456789456789123789123456" + "." * 54 + "\n", 7802998272),
]
# satsudoku's counts by bands may take this long (10x10: about 75 s on
# two cores); the other commands stop at PEER_SECONDS.
BANDS_SECONDS = 400


def run(cmd, limit):
    """Wall seconds and stdout of one run; None if it passed `limit` seconds."""
    start = time.perf_counter()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, ""
    return time.perf_counter() - start, out.stdout


def count_of(stdout):
    text = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    if text.startswith("solutions("):
        return int(text[len("solutions("):-2])
    return int(text) if text.isdigit() else None


def main():
    runs = int(sys.argv[1])
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    before = steal()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, expected in LAYOUTS:
            # The puzzle format for "size N" specs, the grid format for givens.
            puzzle = os.path.join(tmp, "grid.puzzle" if text.startswith("size") else "grid.txt")
            cnf = os.path.join(tmp, "grid.cnf")
            with open(puzzle, "w") as f:
                f.write(text)
            subprocess.run([SATSUDOKU, "export", puzzle, "-o", cnf], check=True, capture_output=True)
            tools = {
                "bands, 2 threads": [SATSUDOKU, "count", puzzle],
                "bands, 1 thread": [SATSUDOKU, "count", "-j1", puzzle],
                "no bands, 2 threads": [SATSUDOKU, "count", "--symmetry", "no-bands", puzzle],
                "ganak": [sys.executable, "scripts/ganak_count.py", cnf],
            }
            times = {tool: [] for tool in tools}
            for _ in range(runs):
                for tool, cmd in tools.items():
                    if times[tool] and times[tool][-1] is None:
                        continue
                    elapsed, stdout = run(cmd, max(limit, BANDS_SECONDS) if tool.startswith("bands") else limit)
                    if elapsed is not None and count_of(stdout) != expected:
                        sys.exit(f"{tool} on {name}: {stdout!r}, expected {expected}")
                    times[tool].append(elapsed)
            rows.append((name, expected, times))
    stolen = steal_since(before)
    tools = list(rows[0][2])
    lines = [
        "# Grid counts by bands (blank, and with givens inside bands)",
        "",
        f"Machine: {machine()}. Commit {commit()}, {time.strftime('%Y-%m-%d')}.",
        f"Command: `python3 bench/bands.py {runs} {limit:g}`; steal time {stolen:.1f}%.",
        "",
        f"Whole-process wall times, median of {runs} runs taking turns (ms); a command",
        f"that passed {limit:g} s was stopped and run once. Every count is checked",
        "against the literature (6x6: OEIS A107739; 8x8: Russell, as Wikipedia's 'Mathematics of Sudoku' gives it; 9x9: Felgenhauer & Jarvis;",
        "10x10: Pettersen, OEIS A291187; 9x9 with givens: Felgenhauer & Jarvis, the grids over 9! and",
        "a class's completions). The counts by bands may take {BANDS_SECONDS} s.".replace("{BANDS_SECONDS}", str(BANDS_SECONDS)),
        "",
        "| grid | count | " + " | ".join(tools) + " | no bands / bands |",
        "|---|---|" + "---|" * (len(tools) + 1),
    ]
    for name, expected, times in rows:
        def cell(ts):
            if ts and ts[-1] is None:
                return f"over {limit:g} s"
            return f"{statistics.median(ts) * 1e3:,.1f}"
        medians = {tool: ts for tool, ts in times.items()}
        bands, without = medians["bands, 2 threads"], medians["no bands, 2 threads"]
        ratio = "-" if without[-1] is None else f"{statistics.median(without) / statistics.median(bands):.1f}x"
        lines.append(f"| {name} | {expected:,} | " + " | ".join(cell(ts) for ts in times.values()) + f" | {ratio} |")
    write_results("bands", lines)


if __name__ == "__main__":
    main()
