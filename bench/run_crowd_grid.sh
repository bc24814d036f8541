#!/bin/sh
# SPDX-License-Identifier: MIT
# The issue-6 measurement grid for the crowd methods: JSON lines on stdout, one per
# method, size and thread count. Run on a quiet machine:
#   cmake -S . -B build -DCS_BUILD_BENCH=ON && cmake --build build -j 2
#   bench/run_crowd_grid.sh build/bench/bench_crowd > crowd_grid.jsonl
# Set LARGE=1 to add the 10^8-label runs (about 3 GB of memory, a few minutes).
set -eu
bench=${1:-build/bench/bench_crowd}
methods=mv,ds,opt-ds,crowd-lloyd,one-coin-ds,class-one-coin-ds
for threads in 1 2; do
  # labels, k, workers, labels per item
  for spec in "100000 2 1000 5" "1000000 2 1000 10" "10000000 2 1000 10" "10000000 5 1000 10" \
              "10000000 2 100000 20" "10000000 5 10000 3"; do
    set -- $spec
    "$bench" --labels "$1" --k "$2" --workers "$3" --per-item "$4" --threads "$threads" \
             --methods "$methods"
  done
done
if [ "${LARGE:-0}" = 1 ]; then
  for threads in 1 2; do
    "$bench" --labels 100000000 --k 2 --workers 10000 --per-item 10 --threads "$threads" --methods opt-ds,ds
  done
fi
