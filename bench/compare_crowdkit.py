#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Time crowdspec against crowd-kit on the same files, in one run, interleaved.

Both libraries read the same string-id CSV (task,worker,label; ids like task-0000001,
annotator-0042 and labels cat/dog/bird), made once from `crowdspec simulate` and kept
in --work. For every size, each comparison runs --reps times (>= 3), the two sides
alternating, and one JSON line reports the best and median wall seconds of each side,
their CPU seconds (meaningful on a shared machine) and the speedup = crowd-kit seconds
/ crowdspec seconds (best against best, and in CPU time).

Comparisons:
  default   each library's default aggregation, what a user runs first: crowd-kit's
            DawidSkene() (n_iter 100, tol 1e-5) against crowdspec.Auto() (the method
            `auto`, the library's default, calibrated), both .fit(df) on the same
            DataFrame of integer ids from `crowdspec simulate` (bench_crowd's crowd: 1,000
            workers, 10 labels per item, the default worker mix, seed 1), for every size of
            --sizes and every k of --classes. Interleaved repetitions; one JSON line per
            (size, k) with each repetition's CPU and wall seconds and its ratio, their
            medians, both libraries' error rates against the simulated truth and their
            EM rounds. A 10^7-label crowd-kit fit takes minutes a repetition.
  rounds    (only with --only rounds) the default comparison's crowds, both sides'
            Dawid-Skene with exactly --ds-iter rounds (tol 0): crowd-kit's
            DawidSkene(n_iter, tol=0) against crowdspec.DawidSkene(n_iter, tol=0) with the
            library's defaults (calibrated posteriors; --param calibration=none to leave
            the calibration out), for every size and k
  fit       the DataFrame already in memory: crowdspec's Python package (the ctypes
            binding, bindings/python) against crowd-kit, for DawidSkene (--ds-iter
            rounds, tol 0 on both sides: exactly that many rounds) and MajorityVote;
            GLAD and MACE on the small file (--small-labels) with crowd-kit's
            defaults, when --small-methods names them
  end2end   what a user runs: pandas.read_csv + crowd-kit DawidSkene().fit_predict +
            Series.to_csv against the `crowdspec fit --method ds` command on the file
            (it also writes every posterior), both with --ds-iter rounds

crowd-kit is not part of this project: whoever runs this installs it (bench/README.md,
"crowdspec against crowd-kit"). Run the script with the interpreter that has it, e.g.
  /tmp/ckvenv/bin/python bench/compare_crowdkit.py --build build --labels 1e6,1e7
  /tmp/ckvenv/bin/python bench/compare_crowdkit.py --build build --quick
  /tmp/ckvenv/bin/python bench/compare_crowdkit.py --build build --only default --sizes 1e6,1e7 --classes 2,5
Without crowd-kit it prints {"crowdkit": "not installed", ...} and exits with status 0.
This is a benchmark to run by hand, never a ctest test (a 10^7-label run of crowd-kit
takes minutes).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn):
    """(wall seconds, CPU seconds of this process and its children, result)."""
    c0, k0, w0 = time.process_time(), child_cpu(), time.perf_counter()
    out = fn()
    return time.perf_counter() - w0, time.process_time() - c0 + child_cpu() - k0, out


