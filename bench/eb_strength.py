#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An empirical-Bayes strength for `auto`'s prior, measured on the shared and development
sets (issue 33 names it as a direction; docs/defaults.md, `smoothing_center = strata`,
gives the result and why s = k stays).

auto puts a Dirichlet prior on each worker's confusion row l, centred on the worker's
activity stratum: alpha_w[l] = s k rho_l C_g(w)[l] (src/priors/pooled_prior.hpp). Here
s is chosen from the crowd alone by the Dirichlet-multinomial marginal likelihood of the
workers' soft count rows n_w[l][c] = sum over w's labels c of the posterior of class l:

    log p(n | s) = sum_w sum_l [ lgamma(A_wl) - lgamma(A_wl + N_wl)
                                 + sum_c lgamma(alpha_wlc + n_wlc) - lgamma(alpha_wlc) ]

(A_wl = sum_c alpha_wlc, N_wl = sum_c n_wlc; the multinomial coefficient does not
depend on s), maximised over log s in [log 0.01, log 10^4]. Rounds: fit auto (s = k),
take its posteriors, choose s, refit with smoothing_strength = s; repeated --rounds times.
A worker with one label says nothing about s (a one-draw Dirichlet-multinomial is the
centre whatever s is), so s is decided by the workers with two labels or more.

Prints, per set, auto's error and ECE with s = k and with the chosen s, and the items
won or lost. A benchmark to run by hand (about a minute), not a test.

Usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python \\
         /usr/bin/python3 bench/eb_strength.py [--rounds 2] [DIR ...]
Needs scipy (Debian's python3-scipy) for lgamma over arrays and the 1-D search.
"""

import argparse
import os

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import gammaln

import crowdspec
from crowd_sets import DEFAULT_DIRS, crowd_paths, ece, load


def ece_and_error(posteriors, truth_items, truth_labels):
    """ECE and error on the items with truth."""
    p = posteriors[truth_items]
    return ece(posteriors, truth_items, truth_labels), 1.0 - np.mean(p.argmax(axis=1) == truth_labels)


def soft_counts_and_centres(item, worker, label, q, m, k):
    """n_w (m, k true, k observed), each worker's stratum centre C_g(w) (rows sum to 1),
    the class prior rho: the quantities of pooled_prior.cpp's strata_pseudo_counts."""
    counts = np.zeros((m, k, k))
    for true_class in range(k):
        np.add.at(counts[:, true_class, :], (worker, label), q[item, true_class])
    n_labels = np.bincount(worker, minlength=m)
    strata = np.floor(np.log2(np.maximum(n_labels, 1))).astype(int)
    pooled = counts.sum(axis=0)
    pooled /= np.maximum(pooled.sum(axis=1, keepdims=True), 1e-300)
    centres = np.stack([counts[strata == g].sum(axis=0) + k * pooled for g in range(strata.max() + 1)])
    centres /= centres.sum(axis=2, keepdims=True)
    return counts, centres[strata], q.sum(axis=0) / q.shape[0]


def negative_log_marginal(log_s, counts, centres, rho, k):
    alpha = np.maximum(np.exp(log_s) * k * rho[None, :, None] * centres, 1e-300)  # a class without mass
    total = alpha.sum(axis=2)
    return -((gammaln(total) - gammaln(total + counts.sum(axis=2))).sum()
             + (gammaln(alpha + counts) - gammaln(alpha)).sum())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="*", default=DEFAULT_DIRS)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    paths = crowd_paths(args.dirs)
    rows = []
    for path in paths:
        name = os.path.basename(path)[:-len("_crowd.txt")]
        item, worker, label, truth_items, truth_labels = load(path)
        n, m = int(item.max()) + 1, int(worker.max()) + 1
        k = int(max(label.max(), truth_labels.max())) + 1
        shape = dict(n_items=n, n_workers=m, n_classes=k, warn=False)
        fit = crowdspec.fit_labels(item, worker, label, "auto", **shape)
        base = ece_and_error(fit.posteriors, truth_items, truth_labels)
        chosen = []
        for _ in range(args.rounds):
            counts, centres, rho = soft_counts_and_centres(item, worker, label, fit.posteriors, m, k)
            best = minimize_scalar(negative_log_marginal, bounds=(np.log(1e-2), np.log(1e4)),
                                   args=(counts, centres, rho, k), method="bounded")
            chosen.append(float(np.exp(best.x)) / k)  # as a multiple of k, auto's s
            fit = crowdspec.fit_labels(item, worker, label, "auto", smoothing_strength=chosen[-1] * k,
                                       **shape)
        eb = ece_and_error(fit.posteriors, truth_items, truth_labels)
        items = int(round((eb[1] - base[1]) * truth_items.size))
        rows.append((base[1], eb[1], base[0], eb[0]))
        print("%-11s k=%-2d s = k: error %6.2f %% ECE %.3f | EB s = %s k: error %6.2f %% ECE %.3f | %+d items"
              % (name, k, 100 * base[1], base[0], ", ".join("%.2f" % c for c in chosen), 100 * eb[1], eb[0],
                 items))
    mean = np.mean(rows, axis=0)
    print("mean over %d sets: error %.2f %% -> %.2f %%, ECE %.3f -> %.3f"
          % (len(rows), 100 * mean[0], 100 * mean[1], mean[2], mean[3]))


if __name__ == "__main__":
    main()
