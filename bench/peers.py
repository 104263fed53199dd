#!/usr/bin/env python3
"""satsudoku against the peers a user would pick instead, whole process, on the
same instances in one session.

Instances: bench/instances/grid*.lp (symbols of random valid grids) and the
cnf-samples contest.lp, zero.lp, some.lp, many.lp: 31 contest instances; and
bench/instances/high/*.lp, contest instances with 10^3..10^4 solutions from
bench/gen_instances.py (annealing), timed separately.

Peers (installed by scripts/install-tools.sh --bench; any that is missing is skipped):
  floor    bench/peers/floor.c, a hand-written C bitset backtracking counter
  gprolog  bench/peers/sumdoku.pl, GNU Prolog CLP(FD), compiled with gplc
  clingo   clingo from PyPI on an ASP encoding (bench/peers/run_peer.py)
  clingo -t 2  the same on two threads, as satsudoku's default uses both cores
  cpsat    OR-tools CP-SAT, enumerating all solutions
  minisat  pysat's minisat22 blocking loop on satsudoku's exported CNF
  cadical  pysat's cadical153 blocking loop on the same CNF
  ganak    pyganak on the same CNF (projected count)
  sharpsat sharpSAT on the same CNF, only if `sharpSAT` is on PATH

Every peer's count must agree with satsudoku's on every instance. Reported:
the median over instances of each tool's median whole-process time (RUNS runs
each), the ratio to satsudoku's default, and per-instance batch times over
200 files in one process for the tools that take many files.

usage: python3 bench/peers.py [RUNS]   (from the repository root; writes
bench/results/peers-DATE.md, or peers-DATE-2.md and so on if that exists,
and prints it)
"""
import datetime
import glob
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import results_path

BIN = "target/release/satsudoku"
HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable


def instances():
    files = sorted(glob.glob("bench/instances/*.lp"))
    return files + [f"cnf-samples/{n}.lp" for n in ("contest", "zero", "some", "many")]


def high_instances():
    return sorted(glob.glob("bench/instances/high/*.lp"))


def build(tmp):
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True)
    tools = {}
    floor = os.path.join(tmp, "floor")
    subprocess.run(["gcc", "-O2", "-o", floor, os.path.join(HERE, "peers", "floor.c")], check=True)
    tools["floor"] = lambda lp, cnf: [floor, lp]
    if shutil.which("gplc"):
        prolog = os.path.join(tmp, "sumdoku")
        subprocess.run(["gplc", "--no-top-level", "-o", prolog, os.path.join(HERE, "peers", "sumdoku.pl")], check=True)
        tools["gprolog"] = lambda lp, cnf: [prolog, lp]
    peers = os.path.join(HERE, "peers", "run_peer.py")
    for name, peer, module, on in [("clingo", "clingo", "clingo", "lp"), ("clingo -t 2", "clingo2", "clingo", "lp"),
                                   ("cpsat", "cpsat", "ortools", "lp"), ("minisat", "minisat", "pysat", "cnf"),
                                   ("cadical", "cadical", "pysat", "cnf")]:
        if subprocess.run([PY, "-c", f"import {module}"], capture_output=True).returncode == 0:
            tools[name] = (lambda peer, on: lambda lp, cnf: [PY, peers, peer, lp if on == "lp" else cnf])(peer, on)
    if subprocess.run([PY, "-c", "import pyganak"], capture_output=True).returncode == 0:
        tools["ganak"] = lambda lp, cnf: [PY, "scripts/ganak_count.py", cnf]
    if shutil.which("sharpSAT"):
        tools["sharpsat"] = lambda lp, cnf: ["sharpSAT", cnf]
    return tools


def count_of(stdout):
    text = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    if text.startswith("solutions("):
        return int(text[len("solutions("):-2])
    digits = [w for w in text.split() if w.isdigit()]
    return int(digits[-1]) if digits else None


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd):
    """Wall time and CPU time (user + system, all threads) of one run, in
    ms, and the count it printed."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    cpu = cpu_of_children() - cpu
    # 3: satsudoku stopped at --max; 10, 20: SAT solvers' SAT and UNSAT.
    if out.returncode not in (0, 3, 10, 20):
        raise RuntimeError(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr[-500:]}")
    return elapsed * 1e3, cpu * 1e3, count_of(out.stdout)


def medians_checked(commands, reps, lp, counts):
    """The median of `reps` whole-process wall times on `lp` of each command
    in `commands` (name -> argv), in ms, and the median CPU times. The
    commands take turns, one run each per round, so that a slow spell of the
    machine falls on all of them. Exits if a count differs from the first
    count recorded for `lp`."""
    walls, cpus = {name: [] for name in commands}, {name: [] for name in commands}
    for _ in range(reps):
        for name, cmd in commands.items():
            wall, cpu, n = timed(cmd)
            walls[name].append(wall)
            cpus[name].append(cpu)
            expected = counts.setdefault(lp, n)
            if n != expected:
                sys.exit(f"DISAGREEMENT on {lp}: {name} says {n}, satsudoku says {expected}")
    median = lambda samples: {name: statistics.median(values) for name, values in samples.items()}
    return median(walls), median(cpus)


def steal():
    """CPU time stolen by the hypervisor so far, and all CPU time, in ticks
    (/proc/stat), to report how much of the machine the run had."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    return ticks[7], sum(ticks)


