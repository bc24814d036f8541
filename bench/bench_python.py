#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Python overhead of crowdspec.DawidSkene().fit_predict(df) on 10^6 labels.

A crowd of 100,000 tasks x 10 labels from 500 workers, k = 2, is aggregated end to end
(coding the DataFrame's ids and labels, the fit, building labels_, probas_, errors_
...) by DawidSkene() as a user calls it (the library's defaults: max_iter 1000, tol
1e-10, every core), and the same fit is timed at the C level alone: fit_labels on
int32 arrays that are already 0-based and sorted by item, then worker (conversion is a
no-op, so this is cs_fit plus copying the results out). The frame comes in several shapes:

  int ids           int64 task and worker ids, int64 labels
  string ids        str task ids ("task000123") and worker ids ("worker042"), rows
                    grouped by task (as exports usually are); int64 labels
  string, shuffled  the same rows in random order
  string, from CSV  the string frame written to CSV and read back by pandas.read_csv
                    (one string object per distinct value and chunk of rows, as the
                    reader makes them)
  shuffled CSV      the shuffled frame written to CSV and read back: ids first seen
                    in random order, so their objects lie in memory in random order
                    (3.8 objects per task id, made chunk by chunk)
  categorical ids   task and worker as pandas categoricals
  object labels     string ids and str labels ("no", "yes")
  categorical labels string ids and a categorical label column

For each: the median of --repeat runs of the C fit, end to end and the frame's
coding alone (_Encoded), run in turn, and the medians of the per-run ratios. Every
frame must give labels_ and probas_ bit for bit equal to the C fit's (the ids sort
alike in all of them, and the fit does not depend on the row order).

usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python \\
       /usr/bin/python3 bench/bench_python.py [--repeat 5] [--threads T] [--clock cpu]
       [--stat best] [--only SUBSTRING] [--param NAME=VALUE ...]
