#!/usr/bin/env python3
"""`unique` on the 85 published variant puzzles (tests/corpus/variants/)
against Rangsk's solver, the peer setters run from f-puzzles and SudokuPad
(its TypeScript port in ../shared/peers/svsjs), one after the other in one
session, RUNS runs each taking turns; per puzzle the median.

Each tool's time per puzzle is its own: satsudoku's `--output json` seconds
(one process over all 85 files, one thread), the peer's seconds of its one
`countSolutions` call (node start-up excluded). satsudoku is run three ways:
the default plan (enum for its first JUDGE_DECISIONS decisions, then
varisat), `--engine enum` alone (stopped at ENUM_TIMEOUT seconds) and
`--engine blocking` (varisat alone). Every verdict is checked against the
published solution (the erratum "Executive Function" against its true one).

usage: python3 bench/variants.py RUNS SVS_DIR
  (from the repository root; SVS_DIR from `bash ../shared/peers/svsjs/build.sh
   SVS_DIR`; writes bench/results/variants-DATE.md and prints it)
"""
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ERRATUM  # noqa: E402
from unique import commit, machine, results_path  # noqa: E402

ENUM_TIMEOUT = 10


def satsudoku(files, extra):
    """Per file: (seconds, verdict, solution) from one `unique --output json` process."""
    cmd = ["target/release/satsudoku", "unique", "--output", "json", "-j", "1", *extra, *files]
    out = subprocess.run(cmd, capture_output=True, text=True)
    rows = {}
    for line in out.stdout.splitlines():
        obj = json.loads(line)
        rows[obj["source"]] = (obj.get("seconds"), obj["verdict"], obj.get("solution"))
    return [rows.get(f, (None, "stopped", None)) for f in files]


def peer(svs, corpus_path):
    out = subprocess.run(["node", os.path.join(svs, "run_svs.mjs"), corpus_path, "--timeout", "60"],
                         capture_output=True, text=True, check=True)
    rows = []
    for line in out.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) >= 5 and fields[0].isdigit():
            rows.append((float(fields[3]), fields[2], fields[4]))
    return rows


def main():
    runs, svs = int(sys.argv[1]), sys.argv[2]
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    corpus_path = "tests/corpus/variants/puzzles.json"
    corpus = json.load(open(corpus_path))
    tmp = tempfile.mkdtemp()
    files = []
    for i, entry in enumerate(corpus):
        path = os.path.join(tmp, f"{i:02d}.txt")
        with open(path, "w") as f:
            f.write(entry["puzzle"] + "\n")
        files.append(path)
    expected = [ERRATUM[1] if e["title"] == ERRATUM[0] else e["solution"] for e in corpus]
    tools = {
        "satsudoku unique (default plan)": lambda: satsudoku(files, []),
        "satsudoku unique --engine blocking": lambda: satsudoku(files, ["--engine", "blocking"]),
        "Rangsk's solver (svsjs)": lambda: peer(svs, corpus_path),
    }
    times = {name: [[] for _ in corpus] for name in tools}
    wrong = []
    for _ in range(runs):
        for name, run in tools.items():
            for i, (seconds, verdict, answer) in enumerate(run()):
                times[name][i].append(seconds if seconds is not None else float("inf"))
                if name.startswith("satsudoku") and (verdict != "unique" or answer != expected[i]):
                    wrong.append(f"{name} #{i}: {verdict}")
                if name.startswith("Rangsk") and verdict != "1":
                    wrong.append(f"{name} #{i}: {verdict} solutions")
    # --engine enum alone, once, each puzzle stopped at ENUM_TIMEOUT.
    enum_name = f"satsudoku unique --engine enum (one run, stopped at {ENUM_TIMEOUT} s)"
    enum = satsudoku(files, ["--engine", "enum", "--timeout", str(ENUM_TIMEOUT)])
    times[enum_name] = [[s if v == "unique" else float("inf")] for s, v, _ in enum]
    medians = {name: [statistics.median(t) for t in per] for name, per in times.items()}
    peer_name = "Rangsk's solver (svsjs)"
    lines = [
        f"# unique on the 85 published variant puzzles, {datetime.date.today()}",
        "",
        f"Machine: {machine()}.",
        "",
        f"Command: `python3 bench/variants.py {runs} SVS_DIR`, commit {commit()}; per puzzle the median of {runs} "
        "runs taken in turn (the enum engine alone: one run). Seconds are each tool's own per puzzle "
        "(satsudoku's `--output json` seconds, the peer's `countSolutions` call), one thread.",
        "",
        "| tool | total s | median ms | slowest s | over 1 s | slower than the peer | ratio of totals to the peer |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    peer_total = sum(medians[peer_name])
    for name, per in medians.items():
        total = sum(per)
        finite = [x for x in per if x != float("inf")]
        stopped = len(per) - len(finite)
        slower = sum(1 for a, b in zip(per, medians[peer_name]) if a > b)
        total_text = f"{sum(finite):.2f}" + (f" + {stopped} stopped" if stopped else "")
        lines.append(
            f"| {name} | {total_text} | {statistics.median(per) * 1000:.1f} | "
            f"{max(per):.2f} | {sum(1 for x in per if x > 1)} | {slower if name != peer_name else '-'} | "
            f"{total / peer_total:.3f}x |".replace("inf", "stopped")
        )
    lines += ["", "The ten slowest puzzles under the default plan (seconds):", "",
              "| # | title | default plan | blocking | enum alone | peer |", "|---|---|---:|---:|---:|---:|"]
    default = "satsudoku unique (default plan)"
    order = sorted(range(len(corpus)), key=lambda i: -medians[default][i])[:10]
    for i in order:
        cells = [medians[n][i] for n in (default, "satsudoku unique --engine blocking", enum_name, peer_name)]
        text = " | ".join("stopped" if x == float("inf") else f"{x:.3f}" for x in cells)
        lines.append(f"| {i} | {corpus[i]['title']} | {text} |")
    lines += ["", "Verdicts: " + ("in the timed runs every tool found every puzzle unique, satsudoku with the published solution "
                                  "(the erratum with its true one); the enum engine alone, where it answered, too." if not wrong else "; ".join(wrong))]
    with open(results_path("variants"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
