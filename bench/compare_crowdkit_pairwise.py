#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""crowdspec's comparison methods against crowd-kit's BradleyTerry and NoisyBradleyTerry
on the same files (issue 35): Spearman's rho against the true scores and the time ratio.

Files: build/bench/bench_comparisons --write PREFIX makes PREFIX.csv (worker,left,right,
label: crowd-kit's columns) and PREFIX_truth.txt from Crowd-BT's generative process (80%
of the workers state the true preference with eta = 0.9, 20% with eta = 0.2), for each
--sizes entry (comparisons; items = comparisons / 100, 1000 workers).

Per file and method, one JSON line:
  crowdkit_seconds   crowd-kit's fit on the DataFrame already in memory (BradleyTerry
                     with n_iter=100, NoisyBradleyTerry with its defaults)
  crowdspec_seconds  `crowdspec rank --truth` fit time (the library call alone)
  crowdspec_end2end  the whole `crowdspec rank` command: reading the CSV, the fit and
                     writing item,score,se,rank
  speedup            crowdkit_seconds / crowdspec_seconds (and end2end: / crowdspec_end2end)
  *_cpu              CPU seconds (crowd-kit: of the fit; crowdspec: of the whole command),
                     the figure that a busy machine changes least; speedup_cpu_end2end their ratio
  crowdspec_python_cpu  the like-for-like figure when the crowdspec Python package is
                     importable: our crowd-kit-shaped class (BradleyTerry, NoisyBradleyTerry,
                     CrowdBT) fitted on the same DataFrame, CPU seconds, median of 3;
                     speedup_cpu_python = crowdkit_cpu / it
  rho_*              Spearman's rho of the scores against the truth (scipy.stats.spearmanr
                     on both sides)
crowd-kit is not part of this project: run the script with an interpreter that has numpy,
pandas and scipy and put a crowd-kit checkout on PYTHONPATH, e.g.
  PYTHONPATH=/tmp/crowd-kit /usr/bin/python3 bench/compare_crowdkit_pairwise.py --build build
Without crowd-kit it prints {"crowdkit": "not installed"} and exits with status 0.
A benchmark to run by hand, never a ctest test.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--work", default="/tmp/cs_pairwise")
    ap.add_argument("--sizes", default="1e4,1e5,1e6")
    ap.add_argument("--pairs", default="bt:BradleyTerry,noisy-bt:NoisyBradleyTerry,crowd-bt:NoisyBradleyTerry",
                    help="crowdspec method : crowd-kit class, comma-separated")
    args = ap.parse_args()
    try:
        import pandas as pd
        from scipy.stats import spearmanr
        from crowdkit.aggregation import BradleyTerry, NoisyBradleyTerry
    except ImportError as e:
        print(json.dumps({"crowdkit": "not installed", "error": str(e)}))
        return 0
    try:
        import crowdspec
        ours_python = {"bt": crowdspec.BradleyTerry, "noisy-bt": crowdspec.NoisyBradleyTerry,
                       "crowd-bt": crowdspec.CrowdBT}
    except (ImportError, OSError):  # the package, or its library, not found
        ours_python = {}
    os.makedirs(args.work, exist_ok=True)
    cli = os.path.join(args.build, "tools", "crowdspec")
    bench = os.path.join(args.build, "bench", "bench_comparisons")
    for size in (int(float(s)) for s in args.sizes.split(",")):
        prefix = os.path.join(args.work, "sbs_%d" % size)
        if not os.path.exists(prefix + ".csv"):
            subprocess.run([bench, "--comparisons", str(size), "--methods", "bt", "--iters", "1", "--write", prefix],
                           check=True, stdout=subprocess.DEVNULL)
        df = pd.read_csv(prefix + ".csv", dtype=str)
        truth = pd.read_csv(prefix + "_truth.txt", sep=" ", header=None, names=["item", "score"], dtype={"item": str})
        truth = truth.set_index("item")["score"]
        ck_cache = {}
        for pair in args.pairs.split(","):
            method, ck_name = pair.split(":")
            if ck_name not in ck_cache:
                model = BradleyTerry(n_iter=100) if ck_name == "BradleyTerry" else NoisyBradleyTerry()
                t0, c0 = time.perf_counter(), time.process_time()
                scores = model.fit(df).scores_
                ck_seconds, ck_cpu = time.perf_counter() - t0, time.process_time() - c0
                common = truth.index.intersection(scores.index)
                ck_cache[ck_name] = (ck_seconds, ck_cpu, spearmanr(scores[common], truth[common]).correlation)
            ck_seconds, ck_cpu, ck_rho = ck_cache[ck_name]
            out = prefix + "_" + method + ".csv"
            t0, c0 = time.perf_counter(), child_cpu()
            run = subprocess.run([cli, "rank", "--method", method, "--truth", prefix + "_truth.txt", "--output", out,
                                  prefix + ".csv"], check=True, capture_output=True, text=True)
            end2end, cpu = time.perf_counter() - t0, child_cpu() - c0
            line = json.loads(run.stdout.splitlines()[-1])
            ours = pd.read_csv(out, dtype={"item": str}).set_index("item")["score"]
            common = truth.index.intersection(ours.index)
            rho = spearmanr(ours[common], truth[common]).correlation
            python = {}
            if method in ours_python:
                ours_python[method]().fit(df.head(100))  # (the library loaded before timing)
                cpu_runs = []
                for _ in range(3):
                    c0 = time.process_time()
                    ours_python[method]().fit(df)
                    cpu_runs.append(time.process_time() - c0)
                python_cpu = sorted(cpu_runs)[1]
                python = {"crowdspec_python_cpu": round(python_cpu, 3),
                          "speedup_cpu_python": round(ck_cpu / python_cpu, 1)}
            print(json.dumps({
                "comparisons": size, "method": method, "crowdkit": ck_name,
                "rho_crowdspec": round(rho, 4), "rho_crowdkit": round(ck_rho, 4),
                "crowdspec_seconds": round(line["seconds"], 4), "crowdspec_end2end": round(end2end, 3),
                "crowdkit_seconds": round(ck_seconds, 3), "crowdkit_cpu": round(ck_cpu, 3),
                "crowdspec_cpu_end2end": round(cpu, 3), "speedup_cpu_end2end": round(ck_cpu / cpu, 1),
                "speedup": round(ck_seconds / line["seconds"], 1), "speedup_end2end": round(ck_seconds / end2end, 1),
                "iterations": line["iterations"], "converged": line["converged"], **python}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
