#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Python overhead of crowdspec.DawidSkene().fit_predict(df) on 10^6 labels.

A DataFrame of 100,000 tasks x 10 labels from 500 workers (string worker ids, int64
task ids; also string task ids), k = 2, is aggregated end to end (encoding the ids and labels, the fit, the pandas results), and
the same fit is timed at the C level alone (fit_labels on int32 arrays that are
already 0-based: conversion is a no-op, so this is cs_fit plus copying the results
out). Prints the median of --repeat runs of each and their ratio.

usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python \\
       /usr/bin/python3 bench/bench_python.py [--repeat 3] [--threads 1]
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "bindings", "python"))
import crowdspec  # noqa: E402

N_TASKS, N_WORKERS, PER_TASK = 100_000, 500, 10


def generate(seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 2, N_TASKS)
    skill = rng.uniform(0.55, 0.95, N_WORKERS)
    item = np.repeat(np.arange(N_TASKS), PER_TASK)
    # PER_TASK distinct workers per task: a random start and consecutive ids
    worker = (np.repeat(rng.integers(0, N_WORKERS, N_TASKS), PER_TASK)
              + np.tile(np.arange(PER_TASK), N_TASKS)) % N_WORKERS
    right = rng.random(item.size) < skill[worker]
    label = np.where(right, truth[item], 1 - truth[item])
    return item.astype(np.int32), worker.astype(np.int32), label.astype(np.int32), truth


def frame(item, worker, label, string_tasks=False):
    """int64 task ids (or strings), string worker ids, int64 labels."""
    import pandas as pd
    if string_tasks:
        tasks = np.array(["task%06d" % j for j in range(N_TASKS)], dtype=object)[item]
    else:
        tasks = item.astype(np.int64) * 7 + 1000  # arbitrary, increasing ids
    worker_ids = np.array(["worker%03d" % i for i in range(N_WORKERS)], dtype=object)
    return pd.DataFrame({"task": tasks, "worker": worker_ids[worker],
                         "label": label.astype(np.int64)})


def median_time(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1,
                        help="library threads (default 1: steadier on a shared machine; 0 = all)")
    args = parser.parse_args()
    repeat = max(3, args.repeat)

    item, worker, label, truth = generate()
    df = frame(item, worker, label)
    params = {"threads": args.threads}

    c_time, r = median_time(lambda: crowdspec.fit_labels(item, worker, label, method="ds",
                                                         warn=False, **params), repeat)
    ds = crowdspec.DawidSkene(n_jobs=args.threads)
    py_time, labels = median_time(lambda: ds.fit_predict(df), repeat)
    from crowdspec._frame import _Encoded
    encode_time, _ = median_time(lambda: _Encoded(df), repeat)
    df_int = frame(item, worker, label).assign(worker=worker.astype("int64") * 3 + 100)
    int_time, labels_int = median_time(lambda: ds.fit_predict(df_int), repeat)
    assert np.array_equal(labels_int.to_numpy(), r.labels)
    encode_int_time, _ = median_time(lambda: _Encoded(df_int), repeat)
    df_str = frame(item, worker, label, string_tasks=True)
    encode_str_time, _ = median_time(lambda: _Encoded(df_str), repeat)
    str_time, labels_str = median_time(lambda: ds.fit_predict(df_str), repeat)
    assert np.array_equal(labels_str.to_numpy(), r.labels)

    # the same answer both ways (tasks sort as their numbers, labels as 0 < 1)
    assert np.array_equal(labels.to_numpy(), r.labels)
    error = float(np.mean(r.labels != truth))
    print("crowdspec %s, library %s" % (crowdspec.version(), crowdspec.library_path()))
    print("labels %d  tasks %d  workers %d  k 2  EM rounds %d  threads %s  runs %d"
          % (item.size, N_TASKS, N_WORKERS, r.iterations, args.threads or "all", repeat))
    print("error_rate %.4f" % error)
    print("c_fit_s %.4f   (fit_labels on int32 arrays: cs_fit + copying results)" % c_time)
    print("python_end_to_end_s %.4f   (DawidSkene().fit_predict(df): int64 task ids, "
          "string worker ids)" % py_time)
    print("overhead_s %.4f   of which encoding the frame %.4f (%.2f x the C fit)"
          % (py_time - c_time, encode_time, encode_time / c_time))
    print("ratio %.3f   (end to end / C fit)" % (py_time / c_time))
    print("python_end_to_end_int_ids_s %.4f   ratio %.3f   (int64 task and worker ids; "
          "encoding %.4f, %.2f x the C fit)"
          % (int_time, int_time / c_time, encode_int_time, encode_int_time / c_time))
    print("python_end_to_end_string_tasks_s %.4f   ratio %.3f   (task ids strings too; "
          "encoding %.4f, %.2f x the C fit)"
          % (str_time, str_time / c_time, encode_str_time, encode_str_time / c_time))


if __name__ == "__main__":
    main()
