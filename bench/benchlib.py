"""What the benchmark scripts share: the line that names the machine and the
commit, where a run's results go and which is the newest, running ISS, and
the variant corpus's erratum."""
import collections
import datetime
import glob
import os
import platform
import re
import subprocess
import sys

# ISS run headless (../shared/peers/iss/). Its real path: run_iss.mjs runs
# only as node's main module, which it recognises by its real path
# (../shared may be a link).
RUN_ISS = os.path.realpath("../shared/peers/iss/run_iss.mjs")


def machine():
    """The CPU's model name and the number of cores."""
    model = platform.machine()
    if os.path.exists("/proc/cpuinfo"):
        names = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")]
        model = names[0] if names else model
    return f"{model}, {os.cpu_count()} cores"


def commit():
    """The checkout's short commit hash."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()


def count_up_to(path, limit, seconds):
    """`satsudoku count --max LIMIT` of a puzzle file, on one thread, at
    most SECONDS: an int below LIMIT, "limit" (LIMIT solutions or more),
    "refused" (exit 2: the file or a rule refused) or None (stopped)."""
    try:
        out = subprocess.run(["target/release/satsudoku", "count", "--max", str(limit), "--timeout", str(seconds),
                              "-j", "1", path], capture_output=True, text=True, timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        return None
    exact = re.search(r"^solutions\((\d+)\)\.$", out.stdout, re.M)
    if exact:
        # Exactly LIMIT is "limit" too: a peer stopped at LIMIT says no more.
        return "limit" if int(exact.group(1)) >= limit else int(exact.group(1))
    bound = re.search(r"^solutions_at_least\((\d+)\)\.$", out.stdout, re.M)
    if bound and int(bound.group(1)) >= limit:
        return "limit"
    return "refused" if out.returncode == 2 else None


class Agreement:
    """satsudoku's counts up to a limit against a peer's, copy by copy
    (bench/iss_counts.py, bench/fpuzzles_counts.py): what was compared,
    skipped and counted differently, and the report."""

    def __init__(self, peer):
        self.peer = peer
        self.compared, self.skipped, self.differ = 0, collections.Counter(), []
        self.kinds, self.counts = collections.Counter(), collections.Counter()

    def skip(self, why):
        self.skipped[why] += 1

    def add(self, index, name, ours, theirs, text, held):
        """One copy's two counts (an int or "limit"), the copy's text and
        the rule types it holds."""
        self.compared += 1
        self.kinds.update(held)
        self.counts["at the limit" if ours == "limit" else "none" if ours == 0 else "one" if ours == 1
                    else "two or more"] += 1
        if ours != theirs:
            self.differ.append((index, name, ours, theirs, text))
            print(f"DIFFERENT #{index} {name}: satsudoku {ours}, {self.peer} {theirs}", flush=True)

    def progress(self, done, total):
        if done % 50 == 0:
            print(f"{done} of {total}: {self.compared} compared, {len(self.differ)} different", file=sys.stderr)

    def report(self, kind, title, command, copies, held):
        """Writes bench/results/KIND-DATE.md (TITLE, the COMMAND, what the
        COPIES were, the rule types under the heading HELD, every
        difference), prints it and exits 1 on a difference."""
        lines = [
            f"# {title}",
            "",
            f"Machine: {machine()}. Commit {commit()}, {datetime.date.today()}.",
            f"Command: `{command}`",
            "",
            copies,
            "",
            f"- compared: **{self.compared}**, of which {len(self.differ)} counted differently",
            "- their counts: " + ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items())),
            "- skipped: " + (", ".join(f"{v} {k}" for k, v in sorted(self.skipped.items())) or "none"),
            "",
            f"{held} (copies holding each):",
            "",
            ", ".join(f"{k} {v}" for k, v in sorted(self.kinds.items())),
            "",
        ]
        if self.differ:
            lines += ["## Different counts", "", f"| # | name | satsudoku | {self.peer} | puzzle |", "|---|---|---|---|---|"]
            lines += [f"| {i} | {name} | {a} | {b} | `{text}` |" for i, name, a, b, text in self.differ]
        path = results_path(kind)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        print("\n".join(lines))
        print(f"written to {path}", file=sys.stderr)
        sys.exit(1 if self.differ else 0)


def iss_rows(*args, timeout=None):
    """The puzzle rows of `node run_iss.mjs ARGS`, each split at its tabs:
    index, name, verdict, count, ms, build_ms, search_ms, guesses, ...
    (subprocess.TimeoutExpired past `timeout` seconds). Exits when ISS is
    not there, rather than count every puzzle as stopped."""
    if not os.path.exists(RUN_ISS):
        sys.exit(f"ISS not found at {RUN_ISS}: run from the repository root, with ../shared beside it")
    out = subprocess.run(["node", RUN_ISS, *args], capture_output=True, text=True, timeout=timeout).stdout
    rows = (line.split("\t") for line in out.splitlines())
    return [row for row in rows if row[0].isdigit()]


def iss_count_up_to(path, limit, seconds):
    """ISS's count of a puzzle file up to LIMIT, at most SECONDS: an int,
    "limit" (LIMIT or more) or None (stopped, or an error)."""
    try:
        rows = iss_rows("--limit", str(limit), "--timeout", str(seconds), path, timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        return None
    if not rows or rows[0][2] not in ("unique", "multiple", "none", "count", "limit") or not rows[0][3]:
        return None
    return "limit" if rows[0][3].startswith(">=") else int(rows[0][3])


# The corpus's one erratum: "Executive Function" (tests/corpus/variants/)
# was published with a wrong solution; its true one.
ERRATUM = ("Executive Function",
           "612873594958421376374596218725134869861759432493268157547612983189347625236985741")


def results_path(name):
    """bench/results/NAME-DATE.md, or NAME-DATE-2.md and so on when the day
    has runs already: a rerun never overwrites the day's earlier results
    (bench/tables.py takes the newest)."""
    os.makedirs("bench/results", exist_ok=True)
    today = datetime.date.today()
    path, run = f"bench/results/{name}-{today}.md", 1
    while os.path.exists(path):
        run += 1
        path = f"bench/results/{name}-{today}-{run}.md"
    return path


def newest(prefix):
    """The newest results file of a kind, bench/results/PREFIX-DATE[-RUN].md:
    by date in its name, then by run number; None if there is none."""
    files = glob.glob(f"bench/results/{prefix}-2*.md")

    def key(path):
        m = re.search(r"-(\d{4}-\d{2}-\d{2})(?:-(\d+))?\.md$", path)
        return (m.group(1), int(m.group(2) or 1)) if m else ("", 0)

    return max(files, key=key) if files else None
