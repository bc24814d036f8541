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
        sed -n 's/.*"seconds_em":\([0-9.]*\),"seconds_total":\([0-9.]*\).*/\2 \1/p'
}
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f (min %.3f, max %.3f)", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'; }
ratios=""
em_ratios=""
i=0
while [ "$i" -lt "$pairs" ]; do
    set -- $(seconds 0 "$@") $(seconds 1 "$@") "$@"
    r=$(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.3f", a / b }')
    e=$(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.3f", a / b }')
    echo "pair $i: default threads $1 s (EM $2 s), one thread $3 s (EM $4 s), ratio $r (EM $e)"
    shift 4
    ratios="$ratios $r"
    em_ratios="$em_ratios $e"
    i=$((i + 1))
done
echo "labels $labels busy ${BUSY:-0}: median default/one over $pairs pairs: fit $(echo "$ratios" | tr ' ' '\n' | grep . | median), EM $(echo "$em_ratios" | tr ' ' '\n' | grep . | median)"
