# SPDX-License-Identifier: MIT
"""Time crowd-kit's aggregation methods on one crowd file (issue 13's side-by-side).

Usage (inside a venv that has crowd-kit installed; crowdspec never vendors it):

    python bench/compare_crowdkit_methods.py --crowd crowd.txt --truth truth.txt \
        --methods wawa,zbs,ds,one-coin-ds,mace,glad,m-msr [--limit-labels N]

The crowd file is `item worker label` per line (whitespace separated, no header: the
shared datasets' layout and `crowdspec simulate`'s default); the truth file is
`item label`. Every method runs with crowd-kit's defaults through `fit_predict`. For each
method one JSON line is printed: CPU seconds of the fit (time.process_time, this process
and its threads), wall seconds, the peak resident memory of the process so far (ru_maxrss)
and the error % against the truth on the items that have a truth. A method that raises
(for example MemoryError) is reported with its exception instead of a time.

With --crowdspec the same methods run instead through crowdspec's Python binding
(bindings/python on sys.path, CROWDSPEC_LIBRARY naming libcrowdspec.so.0), in the same
process on the same DataFrame: `fit_labels` on the task/worker/label columns as 0-based
integers (the factorisation is not timed, as crowd-kit is handed the DataFrame), one
thread, library defaults; the time is the whole cs_fit call (validation, layout, start
and rounds).
"""
import argparse
import json
import resource
import sys
import time

import pandas as pd


def load(crowd, truth, limit):
    df = pd.read_csv(crowd, sep=r"\s+", header=None, names=["task", "worker", "label"],
                     nrows=limit, engine="c")
    gt = pd.read_csv(truth, sep=r"\s+", header=None, names=["task", "label"], engine="c")
    return df, gt.set_index("task")["label"]


def make(name):
    from crowdkit import aggregation as agg
    table = {
        "wawa": agg.Wawa,
        "zbs": agg.ZeroBasedSkill,
        "ds": agg.DawidSkene,
        "one-coin-ds": agg.OneCoinDawidSkene,
        "mace": agg.MACE,
        "glad": agg.GLAD,
        "m-msr": agg.MMSR,
        "mv": agg.MajorityVote,
    }
    return table[name]()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crowd", required=True)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--methods", default="wawa,zbs,ds,one-coin-ds,mace,glad,m-msr")
    ap.add_argument("--limit-labels", type=int, default=None,
                    help="read only the first N label lines (a prefix of the file)")
    ap.add_argument("--crowdspec", action="store_true",
                    help="time crowdspec's fit_labels (threads=1) instead of crowd-kit")
    args = ap.parse_args()
    if args.crowdspec:
        return run_crowdspec(args)

    import crowdkit
    df, truth = load(args.crowd, args.truth, args.limit_labels)
    print(json.dumps({"crowdkit": crowdkit.__version__, "labels": len(df),
                      "items": int(df["task"].nunique()),
                      "workers": int(df["worker"].nunique())}), flush=True)
    for name in args.methods.split(","):
        model = make(name)
        c0, w0 = time.process_time(), time.perf_counter()
        rec = {"method": name}
        try:
            pred = model.fit_predict(df)
            rec["cpu_s"] = round(time.process_time() - c0, 3)
            rec["wall_s"] = round(time.perf_counter() - w0, 3)
            common = pred.index.intersection(truth.index)
            wrong = (pred.loc[common].values != truth.loc[common].values).sum()
            rec["error_pct"] = round(100.0 * wrong / len(common), 3)
            rec["items_scored"] = int(len(common))
        except BaseException as exc:  # MemoryError, KeyboardInterrupt: still report
            rec["cpu_s"] = round(time.process_time() - c0, 3)
            rec["wall_s"] = round(time.perf_counter() - w0, 3)
            rec["failed"] = f"{type(exc).__name__}: {exc}"[:300]
            if isinstance(exc, KeyboardInterrupt):
                print(json.dumps(rec), flush=True)
                sys.exit(130)
        rec["maxrss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        print(json.dumps(rec), flush=True)


def run_crowdspec(args):
    import os
    import numpy as np
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "bindings", "python"))
    import crowdspec
    df, truth = load(args.crowd, args.truth, args.limit_labels)
    tasks, item = np.unique(df["task"].to_numpy(), return_inverse=True)
    _, worker = np.unique(df["worker"].to_numpy(), return_inverse=True)
    classes, label = np.unique(df["label"].to_numpy(), return_inverse=True)
    item, worker, label = (a.astype(np.int32) for a in (item, worker, label))
    print(json.dumps({"crowdspec": crowdspec.version(), "labels": len(df),
                      "items": len(tasks), "workers": int(worker.max()) + 1}), flush=True)
    known = truth.reindex(tasks)
    scored = known.notna().to_numpy()
    for name in args.methods.split(","):
        c0, w0 = time.process_time(), time.perf_counter()
        result = crowdspec.fit_labels(item, worker, label, method=name, threads=1, warn=False)
        rec = {"method": name, "cpu_s": round(time.process_time() - c0, 4),
               "wall_s": round(time.perf_counter() - w0, 4)}
        pred = classes[np.asarray(result.labels)]
        wrong = (pred[scored] != known.to_numpy()[scored]).sum()
        rec["error_pct"] = round(100.0 * wrong / scored.sum(), 3)
        rec["maxrss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