def make_csv(cli, labels, work, seed=1):
    """The string-id CSV with `labels` rows (5 labels per item, 3 classes)."""
    path = os.path.join(work, "crowd_%d.csv" % labels)
    if os.path.exists(path):
        return path
    items = max(labels // 5, 1)
    workers = min(max(items // 500, 20), 2000)
    sim = os.path.join(work, "sim_%d.txt" % labels)
    subprocess.run([cli, "simulate", "--items", str(items), "--workers", str(workers), "--labels-per-item",
                    str(min(5, workers)), "--classes", "3", "--seed", str(seed), "--labels", sim, "--quiet"],
                   check=True)
    names = {"1": "cat", "2": "dog", "3": "bird"}
    tmp = path + ".part"
    with open(sim) as src, open(tmp, "w") as dst:
        dst.write("task,worker,label\n")
        batch = []
        for line in src:
            i, w, lab = line.split()
            batch.append("task-%07d,annotator-%04d,%s\n" % (int(i), int(w), names[lab]))
            if len(batch) >= 100000:
                dst.write("".join(batch))
                batch = []
        dst.write("".join(batch))
    os.replace(tmp, path)
    os.remove(sim)
    return path


def compare(record, sides, reps):
    """Runs the sides (name -> function) alternately `reps` times; prints one JSON line."""
    walls = {name: [] for name in sides}
    cpus = {name: [] for name in sides}
    for _ in range(reps):
        for name, fn in sides.items():
            w, c, _ = timed(fn)
            walls[name].append(w)
            cpus[name].append(c)
            # Progress on stderr: a 10^7-label crowd-kit run takes minutes a repetition.
            print("compare_crowdkit: %s %s %s labels: %.3f s (%.3f s CPU)"
                  % (record["compare"], record["method"], record.get("labels"), w, c), file=sys.stderr, flush=True)
    for name in sides:
        record[name + "_s"] = round(min(walls[name]), 4)
        record[name + "_median_s"] = round(statistics.median(walls[name]), 4)
        record[name + "_cpu_s"] = round(min(cpus[name]), 4)
    ck, cs = record["crowdkit_s"], record["crowdspec_s"]
    record["speedup"] = round(ck / cs, 1) if cs > 0 else None
    record["speedup_cpu"] = round(record["crowdkit_cpu_s"] / record["crowdspec_cpu_s"], 1) \
        if record["crowdspec_cpu_s"] > 0 else None
    record["reps"] = reps
    print(json.dumps(record), flush=True)


def compare_default(cli, labels, k, work, reps, extra, common, rounds=None):
    """crowd-kit's DawidSkene() against crowdspec.Auto() on one simulated crowd; with
    rounds, both sides' Dawid-Skene run exactly that many rounds (tol 0) instead."""
    import numpy as np
    import pandas as pd
    import crowdkit.aggregation as ck
    import crowdspec as cs
    items = max(labels // 10, 1)
    sim = os.path.join(work, "default_%d_k%d.txt" % (labels, k))
    truth_path = sim + ".truth"
    if not os.path.exists(truth_path):
        subprocess.run([cli, "simulate", "--items", str(items), "--workers", "1000", "--labels-per-item", "10",
                        "--classes", str(k), "--seed", "1", "--labels", sim, "--truth", truth_path, "--quiet"],
                       check=True)
    df = pd.read_csv(sim, sep=" ", header=None, names=["task", "worker", "label"], dtype=np.int32)
    truth = pd.read_csv(truth_path, sep=" ", header=None, names=["task", "label"], index_col=0)["label"]
    if rounds is None:
        sides = {"crowdkit": lambda: ck.DawidSkene(), "crowdspec": lambda: cs.Auto(**extra)}
    else:
        sides = {"crowdkit": lambda: ck.DawidSkene(n_iter=rounds, tol=0.0),
                 "crowdspec": lambda: cs.DawidSkene(n_iter=rounds, tol=0.0, **extra)}
    runs = {name: {"cpu": [], "wall": []} for name in sides}
    fitted = {}
    for rep in range(reps):
        for name, make in sides.items():
            model = make()
            w, c, _ = timed(lambda: model.fit(df))
            runs[name]["cpu"].append(c)
            runs[name]["wall"].append(w)
            fitted[name] = model
            print("compare_crowdkit: %s %s %d labels k=%d rep %d: %.3f s (%.3f s CPU)"
                  % ("default" if rounds is None else "rounds", name, labels, k, rep, w, c),
                  file=sys.stderr, flush=True)
    if rounds is None:
        record = dict(common, compare="default", labels=int(len(df)), k=k, reps=reps,
                      crowdkit_method="DawidSkene()", crowdspec_method="Auto() (method auto)")
    else:
        record = dict(common, compare="rounds", labels=int(len(df)), k=k, reps=reps,
                      crowdkit_method="DawidSkene(n_iter=%d, tol=0)" % rounds,
                      crowdspec_method="DawidSkene(n_iter=%d, tol=0, %s)"
                      % (rounds, ", ".join("%s=%s" % kv for kv in extra.items()) or "library defaults"))
    for name in sides:
        record[name + "_cpu_s"] = [round(x, 4) for x in runs[name]["cpu"]]
        record[name + "_wall_s"] = [round(x, 4) for x in runs[name]["wall"]]
        record[name + "_median_cpu_s"] = round(statistics.median(runs[name]["cpu"]), 4)
        record[name + "_median_wall_s"] = round(statistics.median(runs[name]["wall"]), 4)
        labels_ = fitted[name].labels_.reindex(truth.index)
        record[name + "_error"] = round(float((labels_ != truth).mean()), 6)
    record["crowdkit_rounds"] = len(fitted["crowdkit"].loss_history_)
    record["crowdspec_rounds"] = int(fitted["crowdspec"].n_iter_)
    for unit in ("cpu", "wall"):
        ratios = [a / b if b > 0 else None for a, b in zip(runs["crowdkit"][unit], runs["crowdspec"][unit])]
        record["ratio_" + unit] = [round(r, 1) for r in ratios]
        record["median_ratio_" + unit] = round(statistics.median(ratios), 1)
    record["load_average_end"] = round(os.getloadavg()[0], 1)
    print(json.dumps(record), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build directory (tools/crowdspec, src/libcrowdspec.so.0)")
    parser.add_argument("--labels", "--sizes", dest="labels", default="1e6,1e7",
                        help="sizes (labels), comma-separated")
    parser.add_argument("--classes", default="2,5", help="k of the default comparison, comma-separated")
    parser.add_argument("--only", default="", help="run only these comparisons: default, rounds, fit, end2end")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a crowdspec parameter for the default and rounds comparisons (e.g. "
                        "calibration=none); repeatable")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of every comparison (at least 3)")
    parser.add_argument("--ds-iter", type=int, default=10, help="Dawid-Skene rounds on both sides")
    parser.add_argument("--small-labels", type=float, default=5000, help="size of the file for GLAD and MACE")
    parser.add_argument("--small-methods", default="glad,mace", help="crowd-kit methods timed on the small file")
    parser.add_argument("--skip", default="", help="comparisons to leave out: default, rounds, fit, end2end "
                        "(comma-separated; rounds runs only when --only names it)")
    parser.add_argument("--threads", type=int, default=None, help="crowdspec's threads (default: its own)")
    parser.add_argument("--work", default="/tmp/crowdspec-vs-crowdkit", help="where the CSV files are kept")
    parser.add_argument("--quick", action="store_true", help="small sizes only (1e4,1e5; a 500-label small file)")
    args = parser.parse_args()
    if args.quick:
        args.labels, args.small_labels = "1e4,1e5", 500
    args.reps = max(args.reps, 3)
    build = os.path.abspath(args.build)
    cli = os.path.join(build, "tools", "crowdspec")
    lib = os.path.join(build, "src", "libcrowdspec.so.0")
    for need in (cli, lib):
        if not os.path.exists(need):
            sys.exit("compare_crowdkit: %s not found: build the project first (see README.md)" % need)
    os.environ.setdefault("CROWDSPEC_LIBRARY", lib)
    sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))
    try:
        import pandas as pd
        import crowdkit.aggregation as ck
        from importlib.metadata import version, PackageNotFoundError
        try:
            ck_version = version("crowd-kit")
        except PackageNotFoundError:  # a source checkout on PYTHONPATH
            ck_version = getattr(__import__("crowdkit"), "__version__", "source checkout")
    except ImportError as e:
        print(json.dumps({"crowdkit": "not installed", "python": sys.executable, "error": str(e),
                          "hint": "see bench/README.md, section 'crowdspec against crowd-kit'"}))
        return 0
    import crowdspec as cs

    os.makedirs(args.work, exist_ok=True)
    skip = set(filter(None, args.skip.split(",")))
    only = set(filter(None, args.only.split(",")))
    skip |= {"rounds"} - only  # only on request: minutes at 10^7 labels
    if only:
        skip |= {"default", "rounds", "fit", "end2end"} - only
    extra = {} if args.threads is None else {"threads": args.threads}
    for assignment in args.param:
        name, _, value = assignment.partition("=")
        extra[name] = value
    cli_threads = [] if args.threads is None else ["--threads", str(args.threads)]
    common = {"crowdkit_version": ck_version, "crowdspec_version": cs.version() if hasattr(cs, "version") else None,
              "machine_cores": os.cpu_count(), "load_average": round(os.getloadavg()[0], 1)}
    n_iter = args.ds_iter

    sizes = [int(float(s)) for s in args.labels.split(",") if s]
    if "default" not in skip:
        for labels in sizes:
            for k in [int(x) for x in args.classes.split(",") if x]:
                compare_default(cli, labels, k, args.work, args.reps, extra, common)
    if "rounds" not in skip:
        for labels in sizes:
            for k in [int(x) for x in args.classes.split(",") if x]:
                compare_default(cli, labels, k, args.work, args.reps, extra, common, rounds=n_iter)
    for labels in sizes if {"fit", "end2end"} - skip else []:
        path = make_csv(cli, labels, args.work)
        size = os.path.getsize(path)
        base = dict(common, labels=labels, file_bytes=size)
        if "fit" not in skip:
            df = pd.read_csv(path)
            compare(dict(base, compare="fit", method="ds", rounds=n_iter), {
                "crowdkit": lambda: ck.DawidSkene(n_iter=n_iter, tol=0.0).fit(df),
                "crowdspec": lambda: cs.DawidSkene(n_iter=n_iter, tol=0.0, **extra).fit(df),
            }, args.reps)
            compare(dict(base, compare="fit", method="mv"), {
                "crowdkit": lambda: ck.MajorityVote().fit(df),
                "crowdspec": lambda: cs.MajorityVote(**extra).fit(df),
            }, args.reps)
            del df
        if "end2end" not in skip:
            out_ck = os.path.join(args.work, "labels_crowdkit.csv")
            out_cs = os.path.join(args.work, "labels_crowdspec.csv")

            def crowdkit_e2e():
                frame = pd.read_csv(path)
                ck.DawidSkene(n_iter=n_iter, tol=0.0).fit_predict(frame).to_csv(out_ck)

            def crowdspec_e2e():
                subprocess.run([cli, "fit", "--method", "ds", "--max-iter", str(n_iter), "--tol", "0", "--quiet",
                                *cli_threads, "--output", out_cs, path], check=True)

            compare(dict(base, compare="end2end", method="ds", rounds=n_iter),
                    {"crowdkit": crowdkit_e2e, "crowdspec": crowdspec_e2e}, args.reps)
            # Both agree on the labels (ids and label strings, item by item).
            a = pd.read_csv(out_ck, index_col=0).iloc[:, 0]
            b = pd.read_csv(out_cs, index_col=0)["label"]
            agree = float((a.reindex(b.index) == b).mean())
            print(json.dumps(dict(base, compare="end2end_agreement", method="ds", fraction_same_label=agree)),
                  flush=True)

    small = [m for m in args.small_methods.split(",") if m]
    if small and "fit" not in skip:
        n = int(args.small_labels)
        path = make_csv(cli, n, args.work, seed=2)
        df = pd.read_csv(path)
        classes = {"glad": (ck.GLAD, cs.GLAD), "mace": (ck.MACE, cs.MACE), "wawa": (ck.Wawa, cs.Wawa),
                   "zbs": (ck.ZeroBasedSkill, cs.ZeroBasedSkill)}
        for m in small:
            if m not in classes:
                sys.exit("compare_crowdkit: --small-methods: unknown method %r (glad, mace, wawa, zbs)" % m)
            ck_cls, cs_cls = classes[m]
            compare(dict(common, labels=n, file_bytes=os.path.getsize(path), compare="fit", method=m,
                         settings="each library's defaults"), {
                "crowdkit": lambda: ck_cls().fit(df),
                "crowdspec": lambda: cs_cls(**extra).fit(df),
            }, args.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
