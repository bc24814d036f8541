#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""crowdspec.dask.fit on a distributed.LocalCluster against the single-process fit
(issue 38, docs/scaling.md "Dask").

A simulated one-coin crowd (--labels labels over --items items from --workers
workers, k classes; vectorised numpy, seeded) goes into a Dask DataFrame of
--partitions partitions; crowdspec.dask.fit runs on a LocalCluster of --dask-workers
processes (one thread each). The same labels are fitted in this process by
crowdspec.fit_labels (calibration none, the posteriors the Dask fit returns) with
--threads threads. Prints one JSON line: the labels' agreement (must be 1.0), the
largest posterior difference (goal <= 1e-10), the iterations of both, the time per
round (Dask: the median E-step round, map + gather + sum; single process: the fit's
time over its E-steps), the whole Dask fit including the shuffle by task, and the bytes
moved per round (each partition's statistics to the client, the parameters to each
Dask worker: n_partitions x (n_workers k^2 + k + 2) x 8 + dask_workers x (n_workers k^2
+ k) x 8).

usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python \\
       /usr/bin/python3 bench/bench_dask.py [--labels 1e7] [--items 1e6] [--workers 1000]
       [--k 3] [--partitions 8] [--dask-workers 2] [--threads 2] [--method ds]
"""

import argparse
import json
import statistics
import time

import numpy as np
import pandas as pd


def simulate(n_labels, n_items, n_workers, k, seed):
    rng = np.random.default_rng(seed)
    per_item = max(1, n_labels // n_items)
    truth = rng.integers(0, k, n_items)
    accuracy = rng.uniform(0.55, 0.95, n_workers)
    item = np.repeat(np.arange(n_items, dtype=np.int64), per_item)
    first = rng.integers(0, n_workers, n_items)
    worker = (np.repeat(first, per_item) + np.tile(np.arange(per_item) * 7919, n_items)) % n_workers
    right = rng.random(item.size) < accuracy[worker]
    wrong = (truth[item] + 1 + rng.integers(0, k - 1, item.size)) % k
    label = np.where(right, truth[item], wrong)
    return item, worker, label


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labels", type=float, default=1e7)
    parser.add_argument("--items", type=float, default=1e6)
    parser.add_argument("--workers", type=int, default=1000)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--dask-workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--method", default="ds")
    parser.add_argument("--seed", type=int, default=38)
    args = parser.parse_args()

    import dask.dataframe as dd
    import distributed

    import crowdspec
    import crowdspec.dask

    item, worker, label = simulate(int(args.labels), int(args.items), args.workers, args.k, args.seed)
    frame = pd.DataFrame({"task": item, "worker": worker, "label": label})

    began = time.perf_counter()
    single = crowdspec.fit_labels(item.astype(np.int32), worker.astype(np.int32), label.astype(np.int32),
                                  method=args.method, calibration="none", threads=args.threads, warn=False)
    single_seconds = time.perf_counter() - began
    # EM's E-steps: one per iteration plus the start's (SQUAREM's extra E-steps are in
    # the iterations the library counts as rounds).
    single_round = single_seconds / max(1, single.iterations + 1)

    cluster = distributed.LocalCluster(n_workers=args.dask_workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        began = time.perf_counter()
        fitted = crowdspec.dask.fit(dd.from_pandas(frame, npartitions=args.partitions), method=args.method,
                                    client=client)
        dask_seconds = time.perf_counter() - began
    finally:
        client.close()
        cluster.close()

    tasks = fitted.probas.index.to_numpy()
    q = fitted.probas.to_numpy()
    agree = float(np.mean(np.argmax(q, axis=1) == single.labels[tasks]))
    difference = float(np.abs(q - single.posteriors[tasks]).max())
    out = {
        "bench": "dask", "method": args.method, "labels": int(item.size), "items": int(args.items),
        "workers": args.workers, "k": args.k, "partitions": args.partitions, "dask_workers": args.dask_workers,
        "single_threads": args.threads,
        "label_agreement": agree, "max_posterior_difference": difference,
        "iterations_single": int(single.iterations), "iterations_dask": int(fitted.iterations),
        "single_fit_s": round(single_seconds, 3), "single_round_s": round(single_round, 4),
        "dask_fit_s": round(dask_seconds, 3), "dask_rounds": len(fitted.round_seconds),
        "dask_round_median_s": round(statistics.median(fitted.round_seconds), 4),
        "dask_round_max_s": round(max(fitted.round_seconds), 4),
        "bytes_per_round": int(fitted.bytes_per_round),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
