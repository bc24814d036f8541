#!/bin/sh
# SPDX-License-Identifier: MIT
# The opt-ds spectral stage's share of the whole fit (issue 6 asks for at most 10 %):
# RUNS separate opt-ds fits to convergence of the 10^7-label benchmark crowd, then
# the medians of the stage times and of the share, with its range. The machine's
# timings vary by +-20 % between runs, hence the repeats.
#   bench/spectral_share.sh [BENCH] [K] [THREADS] [RUNS]
#   bench/spectral_share.sh build/bench/bench_crowd 5 1 5
set -eu
bench=${1:-build/bench/bench_crowd}
k=${2:-5}
threads=${3:-1}
runs=${4:-5}
i=0
while [ "$i" -lt "$runs" ]; do
  "$bench" --labels 10000000 --k "$k" --workers 1000 --per-item 10 --threads "$threads" \
           --methods opt-ds 2>/dev/null | grep '"method":"opt-ds"'
  i=$((i + 1))
done | python3 -c '
import json, statistics as st, sys
rows = [json.loads(line) for line in sys.stdin]
med = lambda key: st.median(r[key] for r in rows)
share = [100 * r["seconds_spectral"] / r["seconds_total"] for r in rows]
print("k=%d threads=%d runs=%d rounds=%d layout %.3f s, spectral %.4f s, EM %.3f s, total %.3f s;"
      " spectral share median %.1f %% (%.1f-%.1f)" % (
          rows[0]["k"], rows[0]["threads"], len(rows), rows[0]["iterations"], med("seconds_build"),
          med("seconds_spectral"), med("seconds_em"), med("seconds_total"), st.median(share),
          min(share), max(share)))
'
