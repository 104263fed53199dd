#!/usr/bin/env python3
"""satsudoku unique against tdoku on a collection of minimal classic puzzles,
whole processes, taking turns run by run in one session; medians.

usage: python3 bench/unique.py COUNT RUNS TDOKU_SOLVE
  (from the repository root; builds satsudoku; generates COUNT puzzles with
   bench/gen_minimal.py; writes bench/results/unique-DATE.md)

Peers, each asked the same question (up to two solutions per puzzle):
- tdoku (`tdoku-solve 2`), built from ../shared/peers/tdoku;
- the `sudoku` crate's `solutions_count_up_to(2)` (bench/peers/sudoku-crate,
  built here with cargo);
- a pysat+minisat22 blocking loop on satsudoku's exported layout CNF, givens
  as assumptions (bench/peers/pysat_unique.py; needs `pip install python-sat`).
"""
import datetime
import os
import statistics
import subprocess
import sys
import time

from benchlib import results_path

HERE = os.path.dirname(os.path.abspath(__file__))


def steal():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return fields[7], sum(fields)


def machine():
    with open("/proc/cpuinfo") as f:
        model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "unknown CPU")
    return f"{model}, {os.cpu_count()} cores"


def steal_since(before):
    """The hypervisor's share of the CPU time since `before` (from `steal()`), in percent."""
    (stolen0, total0), (stolen1, total1) = before, steal()
    return 100.0 * (stolen1 - stolen0) / max(1, total1 - total0)


def commit():
    """The checked-out commit, short."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()


def in_turns(tools, runs, path, check):
    """Each tool's whole-process times on `path` over `runs` runs, the tools
    taking turns run by run; `check(name, out)` asserts each answer."""
    times = {name: [] for name in tools}
    for _ in range(runs):
        for name, cmd in tools.items():
            elapsed, out = timed(cmd, path)
            check(name, out)
            times[name].append(elapsed)
    return times


def write_results(name, lines):
    """Writes bench/results/NAME-DATE.md (or -2, -3 ... after the day's
    earlier runs) and prints it."""
    with open(results_path(name), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def timed(cmd, stdin_path):
    with open(stdin_path) as stdin:
        start = time.perf_counter()
        out = subprocess.run(cmd, stdin=stdin, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
    return elapsed, out


def main():
    count, runs, tdoku = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    path = f"/tmp/satsudoku-minimal-{count}.txt"
    with open(path, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_minimal.py"), str(count), "1", tdoku], stdout=f, check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path", "bench/peers/sudoku-crate/Cargo.toml"],
                   check=True)
    empty = "/tmp/satsudoku-empty-9x9.txt"
    with open(empty, "w") as f:
        f.write("." * 81 + "\n")
    layout = "/tmp/satsudoku-layout-9x9.cnf"
    subprocess.run(["target/release/satsudoku", "export", empty, "-o", layout], check=True)
    tools = {
        "satsudoku unique -j1": ["target/release/satsudoku", "unique", "-j1", "-"],
        "satsudoku unique (2 cores)": ["target/release/satsudoku", "unique", "-"],
        "tdoku-solve 2": [tdoku, "2"],
        "sudoku crate 0.8.0": ["bench/peers/sudoku-crate/target/release/sudoku-crate-peer", "2"],
        "pysat minisat22 loop": [sys.executable, "bench/peers/pysat_unique.py", layout],
    }
    def check(name, out):
        lines = [l for l in out.stdout.splitlines() if l.strip()]
        if name.startswith("satsudoku"):
            assert all("\tunique\t" in l for l in lines) and len(lines) == count, out.stderr[:500]
        else:
            assert all(l.split(":")[1] == "1" for l in lines) and len(lines) == count

    before = steal()
    times = in_turns(tools, runs, path, check)
    steal_share = steal_since(before)
    lines = [
        f"# unique on {count} minimal 9x9 puzzles, {datetime.date.today()}",
        "",
        f"Machine: {machine()}.",
        "",
        f"Command: `python3 bench/unique.py {count} {runs} TDOKU`, commit {commit()}, {os.cpu_count()} cores, "
        f"hypervisor steal {steal_share:.0f}% during the runs. Whole processes, medians of {runs} runs taken in turn; "
        "every tool found every puzzle unique.",
        "",
    ]
    lines += ratio_table(times, count, "tdoku-solve 2")
    write_results("unique", lines)


def ratio_table(times, count, reference):
    """Each tool's median total, per puzzle, and its ratio to `reference`'s."""
    ref_us = statistics.median(times[reference]) / count * 1e6
    lines = ["| tool | total ms | per puzzle µs | ratio to tdoku |", "|---|---:|---:|---:|"]
    for name, runs in times.items():
        med = statistics.median(runs)
        per = med / count * 1e6
        lines.append(f"| {name} | {med * 1e3:.1f} | {per:.1f} | {per / ref_us:.1f}x |")
    return lines


if __name__ == "__main__":
    main()
