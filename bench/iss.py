#!/usr/bin/env python3
"""`unique` on the puzzles of sigh's Interactive Sudoku Solver (ISS) that
satsudoku reads (its example list and the collections with solutions,
tests/corpus/iss/examples.json), against ISS itself run headless under
Node (../shared/peers/iss/run_iss.mjs), one after the other, RUNS runs
each taking turns; per puzzle the median.

satsudoku is timed two ways: the whole process, one `satsudoku unique`
per puzzle (start-up, reading and judging: what a setter waits for), and
its own seconds inside one process over all the files (`--output json`).
ISS is timed cold, as the issue asks (a fresh worker per puzzle; its
build_ms + search_ms, module loading excluded), and warm (`--repeat 3`:
the fastest of three in one worker). Every satsudoku verdict is checked
against ISS's and the published solution.

With `unsolved`, the puzzles are instead the 15 of ISS's collections that
carry no solution (tests/corpus/iss/unsolved.json), each checked against
ISS's recorded verdict, and the results go to
bench/results/iss-unsolved-DATE.md.

With `variants`, the puzzles are instead the 85 published variant puzzles
of tests/corpus/variants/ (f-puzzles; ISS reads them through
run_iss.mjs's converter), each expected unique with its published solution
(the erratum "Executive Function" with its true one, as bench/variants.py
says), and the results go to bench/results/iss-variants-DATE.md: the
issue's first target ("every puzzle of the 85-puzzle corpus ... in at most
the time ISS takes cold").

usage: python3 bench/iss.py RUNS [TIMEOUT] [variants | unsolved]
  (from the repository root; writes bench/results/iss-DATE.md, or -2, -3 ... after
  the day's earlier runs, and prints it)
"""
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ERRATUM, commit, iss_rows, machine, results_path  # noqa: E402

BIN = "target/release/satsudoku"

# What each source of puzzles is: its title, its file, the verdicts its
# answers are checked against, the test that checks the solutions, and
# the results file's name.
SOURCES = {
    "iss": ("ISS's own puzzles", "tests/corpus/iss/examples.json", "ISS's recorded verdict", "tests/it/iss.rs", "iss"),
    "variants": ("the 85 published variant puzzles", "tests/corpus/variants/puzzles.json",
                 "the verdict expected (unique)", "tests/it/corpus.rs", "iss-variants"),
    "unsolved": ("ISS's collection puzzles without a recorded solution", "tests/corpus/iss/unsolved.json",
                 "ISS's recorded verdict", "tests/it/iss.rs", "iss-unsolved"),
}


