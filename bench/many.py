#!/usr/bin/env python3
"""Per-model cost: counting classic 9x9 puzzles with 10^5..10^6 solutions,
satsudoku against tdoku (`tdoku-solve 100000000`) and the `sudoku` crate
(`solutions_count_up_to(100000000)`), whole processes, taking turns run by
run in one session; medians.

usage: python3 bench/many.py COUNT RUNS TDOKU_SOLVE
  (from the repository root; generates 2,000 minimal puzzles with
   bench/gen_minimal.py, then COUNT puzzles with bench/gen_many.py;
   writes bench/results/many-DATE.md)
"""
import datetime
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from unique import commit, in_turns, machine, steal, steal_since, write_results  # noqa: E402


def main():
    want, runs, tdoku = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path", "bench/peers/sudoku-crate/Cargo.toml"],
                   check=True)
    here = os.path.dirname(os.path.abspath(__file__))
    minimal = subprocess.run([sys.executable, os.path.join(here, "gen_minimal.py"), "2000", "1", tdoku],
                             capture_output=True, text=True, check=True).stdout
    with open("/tmp/satsudoku-minimal-2000.txt", "w") as f:
        f.write(minimal)
    generated = subprocess.run([sys.executable, os.path.join(here, "gen_many.py"), "/tmp/satsudoku-minimal-2000.txt",
                                str(want), "100000", "1000000", "1", tdoku], capture_output=True, text=True, check=True)
    puzzles = [l.split("\t") for l in generated.stdout.splitlines() if l and not l.startswith("#")]
    tools = {
        "satsudoku -j1": ["target/release/satsudoku", "count", "-j1", "-"],
        "satsudoku (2 cores)": ["target/release/satsudoku", "count", "-"],
        "tdoku": [tdoku, "100000000"],
        "sudoku crate": ["bench/peers/sudoku-crate/target/release/sudoku-crate-peer", "100000000"],
    }
    before = steal()
    rows = []
    for puzzle, expected in puzzles:
        single = f"/tmp/satsudoku-many-{expected}.txt"
        with open(single, "w") as f:
            f.write(puzzle + "\n")
        def check(name, out):
            got = out.stdout.strip()
            count = got[len("solutions("):-2] if name.startswith("satsudoku") else got.split(":")[1]
            assert count == expected, (name, got, expected, out.stderr[:300])

        times = in_turns(tools, runs, single, check)
        rows.append((int(expected), {name: statistics.median(t) for name, t in times.items()}))
    steal_share = steal_since(before)
    lines = [
        f"# Counting 9x9 puzzles with 10^5..10^6 solutions, {datetime.date.today()}",
        "",
        f"Machine: {machine()}.",
        "",
        f"Command: `python3 bench/many.py {want} {runs} TDOKU` (puzzles from `bench/gen_minimal.py 2000 1` and "
        f"`bench/gen_many.py MINIMAL {want} 100000 1000000 1`), commit {commit()}, hypervisor steal {steal_share:.0f}% "
        "during the runs. "
        f"Whole processes, medians of {runs} runs taken in turn; every tool found every count.",
        "",
        "| solutions | " + " | ".join(f"{name} ms" for name in tools) + " | satsudoku 2 cores / tdoku | -j1 / tdoku |",
        "|---:|" + "---:|" * (len(tools) + 2),
    ]
    for expected, med in rows:
        ms = " | ".join(f"{med[name] * 1e3:.0f}" for name in tools)
        lines.append(f"| {expected:,} | {ms} | {med['satsudoku (2 cores)'] / med['tdoku']:.1f}x | "
                     f"{med['satsudoku -j1'] / med['tdoku']:.1f}x |")
    per = {name: statistics.median(med[name] / expected * 1e9 for expected, med in rows) for name in tools}
    lines += ["", "Median nanoseconds per solution: " + ", ".join(f"{name} {ns:.0f}" for name, ns in per.items()) + "."]
    write_results("many", lines)


if __name__ == "__main__":
    main()
