#!/usr/bin/env python3
"""Whole-process times of satsudoku's engines and encodings on the samples.

Runs every (sample, engine, relation encoding) RUNS times in one session and
prints the median wall time in ms and the ratio to the default configuration
(blocking engine, forbidden-pairs relations) on the same sample.

usage: python3 bench/engines.py [RUNS]     (build first: cargo build --release)
"""
import statistics
import subprocess
import sys
import time

BIN = "target/release/satsudoku"
SAMPLES = ["contest.lp", "zero.lp", "some.lp", "many.lp"]
CONFIGS = [("blocking", "forbidden-pairs"), ("blocking", "support"), ("enum", "forbidden-pairs"), ("enum", "support")]


def run(args):
    start = time.perf_counter()
    out = subprocess.run([BIN, "count", *args], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, out.stdout.strip()


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    print(f"| sample | engine | relation | count | median ms ({runs} runs) | ratio to blocking/forbidden-pairs |")
    print("|---|---|---|---|---|---|")
    for sample in SAMPLES:
        base = None
        for engine, relation in CONFIGS:
            args = ["--engine", engine, "--relation", relation, f"cnf-samples/{sample}"]
            times, answer = [], None
            for _ in range(runs):
                t, answer = run(args)
                times.append(t)
            median = statistics.median(times) * 1e3
            base = base or median
            print(f"| {sample} | {engine} | {relation} | {answer} | {median:.1f} | {median / base:.2f} |")


if __name__ == "__main__":
    main()