"""

import argparse
import io
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


def frames(item, worker, label):
    """(name, DataFrame, row order) of every shape measured; row order maps the frame's
    rows back to the generated ones (None: the same order)."""
    import pandas as pd
    task_names = np.array(["task%06d" % j for j in range(N_TASKS)], dtype=object)
    worker_names = np.array(["worker%03d" % i for i in range(N_WORKERS)], dtype=object)
    ints = pd.DataFrame({"task": item.astype(np.int64) * 7 + 1000,
                         "worker": worker.astype(np.int64) * 3 + 100,
                         "label": label.astype(np.int64)})
    strings = pd.DataFrame({"task": task_names[item], "worker": worker_names[worker],
                            "label": label.astype(np.int64)})
    shuffle = np.random.default_rng(1).permutation(item.size)
    shuffled = strings.iloc[shuffle].reset_index(drop=True)
    text = io.StringIO()
    strings.to_csv(text, index=False)
    text.seek(0)
    from_csv = pd.read_csv(text)
    text = io.StringIO()
    shuffled.to_csv(text, index=False)
    text.seek(0)
    shuffled_csv = pd.read_csv(text)
    categorical = strings.assign(task=strings["task"].astype("category"),
                                 worker=strings["worker"].astype("category"))
    object_labels = strings.assign(
        label=np.array(["no", "yes"], dtype=object)[label])
    categorical_labels = strings.assign(
        label=pd.Categorical.from_codes(label, ["no", "yes"]))
    return [("int ids", ints, None),
            ("string ids", strings, None),
            ("string, shuffled", shuffled, shuffle),
            ("string, from CSV", from_csv, None),
            ("shuffled CSV", shuffled_csv, shuffle),
            ("categorical ids", categorical, None),
            ("object labels", object_labels, None),
            ("categorical labels", categorical_labels, None)]


CLOCK = time.perf_counter


def timed(fn):
    start = CLOCK()
    out = fn()
    return CLOCK() - start, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None,
                        help="library threads (default: the library's, every core)")
    parser.add_argument("--stat", choices=("median", "best"), default="median",
                        help="median: medians of the times and of the per-run ratios; "
                        "best: the shortest times and their ratios (the uncontended "
                        "cost on a shared machine)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall: elapsed time; cpu: this process's CPU time (steadier "
                        "on a busy machine, meaningful with --threads 1)")
    parser.add_argument("--loose", action="store_true",
                        help="check labels_ only up to exact ties, not probas_ bit for bit "
                        "(to time a package from before the fit ignored the row order)")
    parser.add_argument("--only", default=None,
                        help="time only the frames whose name contains this text")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a library parameter for both fits, e.g. calibration=none (the "
                        "Dawid-Skene posteriors' calibration, on by default, is most of a "
                        "10-round fit's time); repeatable")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.clock == "wall" else time.process_time
    repeat = max(3, args.repeat)
    from crowdspec._frame import _Encoded

    item, worker, label, truth = generate()
    params = {} if args.threads is None else {"threads": args.threads}
    for assignment in args.param:
        name, _, value = assignment.partition("=")
        params[name] = value
    ds = crowdspec.DawidSkene(**params)  # as a user calls it: the library's defaults

    # The C fit gets the rows sorted by item, then worker: the order the DataFrame
    # classes hand them over in (the frames below keep the generated order, where
    # each task's workers are consecutive ids modulo 500, so a few are out of order).
    by_item = np.lexsort((worker, item))
    c_rows = item[by_item], worker[by_item], label[by_item]
    c_fit = lambda: crowdspec.fit_labels(*c_rows, method="ds",  # noqa: E731
                                         warn=False, **params)
    _, r = timed(c_fit)
    print("crowdspec %s, library %s" % (crowdspec.version(), crowdspec.library_path()))
    print("labels %d  tasks %d  workers %d  k 2  EM rounds %d  threads %s  runs %d  "
          "clock %s  params %s" % (item.size, N_TASKS, N_WORKERS, r.iterations,
                                   "library default" if args.threads is None else args.threads,
                                   repeat, args.clock, " ".join(args.param) or "defaults"))
    print("error_rate %.4f" % float(np.mean(r.labels != truth)))
    print("C fit: fit_labels on 0-based int32 arrays (cs_fit + copying results), timed "
          "next to each end-to-end run; %s"
          % ("ratios are medians of the per-run ratios" if args.stat == "median" else
             "best of the runs, ratios of the best times"))
    print()
    print("| frame | C fit (s) | end to end (s) | end to end / C fit | coding (s) "
          "| coding / C fit |")
    print("|---|---|---|---|---|---|")
    for name, df, order in frames(item, worker, label):
        if args.only is not None and args.only not in name:
            continue
        runs = []
        for _ in range(repeat):  # interleaved, so that a busy moment hits both
            c_time, _ = timed(c_fit)
            e2e, labels = timed(lambda: ds.fit_predict(df))
            enc, _ = timed(lambda: _Encoded(df))
            runs.append((c_time, e2e, e2e / c_time, enc, enc / c_time))
        got = labels.to_numpy()
        if got.dtype == object or str(labels.dtype) == "category":
            got = (np.asarray(labels.astype(str)) == "yes").astype(np.int32)
        # bit for bit the C fit of the rows by item, then worker, whatever the frame's
        # row order (tasks sort as the items, classes as 0 < 1 or "no" < "yes")
        if args.loose:
            assert np.mean(got == r.labels) > 0.9999, name
        else:
            assert np.array_equal(got, r.labels), name
            assert np.array_equal(ds.probas_.to_numpy(), r.posteriors), name
        if args.stat == "median":
            row = [statistics.median(column) for column in zip(*runs)]
        else:
            c_time, e2e, enc = (min(r[i] for r in runs) for i in (0, 1, 3))
            row = [c_time, e2e, e2e / c_time, enc, enc / c_time]
        print("| %s | %.4f | %.4f | %.2fx | %.4f | %.2fx |" % ((name,) + tuple(row)))


if __name__ == "__main__":
    main()