def peak_kb(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True)
    return int(out.stderr.strip().splitlines()[-1])


def progress_samples(stderr):
    """(models, seconds) from the --progress lines `N models, R/s, T s`."""
    out = []
    # text=True turns the line's carriage returns into newlines.
    for part in stderr.replace("\x1b[K", "").replace("\r", "\n").split("\n"):
        words = part.replace(",", "").split()
        if len(words) >= 5 and words[2] == "models":
            out.append((int(words[1]), float(words[4])))
    return out


def long_counts(runs, high):
    """--jobs 1 against --jobs 2 on counts of a second or more."""
    reps = max(3, runs // 2)
    lines = ["", f"Long counts, median of {reps} runs:", "", "| instance | configuration | s | ratio to --jobs 1 |",
             "|---|---|---|---|"]
    cases = [(high, [], "default"), (high, ["--engine", "blocking"], "--engine blocking"),
             ("cnf-samples/many.lp", ["--digits", "log", "--engine", "enum"], "--digits log --engine enum"),
             ("cnf-samples/many.lp", ["--digits", "log", "--engine", "blocking"], "--digits log --engine blocking")]
    for lp, args, label in cases:
        base = None
        for jobs in ("1", "2"):
            cmd = [BIN, "count", lp, *args, "--jobs", jobs]
            secs = statistics.median(timed(cmd)[0] / 1e3 for _ in range(reps))  # wall time
            base = base or secs
            lines.append(f"| {os.path.basename(lp)} | {label} --jobs {jobs} | {secs:.2f} | {secs / base:.2f} |")
    return lines


def flatness(runs, lp, total):
    """Whether the cost per model grows over a run: on one thread with
    `--print`, the time at which each `% solution K` line arrives on the pipe
    (satsudoku's stdout is block-buffered, so lines come in bursts of a few
    dozen models). The rate over the last tenth of the models over the rate
    over the first tenth; median over RUNS runs."""
    reps = max(3, runs)
    lines = ["", f"Cost per model over a run ({os.path.basename(lp)}, {total} models, one thread, `--print`, "
             f"median of {reps} runs):", ""]
    tenth = total // 10
    for label, args in (("default", []), ("--engine blocking", ["--engine", "blocking"])):
        ratios, firsts, lasts = [], [], []
        for _ in range(reps):
            cmd = [BIN, "count", lp, *args, "--jobs", "1", "--print"]
            start = time.perf_counter()
            arrived = []
            with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as proc:
                for line in proc.stdout:
                    if line.startswith("% solution"):
                        arrived.append(time.perf_counter() - start)
            first = tenth / (arrived[tenth] - arrived[0])
            last = tenth / (arrived[-1] - arrived[-1 - tenth])
            firsts.append(first)
            lasts.append(last)
            ratios.append(last / first)
        lines.append(f"- {label}: first tenth {statistics.median(firsts) / 1e3:.1f} models/ms, last tenth "
                     f"{statistics.median(lasts) / 1e3:.1f} models/ms, ratio {statistics.median(ratios):.2f}")
    return lines


def high_table(runs, high, commands, cnfs, counts):
    """Whole-process wall and CPU times on the instances with many
    solutions, with satsudoku on one thread too. The blocking loops of pysat
    and CP-SAT are left out: they are the slowest on the contest set, and
    take minutes here."""
    skip = {"cadical", "cpsat", "satsudoku --engine blocking --relation support"}
    commands = dict(commands, **{"satsudoku --jobs 1": lambda lp, cnf: [BIN, "count", lp, "--jobs", "1"]})
    names = [n for n in commands if n not in skip]
    times = {"wall": {}, "CPU": {}}
    for lp in high:
        walls, cpus = medians_checked({name: commands[name](lp, cnfs[lp]) for name in names}, runs, lp, counts)
        times["wall"].update({(name, lp): ms for name, ms in walls.items()})
        times["CPU"].update({(name, lp): ms for name, ms in cpus.items()})
        print(f"{lp}: {counts[lp]} solutions", file=sys.stderr)
    head = " | ".join(f"{os.path.basename(lp)} ({counts[lp]})" for lp in high)
    lines = []
    for kind, base in (("wall", "satsudoku (default)"), ("CPU", "satsudoku --jobs 1")):
        lines += ["", f"Instances with many solutions (bench/instances/high), {kind} time in ms (user + system for "
                  f"CPU), median of {runs} runs; in brackets the ratio to {base}:", "", f"| tool | {head} |",
                  "|---" * (len(high) + 1) + "|"]
        for name in names:
            t = times[kind]
            lines.append(f"| {name} | " + " | ".join(f"{t[(name, lp)]:.0f} ({t[(name, lp)] / t[(base, lp)]:.1f})"
                                                   for lp in high) + " |")
    return lines


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    tmp = tempfile.mkdtemp()
    tools = build(tmp)
    configs = {
        "satsudoku (default)": [],
        "satsudoku --relation support": ["--relation", "support"],
        "satsudoku --engine blocking": ["--engine", "blocking"],
        "satsudoku --engine blocking --relation support": ["--engine", "blocking", "--relation", "support"],
    }
    files = instances()
    high = high_instances()
    cnfs = {}
    for lp in files + high:
        cnf = os.path.join(tmp, os.path.basename(lp) + ".cnf")
        subprocess.run([BIN, "export", lp, "-o", cnf], check=True)
        cnfs[lp] = cnf
    commands = {name: (lambda args: lambda lp, cnf: [BIN, "count", lp, *args])(args) for name, args in configs.items()}
    commands.update(tools)
    times = {name: {} for name in commands}
    counts = {}
    stolen_before = steal()
    cpu_times = {name: {} for name in commands}
    for lp in files:
        walls, cpus = medians_checked({name: command(lp, cnfs[lp]) for name, command in commands.items()}, runs, lp,
                                      counts)
        for name in commands:
            times[name][lp] = walls[name]
            cpu_times[name][lp] = cpus[name]
        print(f"{lp}: {counts[lp]} solutions", file=sys.stderr)

    base = statistics.median(times["satsudoku (default)"].values())
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines = [
        f"# satsudoku against its peers, {datetime.date.today()}",
        "",
        f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}.",
        f"Command: `python3 bench/peers.py {runs}`. {len(files)} contest instances (counts "
        f"{min(counts.values())} to {max(counts.values())}); each time is the median of {runs} whole-process runs,"
        " and the table gives the median over instances. All tools agreed on every count.",
        "",
        "| tool | median ms | max ms | ratio to satsudoku default | median CPU ms |",
        "|---|---|---|---|---|",
    ]
    for name in commands:
        values = list(times[name].values())
        median = statistics.median(values)
        cpu_median = statistics.median(cpu_times[name].values())
        lines.append(f"| {name} | {median:.1f} | {max(values):.1f} | {median / base:.2f} | {cpu_median:.1f} |")

    many = "cnf-samples/many.lp"
    lines += ["", f"many.lp ({counts[many]} solutions), median of {runs}:", "", "| tool | ms | ratio to satsudoku default |", "|---|---|---|"]
    for name in commands:
        lines.append(f"| {name} | {times[name][many]:.1f} | {times[name][many] / times['satsudoku (default)'][many]:.2f} |")

    batch = (files * 7)[:200]
    lines += ["", f"Batch: {len(batch)} files in one process (the 31 instances repeated), ms per instance, median of {runs}:", ""]
    lines += ["| tool | ms per instance |", "|---|---|"]
    batch_tools = {name: [BIN, "count", *args] for name, args in configs.items()}
    if "floor" in tools:
        batch_tools["floor"] = tools["floor"]("", "")[:1]
    if "gprolog" in tools:
        batch_tools["gprolog"] = tools["gprolog"]("", "")[:1]
    for name, cmd in batch_tools.items():
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([*cmd, *batch], capture_output=True, check=True)
            samples.append((time.perf_counter() - start) * 1e3 / len(batch))
        lines.append(f"| {name} | {statistics.median(samples):.2f} |")

    if high:
        lines += high_table(runs, high, commands, cnfs, counts)
        largest = max(high, key=lambda lp: counts[lp])
        lines += long_counts(runs, largest)
        lines += flatness(runs, largest, counts[largest])
    lines += ["", "Peak resident memory (`/usr/bin/time -f %M`), contest.lp and the 200-file batch:", ""]
    for name, args in configs.items():
        one = peak_kb([BIN, "count", "cnf-samples/contest.lp", *args])
        all_ = peak_kb([BIN, "count", *args, *batch])
        lines.append(f"- {name}: {one / 1024:.1f} MiB; batch {all_ / 1024:.1f} MiB")

    stolen, total = (after - before for after, before in zip(steal(), stolen_before))
    lines += ["", f"Steal: the hypervisor took {100 * stolen / max(total, 1):.0f}% of this machine's CPU time during the "
              "run (/proc/stat); tools took turns run by run, so a slow spell fell on all of them."]
    text = "\n".join(lines) + "\n"
    with open(results_path("peers"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
