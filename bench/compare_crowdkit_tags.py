#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tags: crowdspec against crowd-kit's BinaryRelevance(DawidSkene) on the same files.

A simulated tag crowd (bench_answers --mode write-tags: good, sloppy, spammer and
never-ticking workers on correlated tags, 5 answers per item, `task,worker,tags` with
`a|b` lists) is written once per size into --work. Then, each --reps times, alternating:
  crowd-kit   pandas.read_csv, the lists split, BinaryRelevance(DawidSkene()).fit_predict
              (crowd-kit's defaults: 100 rounds at most, tol 1e-5)
  crowdspec   `crowdspec fit --answers tags --method ds FILE -o out.csv` (reads the file,
              fits every tag, writes every probability), and the same with tag-pooled
One JSON line per size and side: best and median wall seconds, the Hamming loss and
exact-set accuracy against the simulated truth, and the ratio crowd-kit seconds /
crowdspec seconds (best against best).

crowd-kit is not part of this project: run with an interpreter that imports it, e.g.
  PYTHONPATH=/path/to/crowd-kit /usr/bin/python3 bench/compare_crowdkit_tags.py --build build
Without it the script prints {"crowdkit": "not installed"} and exits 0. A benchmark to
run by hand, never a ctest test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def load_truth(path):
    truth = {}
    with open(path) as f:
        next(f)
        for line in f:
            task, _, tags = line.rstrip("\n").partition(",")
            truth[task] = set(t for t in tags.split("|") if t)
    return truth


def score(pred, truth, tags):
    wrong = exact = 0
    for task, true in truth.items():
        p = pred.get(task, set())
        wrong += len(p ^ true)
        exact += p == true
    return wrong / (len(truth) * len(tags)), exact / len(truth)


def run_crowdkit(path):
    import pandas as pd
    from crowdkit.aggregation import BinaryRelevance, DawidSkene
    t0 = time.perf_counter()
    df = pd.read_csv(path, dtype={"task": str, "worker": str, "tags": str}, keep_default_na=False)
    df["label"] = [s.split("|") if s else [] for s in df["tags"]]
    labels = BinaryRelevance(DawidSkene()).fit_predict(df[["task", "worker", "label"]])
    seconds = time.perf_counter() - t0
    return seconds, {str(k): set(v) for k, v in labels.items()}


def run_crowdspec(build, path, method, out):
    t0 = time.perf_counter()
    subprocess.run([os.path.join(build, "tools", "crowdspec"), "fit", "-q", "--answers", "tags", "--method", method,
                    path, "-o", out], check=True)
    seconds = time.perf_counter() - t0
    pred = {}
    with open(out) as f:
        next(f)
        for line in f:
            task, tags = line.split(",")[:2]
            pred[task] = set(t for t in tags.split("|") if t)
    return seconds, pred


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--answers", default="1e5,1e6")
    ap.add_argument("--tags", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--work", default="/tmp/crowdspec_tags_bench")
    args = ap.parse_args()
    try:
        import crowdkit  # noqa: F401
    except ImportError:
        print(json.dumps({"crowdkit": "not installed"}))
        return 0
    os.makedirs(args.work, exist_ok=True)
    tags = ["t%d" % g for g in range(args.tags)]
    for size in args.answers.split(","):
        n = int(float(size))
        crowd = os.path.join(args.work, "tags_%d.csv" % n)
        truth_path = os.path.join(args.work, "tags_truth_%d.csv" % n)
        if not os.path.exists(crowd):
            subprocess.run([os.path.join(args.build, "bench", "bench_answers"), "--mode", "write-tags", "--answers",
                            str(n), "--tags", str(args.tags), "--out", crowd, "--truth", truth_path], check=True)
        truth = load_truth(truth_path)
        times = {"crowd-kit BinaryRelevance(DawidSkene)": [], "crowdspec ds": [], "crowdspec tag-pooled": []}
        quality = {}
        for _ in range(args.reps):
            s, pred = run_crowdkit(crowd)
            times["crowd-kit BinaryRelevance(DawidSkene)"].append(s)
            quality["crowd-kit BinaryRelevance(DawidSkene)"] = score(pred, truth, tags)
            for method in ("ds", "tag-pooled"):
                s, pred = run_crowdspec(args.build, crowd, method, os.path.join(args.work, "out.csv"))
                times["crowdspec " + method].append(s)
                quality["crowdspec " + method] = score(pred, truth, tags)
        ck = min(times["crowd-kit BinaryRelevance(DawidSkene)"])
        for side, t in times.items():
            print(json.dumps({"answers": n, "tags": args.tags, "side": side, "best_s": round(min(t), 3),
                              "median_s": round(statistics.median(t), 3),
                              "hamming_loss": round(quality[side][0], 5),
                              "exact_set_accuracy": round(quality[side][1], 4),
                              "crowdkit_over_this": round(ck / min(t), 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
