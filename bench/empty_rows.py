#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What item rows without labels cost a fit (bench/README.md, "Item rows without labels").

One simulated crowd (10^6 items, 10 labels an item from 2,000 workers by default, worker accuracy
uniform in [0.55, 0.9], seed 1; a worker drawn twice for an item keeps its first label)
of which a share of the labels is kept at random (3 %: 3*10^5 labels on about 26 % of
the items), fitted three ways with the same labels:

  compact    the labelled items numbered 0, 1, ... (no empty rows);
  tail       the same numbering with n_items = 10^6 (the empty rows at the end, as rows
             reserved by CS_PARAM_ITEMS for a stream's future items);
  scattered  the original item ids with n_items = 10^6 (empty rows among the labelled).

The posteriors of the labelled items are the same in the three layouts up to the EM
path (the empty items' posterior is the prior); the point is the CPU time. Prints one
line per layout and repetition: CPU seconds of the fit (process time, one thread),
iterations; with --save DIR, the tail and scattered fits' posteriors as .npy files (to
compare two builds bit for bit).

Usage (the library under test by CROWDSPEC_LIBRARY):
  CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python \\
      OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/empty_rows.py --k 3 --reps 3
"""
import argparse
import ctypes
import os
import time

import numpy as np

import crowdspec


def simulate(k, share, n_workers=2000, seed=1):
    rng = np.random.default_rng(seed)
    n_items, per = 10**6, 10
    truth = rng.integers(0, k, n_items)
    accuracy = rng.uniform(0.55, 0.9, n_workers)
    item = np.repeat(np.arange(n_items), per)
    worker = rng.integers(0, n_workers, item.size)
    right = rng.random(item.size) < accuracy[worker]
    label = np.where(right, truth[item], (truth[item] + rng.integers(1, k, item.size)) % k)
    keep = rng.random(item.size) < share
    return n_items, item[keep].astype(np.int32), worker[keep].astype(np.int32), label[keep].astype(np.int32)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--share", type=float, default=0.03, help="share of the 10^7 labels kept")
    parser.add_argument("--workers", type=int, default=2000,
                        help="workers (above 7,281 at k = 3 and 2,621 at k = 5 the E-step goes item by item)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--method", default="auto")
    parser.add_argument("--save", default="", help="directory for the posteriors (.npy)")
    args = parser.parse_args()
    n_items, item, worker, label = simulate(args.k, args.share, args.workers)
    _, compact = np.unique(item, return_inverse=True)
    compact = compact.astype(np.int32)
    layouts = [("compact", compact, {}), ("tail", compact, {"items": n_items}),
               ("scattered", item, {"items": n_items})]
    print("labels %d, labelled items %d of %d rows, k = %d, %d workers, method %s"
          % (item.size, int(compact.max()) + 1, n_items, args.k, args.workers, args.method))
    for rep in range(args.reps):
        for name, items, extra in layouts:
            model = crowdspec.Model()
            start = time.process_time()
            model.fit(items, worker, label, method=args.method, threads=1, duplicates="first", **extra)
            seconds = time.process_time() - start
            iterations = ctypes.c_int32(0)
            crowdspec._lib.lib().cs_iterations(model._m, ctypes.byref(iterations))
            print("%-9s rep %d: %.3f CPU s, %d iterations" % (name, rep + 1, seconds, iterations.value))
            if args.save and name != "compact" and rep == 0:
                np.save(os.path.join(args.save, "%s_k%d.npy" % (name, args.k)), model.posteriors)


if __name__ == "__main__":
    main()
