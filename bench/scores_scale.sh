#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 34 at scale: what the "label next" / "check this label" scores and the worker
# diagnostics cost after a fit of the 10^7-label benchmark crowd (bench_crowd --scores
# 1: cs_label_next, cs_label_wrong, cs_worker_diagnostics, and the diagnostics inside
# the fit -- for a Dawid-Skene-family method as the fit computes them, timed by --phases
# 1: from EM's counts when the calibration left the posteriors as EM made them, from the
# counts the calibration made of the rows it tempered (their counting, which bench_crowd
# times alone, is added to the diagnostics), else a pass
# over the labels; for other methods that pass), as CPU seconds, as a share of the
# fit's CPU time and in EM rounds; and what a classifier's probabilities (--model-acc
# 0.85) add to the fit. RUNS separate runs of each; medians over them (each score timing
# is itself a median of 3 calls).
#   bench/scores_scale.sh [BENCH] [K] [METHODS] [RUNS] [WORKERS]
#   bench/scores_scale.sh build/bench/bench_crowd 2 auto,ds 3 1000
set -eu
bench=${1:-build/bench/bench_crowd}
k=${2:-2}
methods=${3:-auto,ds}
runs=${4:-3}
workers=${5:-1000}
i=0
while [ "$i" -lt "$runs" ]; do
  "$bench" --labels 10000000 --k "$k" --workers "$workers" --per-item 10 --threads 1 \
           --methods "$methods" --scores 1 --phases 1 2>/dev/null
  "$bench" --labels 10000000 --k "$k" --workers "$workers" --per-item 10 --threads 1 \
           --methods "$methods" --model-acc 0.85 --scores 1 2>/dev/null
  i=$((i + 1))
done | python3 -c '
import json, statistics as st, sys
rows = [json.loads(line) for line in sys.stdin]
med = lambda rs, key: st.median(r[key] for r in rs)
# The diagnostics inside the fit: --phases times them as the fit computes them (its line
# follows the scores line of the same fit); without it, the pass.
last_scores = None
for r in rows:
    if r.get("scores") is not None:
        last_scores = r
        r["cpu_in_fit"] = r["cpu_diagnostics_pass"]
    elif r.get("phases") is not None and last_scores is not None:
        # Where the calibration counted the tempered rows, that counting is a cost of
        # the diagnostics too (bench_crowd times the same additions alone).
        counting = r["cpu_counting_tempered_rows"] if r.get("diagnostics_counted_by_calibration") else 0.0
        last_scores["cpu_in_fit"] = r["cpu_diagnostics"] + counting
        last_scores["from_em_counts"] = r["diagnostics_from_em_counts"]
        last_scores["temperature"] = r["temperature"]
        last_scores["counted_by_calibration"] = r.get("diagnostics_counted_by_calibration", False)
        last_scores["cpu_all"] += last_scores["cpu_in_fit"] - last_scores["cpu_diagnostics_pass"]
        last_scores["all_in_rounds"] = last_scores["cpu_all"] / last_scores["cpu_round"]
        last_scores["all_share_of_fit"] = last_scores["cpu_all"] / last_scores["cpu_fit"]
rows = [r for r in rows if r.get("phases") is None]
for method in dict.fromkeys(r.get("method") or r.get("scores") for r in rows):
    plain = [r for r in rows if r.get("method") == method and r["model_acc"] == 0]
    model = [r for r in rows if r.get("method") == method and r["model_acc"] > 0]
    # a scores line follows its fit line: split them by the fit before
    scores, model_scores, last = [], [], None
    for r in rows:
        if r.get("method") is not None:
            last = r
        elif r.get("scores") == method and last is not None and last["method"] == method:
            (model_scores if last["model_acc"] > 0 else scores).append(r)
    counts = [s.get("from_em_counts") for s in scores]
    print("%s k=%d workers=%d runs=%d: fit %.3f CPU s (%d rounds, %.4f s a round); scores and diagnostics"
          " %.4f CPU s = %.1f %% of the fit = %.2f rounds (diagnostics in the fit %.4f, %s, T %s; a pass"
          " over the labels %.4f; label_next %.4f, label_wrong %.4f, worker_diagnostics %.6f)" % (
              method, plain[0]["k"], plain[0]["workers"], len(plain), med(plain, "cpu_seconds_total"),
              med(plain, "iterations"), med(scores, "cpu_round"), med(scores, "cpu_all"),
              100 * med(scores, "all_share_of_fit"), med(scores, "all_in_rounds"), med(scores, "cpu_in_fit"),
              ("counted while tempering" if all(s.get("counted_by_calibration") for s in scores) else
               "from the EM counts") if all(counts) else "by a pass" if not any(counts) else "mixed",
              ",".join("%.4f" % s["temperature"] for s in scores if "temperature" in s) or "-",
              med(scores, "cpu_diagnostics_pass"), med(scores, "cpu_label_next"),
              med(scores, "cpu_label_wrong"), med(scores, "cpu_worker_diagnostics")))
    print("%s k=%d: with a classifier (accuracy 0.85) %.3f CPU s (%d rounds of %.4f s, error %.4f) against"
          " %.3f CPU s (%d rounds of %.4f s, error %.4f) without: x%.2f; its scores and diagnostics %.4f CPU s"
          " = %.1f rounds" % (
              method, plain[0]["k"], med(model, "cpu_seconds_total"), med(model, "iterations"),
              med(model_scores, "cpu_round"), med(model, "error_rate"), med(plain, "cpu_seconds_total"),
              med(plain, "iterations"), med(scores, "cpu_round"), med(plain, "error_rate"),
              med(model, "cpu_seconds_total") / med(plain, "cpu_seconds_total"), med(model_scores, "cpu_all"),
              med(model_scores, "all_in_rounds")))
'
