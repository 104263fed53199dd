#!/usr/bin/env bash
# Regenerates the README's "Comparing encodings" table and chart:
# bench/results/compare.md (the markdown table, headed by the command, the
# machine, the date and the commit) and bench/results/compare.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
cmd=(./target/release/satsudoku compare cnf-samples/contest.lp cnf-samples/many.lp
  --engine enum --repeat 5 --output markdown --svg bench/results/compare.svg)
{
  echo "Command: \`${cmd[*]}\`"
  echo "on $(nproc) cores, $(date -u +%F), commit $(git rev-parse --short HEAD); times in ms, medians of 5 runs."
  echo
  "${cmd[@]}"
} > bench/results/compare.md.new
mv bench/results/compare.md.new bench/results/compare.md
cat bench/results/compare.md
