#!/bin/sh
# SPDX-License-Identifier: MIT
# Default threads against one thread on the same crowd, in interleaved pairs
# (default, one, default, one, ...), optionally with one busy process pinned to every
# core (BUSY=1: the case of issue 19, where idle threads that spin take the core from
# the thread with work). Prints each pair's seconds_total and the median of the
# per-pair ratios default / one.
#
# Usage: bench/threads_ab.sh BENCH_CROWD LABELS [PAIRS] [extra bench_crowd options]
# Environment: BUSY=1 (pin `while :; do :; done` to each core for the run; the script
#   starts and kills them itself), METHOD (default ds), ROUNDS (default 10).
set -eu
bench=$1
labels=$2
pairs=${3:-5}
if [ $# -ge 3 ]; then shift 3; else shift $#; fi
method=${METHOD:-ds}
rounds=${ROUNDS:-10}
busy_pids=""
cleanup() { for p in $busy_pids; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM
if [ "${BUSY:-0}" = 1 ]; then
    cores=$(nproc)
    c=0
    while [ "$c" -lt "$cores" ]; do
        taskset -c "$c" sh -c 'while :; do :; done' &
        busy_pids="$busy_pids $!"
        c=$((c + 1))
    done
fi
seconds() {
    t=$1
    shift
    "$bench" --labels "$labels" --threads "$t" --methods "$method" --max-iter "$rounds" --tol 0 "$@" 2>/dev/null |
        sed -n 's/.*"seconds_total":\([0-9.]*\).*/\1/p'
}
ratios=""
i=0
while [ "$i" -lt "$pairs" ]; do
    a=$(seconds 0 "$@")
    b=$(seconds 1 "$@")
    r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
    echo "pair $i: default threads $a s, one thread $b s, ratio $r"
    ratios="$ratios $r"
    i=$((i + 1))
done
echo "$ratios" | tr ' ' '\n' | grep . | sort -n | awk -v l="$labels" -v busy="${BUSY:-0}" \
    '{ v[NR] = $1 } END { printf "labels %s busy %s: median default/one %.3f (min %.3f, max %.3f) over %d pairs\n", l, busy, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR], NR }'
