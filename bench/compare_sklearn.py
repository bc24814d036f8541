#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Time crowdspec's points fit against scikit-learn's KMeans on the same data.

The mixture (k centres at pairwise distance delta, unit spherical noise) is written
once by bench_points --save and read by both sides, so both cluster exactly the same
points. Both run single-threaded: OMP_NUM_THREADS=1 and OPENBLAS_NUM_THREADS=1 for
scikit-learn (set before numpy loads) and for bench_points (which also gets
--threads 1). scikit-learn runs KMeans(n_clusters=k, n_init=1) with its defaults
(k-means++ init, Lloyd, tol 1e-4; --sklearn-n-init changes the restarts); crowdspec runs
the given methods. Each side is
timed --reps times and the best time is kept (the machine may be shared). One JSON
line per crowdspec method, with ratio = crowdspec seconds / scikit-learn seconds.

scikit-learn is Debian's python3-sklearn (apt-get install python3-sklearn). When the
running interpreter lacks it, the script re-runs itself with /usr/bin/python3 if that
one has it; otherwise it says so and exits with status 0 after printing a JSON line
{"sklearn": "not installed", ...}.

Example (from the project root, after cmake -DCS_BUILD_BENCH=ON and a build):
  bench/compare_sklearn.py --build build --n 1000000 --d 20 --k 10 --reps 3
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# Single-threaded numerics on both sides, before numpy is imported.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"


def have_sklearn():
    try:
        import sklearn  # noqa: F401
        import numpy  # noqa: F401
        return True
    except ImportError:
        return False


def misclustering(pred, truth, k):
    """Mis-clustering rate: min over permutations (Hungarian, scipy)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment
    table = np.zeros((k, k), dtype=np.int64)
    np.add.at(table, (pred, truth), 1)
    rows, cols = linear_sum_assignment(-table)
    return 1.0 - table[rows, cols].sum() / len(truth)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build directory with bench/bench_points")
    parser.add_argument("--n", type=int, default=1000000)
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--delta", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--methods", default="lloyd", help="crowdspec methods, comma-separated")
    parser.add_argument("--sklearn-n-init", type=int, default=1,
                        help="KMeans n_init (default 1, the speed comparison; 10 = its k-means++ with restarts)")
    parser.add_argument("--n-init", type=int, default=1, help="crowdspec n_init (CS_PARAM_N_INIT)")
    parser.add_argument("--workdir", default=None, help="where to write the data (default: a temp dir)")
    args = parser.parse_args()

    if not have_sklearn():
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            probe = subprocess.run([system, "-c", "import sklearn, numpy, scipy"], capture_output=True)
            if probe.returncode == 0:
                os.execv(system, [system] + sys.argv)
        print("compare_sklearn.py: scikit-learn is not installed (Debian: apt-get install python3-sklearn);"
              " nothing compared", file=sys.stderr)
        print(json.dumps({"bench": "compare-sklearn", "sklearn": "not installed"}))
        return 0

    import numpy as np
    import sklearn
    from sklearn.cluster import KMeans
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        threadpool_limits = None

    bench = os.path.join(args.build, "bench", "bench_points")
    if not os.path.exists(bench):
        print(f"compare_sklearn.py: {bench} not found (configure with -DCS_BUILD_BENCH=ON and build)",
              file=sys.stderr)
        return 2
    workdir = args.workdir or tempfile.mkdtemp(prefix="cs-compare-")
    prefix = os.path.join(workdir, f"mixture-n{args.n}-d{args.d}-k{args.k}-s{args.seed}")
    spec = ["--n", str(args.n), "--d", str(args.d), "--k", str(args.k), "--delta", str(args.delta),
            "--seed", str(args.seed)]
    subprocess.run([bench] + spec + ["--save", prefix], check=True, capture_output=True)
    x = np.fromfile(prefix + ".x.f64", dtype=np.float64).reshape(args.n, args.d)
    truth = np.fromfile(prefix + ".truth.i32", dtype=np.int32)
    oracle = np.fromfile(prefix + ".oracle.i32", dtype=np.int32)

    # scikit-learn, single thread.
    times, model = [], None
    for rep in range(args.reps):
        km = KMeans(n_clusters=args.k, n_init=args.sklearn_n_init, random_state=args.seed + rep)
        start = time.perf_counter()
        if threadpool_limits is not None:
            with threadpool_limits(limits=1):
                km.fit(x)
        else:
            km.fit(x)
        times.append(time.perf_counter() - start)
        if model is None or times[-1] <= min(times):
            model = km
    sk_seconds = min(times)
    sk_error = misclustering(model.labels_, truth, args.k)
    oracle_error = misclustering(oracle, truth, args.k)

    # crowdspec on the same file, single thread.
    out = subprocess.run([bench, "--load", prefix, "--threads", "1", "--reps", str(args.reps),
                          "--methods", args.methods, "--seed", str(args.seed), "--n-init", str(args.n_init)],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        ours = json.loads(line)
        print(json.dumps({
            "bench": "compare-sklearn",
            "n": args.n, "d": args.d, "k": args.k, "delta": args.delta, "seed": args.seed,
            "method": ours["method"],
            "seconds": ours["seconds"], "seconds_all": ours["seconds_all"],
            "error_rate": ours["error_rate"], "iterations": ours["iterations"],
            "n_init": args.n_init, "sklearn_n_init": args.sklearn_n_init,
            "sklearn_version": sklearn.__version__,
            "sklearn_seconds": round(sk_seconds, 4), "sklearn_seconds_all": [round(t, 4) for t in times],
            "sklearn_error_rate": round(sk_error, 6), "sklearn_iterations": int(model.n_iter_),
            "oracle_error_rate": round(oracle_error, 6),
            "ratio": round(ours["seconds"] / sk_seconds, 4),
            "threads": 1,
            "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE", "(detected)"),
        }))
    if args.workdir is None:
        for suffix in (".x.f64", ".truth.i32", ".oracle.i32", ".meta"):
            os.remove(prefix + suffix)
        os.rmdir(workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
