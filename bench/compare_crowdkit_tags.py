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
One JSON line per size and side: best and median wall seconds, median CPU seconds (the
steadier figure on a shared machine; crowdspec's is its process's, threads included),
the Hamming loss and exact-set accuracy against the simulated truth, and the ratios
crowd-kit / this side (best wall against best wall; median CPU against median CPU).

crowd-kit is not part of this project: run with an interpreter that imports it, e.g.
  PYTHONPATH=/path/to/crowd-kit /usr/bin/python3 bench/compare_crowdkit_tags.py --build build
Without it the script prints {"crowdkit": "not installed"} and exits 0. A benchmark to
run by hand, never a ctest test.
"""
import argparse
import json
import os
import resource
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


def cpu_self():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def cpu_children():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def run_crowdkit(path):
    import pandas as pd
    from crowdkit.aggregation import BinaryRelevance, DawidSkene
    c0 = cpu_self()
    t0 = time.perf_counter()
    df = pd.read_csv(path, dtype={"task": str, "worker": str, "tags": str}, keep_default_na=False)
    df["label"] = [s.split("|") if s else [] for s in df["tags"]]
    labels = BinaryRelevance(DawidSkene()).fit_predict(df[["task", "worker", "label"]])
    seconds = time.perf_counter() - t0
    return seconds, cpu_self() - c0, {str(k): set(v) for k, v in labels.items()}


def run_crowdspec(build, path, method, out):
    c0 = cpu_children()
    t0 = time.perf_counter()
    subprocess.run([os.path.join(build, "tools", "crowdspec"), "fit", "-q", "--answers", "tags", "--method", method,
                    path, "-o", out], check=True)
    seconds = time.perf_counter() - t0
    cpu = cpu_children() - c0
    pred = {}
    with open(out) as f:
        next(f)
        for line in f:
            task, tags = line.split(",")[:2]
            pred[task] = set(t for t in tags.split("|") if t)
    return seconds, cpu, pred


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
        ck_side = "crowd-kit BinaryRelevance(DawidSkene)"
        sides = [ck_side, "crowdspec ds", "crowdspec tag-pooled"]
        times = {side: [] for side in sides}
        cpus = {side: [] for side in sides}
        quality = {}
        for _ in range(args.reps):
            s, c, pred = run_crowdkit(crowd)
            times[ck_side].append(s)
            cpus[ck_side].append(c)
            quality[ck_side] = score(pred, truth, tags)
            for method in ("ds", "tag-pooled"):
                s, c, pred = run_crowdspec(args.build, crowd, method, os.path.join(args.work, "out.csv"))
                times["crowdspec " + method].append(s)
                cpus["crowdspec " + method].append(c)
                quality["crowdspec " + method] = score(pred, truth, tags)
        for side in sides:
            print(json.dumps({"answers": n, "tags": args.tags, "side": side, "best_s": round(min(times[side]), 3),
                              "median_s": round(statistics.median(times[side]), 3),
                              "median_cpu_s": round(statistics.median(cpus[side]), 3),
                              "hamming_loss": round(quality[side][0], 5),
                              "exact_set_accuracy": round(quality[side][1], 4),
                              "crowdkit_over_this_wall": round(min(times[ck_side]) / min(times[side]), 2),
                              "crowdkit_over_this_cpu": round(statistics.median(cpus[ck_side]) /
                                                              statistics.median(cpus[side]), 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
