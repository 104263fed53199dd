#!/usr/bin/env python3
"""`satsudoku rate` against HoDoKu's rating, and what rating costs.

Validation: the puzzles of RATED (PUZZLE<TAB>LEVEL<TAB>SCORE lines from
bench/hodoku_rate.py, HoDoKu 2.2's rating through hodoku-py), PER_LEVEL drawn
from each of HoDoKu's five levels (seeded), rated by `satsudoku rate`;
prints Spearman's rank correlation of the two scores (ties get their mean
rank), the confusion of the levels, and the puzzles the two disagree on
most.

Speed: `satsudoku rate` and `satsudoku unique` on the same 10,000 minimal
classic puzzles (`satsudoku generate -n 10000`), RUNS times each, taking
turns; the median wall times and their ratio, the "few unique calls each"
the issue asks rating to cost.

The instances: python3 bench/gen_minimal.py 20000 7 TDOKU > pool.txt, the
first 10,000 rated by python3 bench/hodoku_rate.py (about 15 minutes);
bench/instances/hodoku-rated.tsv keeps the stratified sample this script
draws, so it runs without HoDoKu.

usage: python3 bench/rate.py [RATED] [PER_LEVEL] [RUNS]   (cargo build --release first)
"""
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import machine

BIN = "target/release/satsudoku"
LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]
OURS = ["easy", "medium", "hard", "fiendish", "extreme"]


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5




