"""What the benchmark scripts share: the line that names the machine, where
a run's results go, and the variant corpus's erratum."""
import datetime
import os
import platform


def machine():
    """The CPU's model name and the number of cores."""
    model = platform.machine()
    if os.path.exists("/proc/cpuinfo"):
        names = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")]
        model = names[0] if names else model
    return f"{model}, {os.cpu_count()} cores"


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
