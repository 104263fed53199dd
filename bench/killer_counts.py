#!/usr/bin/env python3
"""satsudoku's counts against ISS's on random killer Sudoku puzzles.

Each puzzle is bench/gen_killer.py's (a random 9x9 grid cut into cages of
1 to 5 cells, no givens) with a DROP share of its cages left out, DROP
cycling through 0.1, 0.2 and 0.3 so that the counts run from a few to
past the limit. The same cages go to ISS (sigh's Interactive Sudoku
Solver, ../shared/peers/iss/run_iss.mjs) as `Cage` items; both count up to
LIMIT solutions, 10 s each. Every pair of counts must be equal (both at
the limit counts as equal); a puzzle either side stops on is skipped.
It checks the clauses `cage.rs` derives from a cage's combinations
against a counter that reads cages its own way.

Prints a line per puzzle and a summary; exits 1 on a difference.

usage: python3 bench/killer_counts.py FIRST_SEED COUNT [LIMIT]
  (from the repository root, after cargo build --release; LIMIT 1000)
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import Agreement, count_up_to, iss_count_up_to  # noqa: E402

SECONDS = 10


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    first, count = int(sys.argv[1]), int(sys.argv[2])
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    tally = Agreement("ISS")
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, first + count):
            drop = [0.1, 0.2, 0.3][seed % 3]
            text = subprocess.run([sys.executable, os.path.join(HERE, "gen_killer.py"), str(seed), "5", str(drop)],
                                  capture_output=True, text=True, check=True).stdout
            cages = re.findall(r"^killer (.*) = (\d+)$", text, re.M)
            iss = "".join(f".Cage~{total}" + "".join("~" + c.upper() for c in cells.split()) for cells, total in cages)
            native, converted = os.path.join(tmp, f"{seed}.txt"), os.path.join(tmp, f"{seed}.iss")
            with open(native, "w") as f:
                f.write(text)
            with open(converted, "w") as f:
                f.write(iss)
            a, b = count_up_to(native, limit, SECONDS), iss_count_up_to(converted, limit, SECONDS)
            if a is None or b is None or a == "refused":
                tally.skip("stopped")
                status = "skipped (stopped)"
            else:
                tally.add(seed, f"drop {drop}", a, b, iss, [])
                status = "same" if a == b else "DIFFERENT"
            print(f"seed {seed} drop {drop}: satsudoku {a}, ISS {b}: {status}", flush=True)
    different = len(tally.differ)
    print(f"compared {tally.compared}, different {different}, skipped {sum(tally.skipped.values())}")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
