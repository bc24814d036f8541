#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fit time and peak memory of `crowdspec fit` on binary label files (issue 19 item 3):
# for each label count N, bench_binary writes a simulated crowd (k = 2, 1,000 workers,
# 10 labels per item) straight into a binary file, then `/usr/bin/time -v crowdspec fit`
# fits it and writes the items' CSV; one JSON line per run with the wall, user and
# system seconds, the peak resident set and the bytes per label. The files are deleted
# after each run (a 10^9-label file is 4.8 GB, its output CSV about 5 GB).
#
#   bench/bench_binary.sh BUILD_DIR [N ...]        (default N: 10000000 100000000)
#   METHODS="ds opt-ds" THREADS=2 WORK=/tmp bench/bench_binary.sh build 1000000000
#
# BUILD_DIR must be configured with -DCS_BUILD_BENCH=ON. Check `df -h` first: the work
# directory needs about 10 bytes per label free.
set -eu
BUILD=${1:?usage: bench_binary.sh BUILD_DIR [N ...]}
shift
[ $# -gt 0 ] || set -- 10000000 100000000
METHODS=${METHODS:-opt-ds}
THREADS=${THREADS:-}
WORK=${WORK:-${TMPDIR:-/tmp}}
CS="$BUILD/tools/crowdspec"
GEN="$BUILD/bench/bench_binary"
[ -x "$GEN" ] || { echo "bench_binary.sh: $GEN not built (configure with -DCS_BUILD_BENCH=ON)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_binary.sh: /usr/bin/time (Debian package time) is needed" >&2; exit 1; }
DIR=$(mktemp -d "$WORK/bench_binary.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
for n in "$@"; do
    "$GEN" --labels "$n" "$DIR/crowd.cslab" >"$DIR/gen.json"
    bytes=$(wc -c <"$DIR/crowd.cslab" | tr -d ' ')
    for m in $METHODS; do
        /usr/bin/time -v "$CS" fit -q -m "$m" ${THREADS:+--threads "$THREADS"} "$DIR/crowd.cslab" \
            -o "$DIR/items.csv" 2>"$DIR/time.txt"
        rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$DIR/time.txt")
        wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$DIR/time.txt")
        user=$(sed -n 's/.*User time (seconds): //p' "$DIR/time.txt")
        sys=$(sed -n 's/.*System time (seconds): //p' "$DIR/time.txt")
        awk -v n="$n" -v m="$m" -v rss="$rss_kb" -v wall="$wall" -v user="$user" -v sys="$sys" -v bytes="$bytes" \
            'BEGIN { k = split(wall, p, ":"); s = 0; for (i = 1; i <= k; i++) s = s * 60 + p[i];
                     printf "{\"labels\":%s,\"method\":\"%s\",\"file_bytes\":%s,\"wall_s\":%.2f,\"user_s\":%s,\"sys_s\":%s,\"peak_rss_mb\":%.1f,\"peak_bytes_per_label\":%.2f}\n",
                            n, m, bytes, s, user, sys, rss / 1024, rss * 1024 / n }'
        rm -f "$DIR/items.csv"
    done
    rm -f "$DIR/crowd.cslab"
done
