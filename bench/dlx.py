#!/usr/bin/env python3
"""Dancing links (`--engine dlx`) against satsudoku's other engines.

Counts each input with every engine that takes it (`count -j1 --symmetry
none --stats`, so that no engine is helped by symmetry or bands), RUNS
times each, taking turns; prints the median whole-process wall time, the
engine's decisions (for dlx: options tried, the node count seed 002
reports), and checks that every engine gives the same count.

usage: python3 bench/dlx.py [RUNS] [TIMEOUT]   (build first: cargo build --release)
"""
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

BIN = "target/release/satsudoku"
ENGINES = ["dlx", "grid", "enum", "blocking"]


def inputs(tmp):
    six = os.path.join(tmp, "six-top-row.puzzle")
    with open(six, "w") as f:
        f.write("size 6\ngivens\n123456\n" + "......\n" * 5)
    return [
        ("classic 9x9, Wikipedia", "cnf-samples/family/wikipedia.txt"),
        ("classic 9x9, Inkala's hardest", "cnf-samples/family/inkala.txt"),
        ("classic 16x16, 2 solutions", "cnf-samples/family/classic-16x16.txt"),
        ("jigsaw 7x7", "cnf-samples/family/jigsaw-7x7.puzzle"),
        ("6x6, top row given", six),
        ("contest (sum relations)", "cnf-samples/contest.lp"),
        ("contest, 117 solutions", "cnf-samples/many.lp"),
    ]


def run(engine, path, timeout):
    args = [BIN, "count", "-j1", "--symmetry", "none", "--stats", "--engine", engine, path]
    start = time.perf_counter()
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, None
    elapsed = time.perf_counter() - start
    if out.returncode != 0:
        return "refused", None, None
    decisions = next((l.split(":")[1].strip() for l in out.stderr.splitlines() if l.startswith("decisions:")), "")
    return out.stdout.strip(), elapsed, decisions


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 60
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print("# Dancing links against the other engines\n")
    model = platform.machine()
    if os.path.exists("/proc/cpuinfo"):
        names = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")]
        model = names[0] if names else model
    print(f"Machine: {model}, {os.cpu_count()} cores. Commit {commit}, {time.strftime('%Y-%m-%d')}.")
    print(f"Command: `python3 bench/dlx.py {runs} {timeout:g}`\n")
    print(f"Whole-process wall time in ms, median of {runs} runs taking turns, `count -j1 --symmetry none`;")
    print("decisions as `--stats` gives them (dlx: options tried). Every engine's count is the same.\n")
    print("| puzzle | count | dlx ms | dlx decisions | grid ms | enum ms | blocking ms | dlx / best other |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in inputs(tmp):
            times = {e: [] for e in ENGINES}
            answers, decisions = {}, {}
            for _ in range(runs):
                for engine in ENGINES:
                    answer, elapsed, d = run(engine, path, timeout)
                    answers[engine] = answer
                    decisions[engine] = d
                    if elapsed is not None:
                        times[engine].append(elapsed * 1e3)
            counts = {a for e, a in answers.items() if a not in (None, "refused")}
            assert len(counts) == 1, f"{name}: the engines disagree: {answers}"
            cell = {}
            for engine in ENGINES:
                if answers[engine] == "refused":
                    cell[engine] = "refused"
                elif not times[engine]:
                    cell[engine] = f"over {timeout:g} s"
                else:
                    cell[engine] = f"{statistics.median(times[engine]):,.1f}"
            others = [statistics.median(times[e]) for e in ENGINES[1:] if times[e] and answers[e] != "refused"]
            ratio = f"{statistics.median(times['dlx']) / min(others):.2f}x" if times["dlx"] and others else "-"
            count = counts.pop().removeprefix("solutions(").removesuffix(").")
            print(f"| {name} | {int(count):,} | {cell['dlx']} | {decisions['dlx'] or '-'} | {cell['grid']} | {cell['enum']} | {cell['blocking']} | {ratio} |")


if __name__ == "__main__":
    main()