def ours_process(path, timeout):
    """Wall seconds of one `unique` process, and its verdict."""
    start = time.perf_counter()
    try:
        out = subprocess.run([BIN, "unique", "-j", "1", "--timeout", str(timeout), path],
                             capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    verdict = out.stdout.split("\t")[0].strip() or "error"
    seconds = time.perf_counter() - start
    # A run stopped at the time limit has no verdict: it counts as stopped.
    return (seconds if verdict in ("unique", "multiple", "none") else None), verdict


def ours_inside(paths, timeout):
    """Per file: its seconds inside one `unique --output json` process."""
    out = subprocess.run([BIN, "unique", "--output", "json", "-j", "1", "--timeout", str(timeout), *paths],
                         capture_output=True, text=True)
    rows = {}
    for line in out.stdout.splitlines():
        obj = json.loads(line)
        decided = obj.get("verdict") in ("unique", "multiple", "none")
        rows[obj["source"]] = obj.get("seconds") if decided else None
    return [rows.get(p) for p in paths]


def iss(entries_path, extra, timeout):
    """Per entry: (ms of its solver, verdict)."""
    rows = []
    for f in iss_rows(entries_path, "--limit", "2", "--timeout", str(timeout), *extra):
        ms = float(f[5]) + float(f[6]) if f[2] in ("unique", "multiple", "none") else None
        rows.append((ms, f[2]))
    return rows


def puzzles(source, tmp):
    """The puzzles satsudoku reads: (index, name, path, ISS's entry, the verdict expected)."""
    read = []
    corpus = json.load(open(SOURCES[source][1]))
    if source == "variants":
        for i, entry in enumerate(corpus):
            path = os.path.join(tmp, f"{i:02d}.txt")
            with open(path, "w") as f:
                f.write(entry["puzzle"] + "\n")
            solution = ERRATUM[1] if entry["title"] == ERRATUM[0] else entry["solution"]
            read.append((i, entry["title"], path, {"name": entry["title"], "puzzle": entry["puzzle"],
                                                  "solution": solution}, "unique"))
        return corpus, read
    unsolved = source == "unsolved"
    for i, entry in enumerate(corpus):
        path = os.path.join(tmp, f"{i:03d}.iss")
        with open(path, "w") as f:
            f.write(entry["input"])
        probe = subprocess.run([BIN, "export", "--format", "iss", path, "--out", "/dev/null"],
                               capture_output=True, text=True)
        if probe.returncode == 0:
            iss_entry = {"name": entry.get("name", ""), "iss": entry["input"]}
            if not unsolved:
                iss_entry["solution"] = entry["solution"]
            read.append((i, entry.get("name", ""), path, iss_entry, entry["iss_verdict"]))
    return corpus, read


def main():
    args = [a for a in sys.argv[1:] if a not in SOURCES]
    source = next((a for a in sys.argv[1:] if a in SOURCES), "iss")
    runs = int(args[0])
    timeout = int(args[1]) if len(args) > 1 else 20
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    tmp = tempfile.mkdtemp(prefix="iss-bench-")
    corpus, read = puzzles(source, tmp)
    entries_path = os.path.join(tmp, "entries.json")
    json.dump([entry for _, _, _, entry, _ in read], open(entries_path, "w"))
    paths = [p for _, _, p, _, _ in read]
    process, inside, cold, warm = ([[] for _ in read] for _ in range(4))
    verdicts = [None] * len(read)
    for _ in range(runs):
        for k, path in enumerate(paths):
            seconds, verdict = ours_process(path, timeout)
            process[k].append(seconds)
            verdicts[k] = verdict
        for k, seconds in enumerate(ours_inside(paths, timeout)):
            inside[k].append(seconds)
        for k, (ms, verdict) in enumerate(iss(entries_path, [], timeout)):
            cold[k].append(None if ms is None else ms / 1000)
        for k, (ms, verdict) in enumerate(iss(entries_path, ["--repeat", "3"], timeout)):
            warm[k].append(None if ms is None else ms / 1000)

    def median(xs):
        xs = [x for x in xs if x is not None]
        return statistics.median(xs) if xs else None

    rows = []
    for k, (i, name, _, _, expected) in enumerate(read):
        rows.append((i, name, median(process[k]), median(inside[k]), median(cold[k]), median(warm[k]),
                     verdicts[k], expected))
    agree = sum(1 for r in rows if r[6] == r[7])

    def total(col):
        return sum(r[col] if r[col] is not None else timeout for r in rows)

    def fmt(x):
        return "stopped" if x is None else f"{x:.3f}"

    date = datetime.date.today().isoformat()
    title, what, checked, tests, prefix = SOURCES[source]
    command = f"{runs} {timeout}" + ("" if source == "iss" else f" {source}")
    lines = [f"# unique on {title}, against ISS, {date}", "",
             f"Machine: {machine()}.", "",
             f"Command: `python3 bench/iss.py {command}`, commit {commit()}; "
             f"{len(read)} of the {len(corpus)} puzzles of {what} that satsudoku reads; "
             f"per puzzle the median of {runs} runs taken in turn, a puzzle stopped at {timeout} s counted "
             f"as {timeout} s. satsudoku: the whole `unique` process per puzzle, and its own seconds inside one "
             "process; ISS: its solver's build + search, cold (a fresh worker per puzzle) and warm (fastest "
             "of 3 in one worker), module loading excluded.", "",
             "| tool | total s | median ms | slowest s | stopped | slower than ISS cold | ratio of totals to ISS cold |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    iss_total = total(4)
    for name, col in [("satsudoku unique (whole process)", 2), ("satsudoku unique (inside one process)", 3),
                      ("ISS cold", 4), ("ISS warm", 5)]:
        values = [r[col] for r in rows if r[col] is not None]
        slower = sum(1 for r in rows if col in (2, 3) and (r[col] is None or (r[4] is not None and r[col] > r[4])))
        lines.append(f"| {name} | {total(col):.2f} | {1000 * statistics.median(values):.1f} | "
                     f"{max(values):.2f} | {sum(1 for r in rows if r[col] is None)} | "
                     f"{slower if col in (2, 3) else '-'} | {total(col) / iss_total:.3f}x |")
    lines += ["", "The puzzles where satsudoku's whole process is slower than ISS cold (seconds):", "",
              "| # | name | satsudoku process | satsudoku inside | ISS cold | ISS warm |", "|---|---|---:|---:|---:|---:|"]
    slow = [r for r in rows if r[2] is None or (r[4] is not None and r[2] > r[4])]
    slow.sort(key=lambda r: -(r[2] if r[2] is not None else timeout))
    for r in slow:
        lines.append(f"| {r[0]} | {r[1]} | {fmt(r[2])} | {fmt(r[3])} | {fmt(r[4])} | {fmt(r[5])} |")
    if not slow:
        lines.append("| - | none | | | | |")
    what_tests = "the verdicts" if source == "unsolved" else "the solutions"
    lines += ["", f"Verdicts: satsudoku agreed with {checked} on {agree} of {len(rows)} "
              f"(a stopped run has no verdict); {tests} checks {what_tests}."]
    differ = [r for r in rows if r[6] != r[7]]
    if differ:
        lines += ["", "Where the verdicts differ (a run stopped at the time limit is undecided; ISS's wrong "
                  "verdicts are each shown by a test in tests/it/iss.rs, `ISS_WRONG`):", "",
                  "| # | name | satsudoku | expected |", "|---|---|---|---|"]
        lines += [f"| {r[0]} | {r[1]} | {r[6]} | {r[7]} |" for r in differ]
    text = "\n".join(lines) + "\n"
    with open(results_path(prefix), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