def scatter(xs, ys, levels, path):
    """HoDoKu's score (x) against satsudoku's (y), both on log scales (a
    score of 0 drawn at the axis), one dot per puzzle coloured by HoDoKu's
    level, as SVG."""
    import math
    width, height, pad = 640, 480, 60
    colours = {"easy": "#4daf4a", "medium": "#377eb8", "hard": "#ff7f00", "unfair": "#e41a1c", "extreme": "#984ea3"}
    xmin = math.log10(max(1, min(xs)) * 0.8)
    xmax, ymax = math.log10(max(xs) * 1.1), math.log10(max(ys) + 1)
    px = lambda v: pad + (width - 2 * pad) * (math.log10(max(v, 1)) - xmin) / (xmax - xmin)
    py = lambda v: height - pad - (height - 2 * pad) * math.log10(v + 1) / ymax
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="black"/>',
           f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="black"/>']
    for v in (0, 10, 100, 200, 500, 1000, 2000, 5000, 10000):
        if xmin <= math.log10(max(v, 1)) <= xmax:
            out.append(f'<text x="{px(v):.1f}" y="{height - pad + 16}" text-anchor="middle">{v}</text>')
        if v in (0, 10, 100, 1000) and math.log10(v + 1) <= ymax:
            out.append(f'<text x="{pad - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{v}</text>')
    out.append(f'<text x="{width / 2}" y="{height - 15}" text-anchor="middle">HoDoKu 2.2 score (log scale)</text>')
    out.append(f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="14">2,000 minimal puzzles: HoDoKu\'s score against satsudoku rate\'s</text>')
    out.append(f'<text x="18" y="{height / 2}" text-anchor="middle" transform="rotate(-90 18 {height / 2})">satsudoku rate score (log scale)</text>')
    for x, y, level in zip(xs, ys, levels):
        out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.2" fill="{colours[level]}" fill-opacity="0.5"/>')
    for i, (level, colour) in enumerate(colours.items()):
        out.append(f'<circle cx="{pad + 20}" cy="{pad + 10 + 16 * i}" r="5" fill="{colour}"/>')
        out.append(f'<text x="{pad + 30}" y="{pad + 14 + 16 * i}">HoDoKu {level}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def timed(args, stdin):
    start = time.perf_counter()
    out = subprocess.run(args, input=stdin, capture_output=True, text=True)
    return time.perf_counter() - start, out


def main():
    rated_path = sys.argv[1] if len(sys.argv) > 1 else "bench/instances/hodoku-rated.tsv"
    per_level = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    rows = [l.rstrip("\n").split("\t") for l in open(rated_path) if l.strip()]
    by_level = {level: [r for r in rows if r[1] == level] for level in LEVELS}
    rnd = random.Random(37)
    sample = [r for level in LEVELS for r in rnd.sample(by_level[level], min(per_level, len(by_level[level])))]
    out = subprocess.run([BIN, "rate", "--output", "json", "-j1", "-"], input="".join(r[0] + "\n" for r in sample),
                         capture_output=True, text=True, check=False)
    ours = [json.loads(l) for l in out.stdout.splitlines()]
    assert len(ours) == len(sample) and all(o["verdict"] == "unique" for o in ours), out.stderr[-500:]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print("# `satsudoku rate` against HoDoKu\n")
    print(f"Machine: {machine()}. Commit {commit}, {time.strftime('%Y-%m-%d')}.")
    print(f"Command: `python3 bench/rate.py {rated_path} {per_level} {runs}`\n")
    hodoku = [int(r[2]) for r in sample]
    score = [o["score"] for o in ours]
    rho = spearman(hodoku, score)
    print(f"{len(sample):,} minimal classic puzzles, {per_level} drawn from each HoDoKu level (random minimal")
    print("puzzles from bench/gen_minimal.py, rated by HoDoKu 2.2 through hodoku-py). Spearman's rank")
    print(f"correlation of HoDoKu's score and satsudoku's: **{rho:.3f}**.\n")
    print("| HoDoKu level | puzzles | Spearman within the level | " + " | ".join(f"ours: {o}" for o in OURS) + " |")
    print("|---|---|---|" + "---|" * len(OURS))
    for level in LEVELS:
        idx = [i for i, r in enumerate(sample) if r[1] == level]
        within = spearman([hodoku[i] for i in idx], [score[i] for i in idx]) if len({score[i] for i in idx}) > 1 else float("nan")
        cells = [sum(1 for i in idx if ours[i]["level"] == o) for o in OURS]
        print(f"| {level} | {len(idx)} | {within:.2f} | " + " | ".join(str(c) for c in cells) + " |")
    print()
    # Disagreements: far apart in rank.
    rh, ro = ranks(hodoku), ranks(score)
    apart = sorted(range(len(sample)), key=lambda i: -abs(rh[i] - ro[i]))[:8]
    print("The puzzles ranked furthest apart (HoDoKu's score and level, ours, and our steps: `d1:S` a")
    print("depth-1 refutation of size S, `d2` depth 2, `guess`):\n")
    print("| puzzle | HoDoKu | ours | our steps |")
    print("|---|---|---|---|")
    for i in apart:
        steps = " ".join("guess" if s["depth"] == 0 else f"d{s['depth']}:{s['size']}" for s in ours[i]["steps"]) or "singles"
        print(f"| `{sample[i][0]}` | {hodoku[i]} {sample[i][1]} | {score[i]} {ours[i]['level']} | {steps} |")
    print()
    scatter(hodoku, score, [r[1] for r in sample], "bench/results/rate-scatter.svg")
    print("![HoDoKu's score against satsudoku's, log scales](rate-scatter.svg)\n")
    # Speed.
    gen = subprocess.run([BIN, "generate", "-n", "10000", "--seed", "11", "-"], input="." * 81 + "\n",
                         capture_output=True, text=True, check=True).stdout
    times = {"rate": [], "unique": []}
    for _ in range(runs):
        for command in ("rate", "unique"):
            elapsed, result = timed([BIN, command, "-j2", "-"], gen)
            assert result.returncode == 0, result.stderr[-300:]
            times[command].append(elapsed)
    r, u = statistics.median(times["rate"]), statistics.median(times["unique"])
    # HoDoKu's own rating, for scale (a Python port: slower than the Java original).
    few = "".join(p + "\n" for p in gen.split()[:200])
    try:
        elapsed, result = timed([sys.executable, "bench/hodoku_rate.py"], few)
        hodoku = elapsed / 200 if result.returncode == 0 else None
    except FileNotFoundError:
        hodoku = None
    print(f"Speed: 10,000 minimal classic puzzles (`generate -n 10000 --seed 11`), `-j2`, median of {runs} runs:\n")
    print("| command | seconds | per puzzle | against `unique` |")
    print("|---|---|---|---|")
    print(f"| `satsudoku unique` | {u:.2f} | {u / 10:.3f} ms | 1x |")
    print(f"| `satsudoku rate` | {r:.2f} | {r / 10:.3f} ms | {r / u:.1f}x |")
    if hodoku:
        print(f"| HoDoKu 2.2's rating (hodoku-py, one thread, the first 200) | - | {hodoku * 1e3:.1f} ms | {hodoku * 1e4 / u:.0f}x |")


if __name__ == "__main__":
    main()
