#!/usr/bin/env python3
"""The join of the outer bands (`src/count/band_join.rs`) against
enumeration, on a random sample of a blank layout's middle-band orbits:
for each orbit drawn, the completions the join counts (`cargo run
--example join_sample`, bench/join_sample.rs) and the solutions `satsudoku
count` enumerates for the puzzle with that band given (the grid engine;
the plan joins only blank layouts). A second count of the orbits the
9x9 anti-king total rests on, by a route that shares nothing with the join
but the band's fillings.

usage: python3 bench/join_sample.py [ORBITS] [SEED] [LAYOUT]
  (from the repository root; ORBITS 40, SEED 1 and LAYOUT `antiking` by
  default: a `size 9` layout with that rule line; writes
  bench/results/join-sample-DATE.md and prints it; exits 1 if any count
  differs)
"""
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import commit, machine, results_path  # noqa: E402


def main():
    orbits = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rule = sys.argv[3] if len(sys.argv) > 3 else "antiking"
    layout_text = f"size 9\n{rule}\n"
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet", "--example", "join_sample", "--bin",
                    "satsudoku"], check=True)
    rows, differ, times, routes, weighted = [], 0, [], set(), []
    with tempfile.TemporaryDirectory() as tmp:
        layout = os.path.join(tmp, "layout.txt")
        with open(layout, "w") as f:
            f.write(layout_text)
        out = subprocess.run(["target/release/examples/join_sample", layout, str(orbits), str(seed)],
                             capture_output=True, text=True, check=True)
        about = out.stderr.strip()
        for line in out.stdout.splitlines():
            index, size, joined, givens = line.split("\t")
            band = [givens[9 * r:9 * r + 9] for r in range(9)]
            puzzle = os.path.join(tmp, f"orbit{index}.txt")
            with open(puzzle, "w") as f:
                f.write(layout_text + "givens\n" + "\n".join(band) + "\n")
            start = time.perf_counter()
            run = subprocess.run(["target/release/satsudoku", "count", "--stats", "-j", "2", puzzle],
                                 capture_output=True, text=True)
            seconds = time.perf_counter() - start
            times.append(seconds)
            found = re.search(r"^solutions\((\d+)\)\.$", run.stdout, re.M)
            # The second count must not be the join's: the plan enumerates.
            routes.add(" ".join(re.findall(r"^(?:method|engine): (.*)$", run.stderr, re.M)))
            if "enumeration" not in run.stderr:
                found = None
            same = bool(found) and found.group(1) == joined
            if found:
                weighted.append(int(size) * int(found.group(1)))
            differ += not same
            shown = f"{int(found.group(1)):,}" if found else f"no enumeration (exit {run.returncode})"
            middle = " / ".join(r for r in band if r.strip("."))
            rows.append(f"| {index} | {size} | `{middle}` | {int(joined):,} | {shown} | {seconds:.2f} | "
                        f"{'yes' if same else '**no**'} |")
            print(rows[-1], file=sys.stderr)
    lines = [
        f"# The outer bands' join against enumeration, {len(rows)} orbits of `size 9` + `{rule}`",
        "",
        f"Machine: {machine()}. Commit {commit()}, {time.strftime('%Y-%m-%d')}.",
        "",
        f"Command: `python3 bench/join_sample.py {orbits} {seed} {rule}`: {about.removeprefix('join_sample: ')};",
        f"{len(rows)} of them drawn at random (ChaCha8, seed {seed}). For each, the completions the",
        "join counts (`cargo run --release --example join_sample`) against the solutions",
        "`satsudoku count --stats -j 2` enumerates for the puzzle with the band given (its",
        f"method and engine: {', '.join(sorted(routes))}; the plan joins only blank layouts).",
        "",
        "| orbit | size | middle band | joined | enumerated | seconds | same |",
        "|---:|---:|---|---:|---:|---:|---|",
        *rows,
        "",
        f"{len(rows) - differ} of {len(rows)} the same; enumeration took {sum(times):.0f} s in all, "
        f"{statistics.median(times):.2f} s an orbit at the median.",
    ]
    # The enumerated counts alone estimate the whole count: every grid is
    # 9! relabellings of one whose band has its first box fixed, and the
    # orbits were drawn uniformly.
    listed = int(re.search(r"(\d+) orbits", about).group(1))
    if len(weighted) > 1:
        scale = math.factorial(9) * listed
        mean, error = statistics.mean(weighted), statistics.stdev(weighted) / math.sqrt(len(weighted))
        lines += ["", f"The enumerated counts alone estimate the layout's grids as 9! x {listed:,} orbits x the "
                  f"mean of size x completions: {scale * mean:.4e} +- {scale * error:.1e} (one standard error).",
                  f"The exact total must lie near it; this is a sample, not a second count."]
    path = results_path("join-sample")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"written to {path}", file=sys.stderr)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
