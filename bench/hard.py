#!/usr/bin/env python3
"""satsudoku unique against tdoku on 2,000 hard classic puzzles: ones that
need advanced techniques (ALS, forcing chains, kraken fish, ...), from the
collection the PyPI package `larsdoku` ships (puzzle_collection.json.gz:
each entry a solution and a mask of its givens). The package is downloaded
into /tmp with pip (never installed, never committed); COUNT puzzles are
drawn with a fixed seed from its sources, and every verdict is checked
against the solution the collection gives.

usage: python3 bench/hard.py COUNT RUNS TDOKU_SOLVE
  (from the repository root; writes bench/results/hard-DATE.md and prints it)
"""
import datetime
import glob
import gzip
import json
import os
import random
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from unique import commit, in_turns, machine, ratio_table, steal, steal_since, write_results  # noqa: E402


def collection():
    wheel_dir = "/tmp/satsudoku-larsdoku"
    wheels = glob.glob(f"{wheel_dir}/larsdoku-*.whl")
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", wheel_dir, "larsdoku==4.0.0"],
                       check=True, capture_output=True)
        wheels = glob.glob(f"{wheel_dir}/larsdoku-*.whl")
    with zipfile.ZipFile(wheels[0]) as z:
        return json.loads(gzip.decompress(z.read("larsdoku/puzzle_collection.json.gz")))


def main():
    count, runs, tdoku = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    data = collection()
    entries = [e for source, items in data.items() if source != "meta" for e in items]
    random.Random(2026).shuffle(entries)
    picked = entries[:count]
    path = f"/tmp/satsudoku-hard-{count}.txt"
    with open(path, "w") as f:
        for e in picked:
            f.write("".join(s if m == "1" else "." for s, m in zip(e["solution"], e["mask"])) + "\n")
    tools = {
        "satsudoku unique -j1": ["target/release/satsudoku", "unique", "--format", "givens", "-j1", "-"],
        "satsudoku unique (2 cores)": ["target/release/satsudoku", "unique", "--format", "givens", "-"],
        "satsudoku unique --engine enum -j1": ["target/release/satsudoku", "unique", "--format", "givens",
                                               "--engine", "enum", "-j1", "-"],
        "tdoku-solve 2": [tdoku, "2"],
    }
    def check(name, out):
        lines = [l for l in out.stdout.splitlines() if l.strip()]
        assert len(lines) == count, out.stderr[:500]
        if name.startswith("satsudoku"):
            for line, e in zip(lines, picked):
                assert line.split("\t")[1:3] == ["unique", e["solution"]], line
        else:
            assert all(l.split(":")[1] == "1" for l in lines)

    before = steal()
    times = in_turns(tools, runs, path, check)
    steal_share = steal_since(before)
    lines = [
        f"# unique on {count} hard classic 9x9 puzzles (larsdoku 4.0.0's collection), {datetime.date.today()}",
        "",
        f"Machine: {machine()}.",
        "",
        f"Command: `python3 bench/hard.py {count} {runs} TDOKU`, commit {commit()}, {os.cpu_count()} cores, "
        f"hypervisor steal {steal_share:.0f}% during the runs. Whole processes, medians of {runs} runs taken in turn; "
        "every tool found every puzzle unique, satsudoku with the collection's solution.",
        "",
    ]
    lines += ratio_table(times, count, "tdoku-solve 2")
    write_results("hard", lines)


if __name__ == "__main__":
    main()
