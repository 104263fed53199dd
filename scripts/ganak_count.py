#!/usr/bin/env python3
"""Count the models of a DIMACS CNF with ganak (pip install pyganak).

Reads the projection from `c p show ... 0` or `c ind ... 0` lines when present
and counts projected models; prints the exact count on stdout.

usage: ganak_count.py FILE.cnf
"""
import sys

from pyganak import Counter


def main(path):
    counter = Counter()
    show, clause, nvars = [], [], 0
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[:3] == ["c", "p", "show"] or words[:2] == ["c", "ind"]:
                start = 3 if words[1] == "p" else 2
                show.extend(int(w) for w in words[start:] if w != "0")
            elif words[0] == "p":
                nvars = int(words[2])
                counter.new_vars(nvars)
            elif words[0] != "c":
                for w in words:
                    lit = int(w)
                    if lit == 0:
                        counter.add_clause(clause)
                        clause = []
                    else:
                        clause.append(lit)
    if show:
        counter.set_sampling_set(show)
    print(counter.count())


if __name__ == "__main__":
    main(sys.argv[1])
