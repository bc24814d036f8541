#!/bin/sh
# SPDX-License-Identifier: MIT
# Compare the crowd fits of two builds of the library (e.g. before and after a change to
# the EM kernel): bench/fit_dump.c is compiled against each build's libcrowdspec.so and
# run on the five shared datasets and on simulated crowds (k = 2, 3, 4, 5 and 7, 1,000 and
# 100,000 workers); for every fit the labels must be identical and every posterior
# within TOL (default 1e-9) of the other build's. Prints one line per fit with the
# largest posterior difference and the log-likelihoods; exit status 1 if any fit fails.
#
# Usage: bench/check_em_change.sh BEFORE_BUILD AFTER_BUILD [DATASETS_DIR]
#   BEFORE_BUILD, AFTER_BUILD: CMake build directories (with src/libcrowdspec.so)
#   DATASETS_DIR: the shared datasets (default ../shared/datasets from the source tree)
# Environment: TOL (default 1e-9), METHODS (default "ds opt-ds"), THREADS (default 2),
#   SIM=0 to skip the simulated crowds, WORK (scratch directory, default a mktemp),
#   PARAMS (NAME=VALUE settings for every fit, e.g. "accel=none"; default none).
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 BEFORE_BUILD AFTER_BUILD [DATASETS_DIR]" >&2
    exit 2
fi
src=$(cd "$(dirname "$0")/.." && pwd)
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
data=${3:-$src/../shared/datasets}
tol=${TOL:-1e-9}
methods=${METHODS:-"ds opt-ds"}
threads=${THREADS:-2}
work=${WORK:-$(mktemp -d)}
cc=${CC:-cc}

for side in before after; do
    eval dir=\$$side
    $cc -O2 -std=c99 -I "$src/include" -o "$work/fit_dump_$side" "$src/bench/fit_dump.c" \
        -L "$dir/src" -lcrowdspec -Wl,-rpath,"$dir/src"
done

sets=""
for name in bluebird rte trec dog web; do
    if [ -f "$data/${name}_crowd.txt" ]; then sets="$sets $data/${name}_crowd.txt"; fi
done
if [ "${SIM:-1}" != 0 ]; then
    cli="$after/tools/crowdspec"
    # items workers classes labels-per-item
    for spec in "100000 1000 2 10" "100000 1000 3 10" "100000 1000 4 10" "100000 1000 5 10" "30000 300 7 6" \
                "100000 100000 2 10" "50000 100000 5 10"; do
        set -- $spec
        f="$work/sim_i$1_w$2_k$3_r$4.txt"
        "$cli" simulate --items "$1" --workers "$2" --classes "$3" --labels-per-item "$4" \
            --seed 3 --format whitespace --labels "$f"
        sets="$sets $f"
    done
fi

status=0
for f in $sets; do
    for method in $methods; do
        # shellcheck disable=SC2086 # PARAMS is a list of words
        "$work/fit_dump_before" "$method" "$threads" "$f" ${PARAMS:-} > "$work/before.out"
        # shellcheck disable=SC2086
        "$work/fit_dump_after" "$method" "$threads" "$f" ${PARAMS:-} > "$work/after.out"
        if ! paste -d ' ' "$work/before.out" "$work/after.out" | awk -v tol="$tol" \
            -v name="$(basename "$f" .txt) $method" '
            function abs(x) { return x < 0 ? -x : x }
            NR == 1 { it_b = $2; it_a = $4; next }
            NR == 2 { ll_b = $2; ll_a = $4; next }
            {
                h = NF / 2
                if ($1 != $(h + 1)) labels++
                for (i = 2; i <= h; ++i) { d = abs($i - $(h + i)); if (d > worst) worst = d }
            }
            END {
                ok = labels == 0 && worst <= tol
                printf "%-26s %s rounds %s/%s labels differing %d max |dpost| %.3g loglik %s / %s\n",
                       name, ok ? "ok  " : "FAIL", it_b, it_a, labels, worst, ll_b, ll_a
                exit ok ? 0 : 1
            }'; then
            status=1
        fi
    done
done
[ -n "${WORK:-}" ] || rm -rf "$work"
exit $status
