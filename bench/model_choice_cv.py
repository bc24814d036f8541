#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Choosing the crowd model by the cross-validated likelihood of held-out labels, measured
on the shared and development crowds (issue 33 names it as a direction for the default;
docs/defaults.md, `method`, gives the result).

The labels of each crowd are split into --folds folds at random (seed 0). For each fold
every candidate model is fitted on the other folds (posteriors as EM leaves them,
calibration = none) and each held-out label (i, w, c) is scored by its predictive
probability under that fit,

    p(c | the other labels) = sum_l q_i(l) pi_w[l][c],

q_i the item's posterior from the training labels (the held-out label is not among them)
and pi_w the worker's fitted confusion row. A worker with no training label (a one-label
worker whose label is held out) gets the model's typical worker: its workers' matrices
averaged with their training label counts as weights, for every model alike. The model
with the highest mean log predictive is the crowd's choice; it is then fitted on all
labels with the library's defaults, and its error compared with auto's and with the
better of majority vote and crowd-kit's DawidSkene (the issue's per-set criterion).

Candidates: auto, ds, one-coin-ds, class-one-coin-ds, and "shared-coin" (every worker the
same one-coin accuracy, fitted by EM here; its labels are the majority vote's, ties
aside), which stands for majority vote: a likelihood needs a worker model.

A benchmark to run by hand (a minute or two), not a test.

Usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python \\
         /usr/bin/python3 bench/model_choice_cv.py [--folds 5] [--data ../shared]
"""

import argparse
import os
import sys

import numpy as np

import crowdspec
from accuracy_table import SETS, crowd_kit_errors, set_paths
from crowd_sets import load

CANDIDATES = ["auto", "ds", "one-coin-ds", "class-one-coin-ds", "shared-coin"]


def shared_coin(item, worker, label, n, m, k, rounds=50):
    """One accuracy a for every worker, a class prior rho, fitted by EM: q_i(l) is
    proportional to rho_l a^{v_il} ((1 - a) / (k - 1))^{n_i - v_il}, v_il the votes for l."""
    votes = np.zeros((n, k))
    np.add.at(votes, (item, label), 1.0)
    total = votes.sum(axis=1, keepdims=True)
    a, rho = 0.7, np.full(k, 1.0 / k)
    for _ in range(rounds):
        log_q = np.log(rho)[None, :] + votes * np.log(a) + (total - votes) * np.log((1 - a) / (k - 1))
        q = np.exp(log_q - log_q.max(axis=1, keepdims=True))
        q /= q.sum(axis=1, keepdims=True)
        hits = (q * votes).sum()
        a = min(max((hits + 1.0) / (total.sum() + 2.0), 1e-3), 1 - 1e-3)
        rho = (q.sum(axis=0) + 1.0) / (n + k)
    pi = np.full((k, k), (1 - a) / (k - 1))
    np.fill_diagonal(pi, a)
    return q, np.broadcast_to(pi, (m, k, k))


def fit_model(name, item, worker, label, n, m, k, **params):
    """(posteriors (n, k), confusion (m, k, k)) of one candidate on these labels."""
    if name == "shared-coin":
        return shared_coin(item, worker, label, n, m, k)
    r = crowdspec.fit_labels(item, worker, label, name, n_items=n, n_workers=m, n_classes=k, warn=False,
                             **params)
    return r.posteriors, r.confusion


def held_out_score(name, item, worker, label, n, m, k, folds, rng):
    """Mean log predictive probability of every label when its fold is held out."""
    fold = rng.integers(0, folds, size=item.size)
    total = 0.0
    for f in range(folds):
        train, test = fold != f, fold == f
        q, pi = fit_model(name, item[train], worker[train], label[train], n, m, k, calibration="none")
        counts = np.bincount(worker[train], minlength=m).astype(float)
        typical = np.tensordot(counts, pi, axes=(0, 0)) / counts.sum()
        pi = np.array(pi)
        pi[counts == 0] = typical
        ti, tw, tc = item[test], worker[test], label[test]
        p = np.einsum("tl,tl->t", q[ti], pi[tw, :, tc])
        total += np.log(np.maximum(p, 1e-12)).sum()
    return total / item.size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--data", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
    args = ap.parse_args()
    ck = crowd_kit_errors(args.data)
    print("%-11s %s | choice   error  auto   lost(choice) lost(auto)" % ("set", " ".join("%9s" % c[:9] for c in CANDIDATES)))
    errors_choice, errors_auto, lost_choice, lost_auto = [], [], 0, 0
    for name in SETS:
        crowd, _ = set_paths(args.data, name)
        if crowd is None:
            print("skipped: %s not found under %s" % (name, args.data), file=sys.stderr)
            continue
        item, worker, label, truth_items, truth_labels = load(crowd)
        truth_items, first = np.unique(truth_items, return_index=True)  # dog's truth repeats lines
        truth_labels = truth_labels[first]
        n, m = int(item.max()) + 1, int(worker.max()) + 1
        k = int(max(label.max(), truth_labels.max())) + 1
        scores = [held_out_score(c, item, worker, label, n, m, k, args.folds, np.random.default_rng(0))
                  for c in CANDIDATES]
        choice = CANDIDATES[int(np.argmax(scores))]

        def error(method):
            q, _ = fit_model(method, item, worker, label, n, m, k)
            return float(np.mean(q[truth_items].argmax(axis=1) != truth_labels))

        e_choice, e_auto = error(choice), error("auto")
        best_ref = min(ck[name].get("MV", 100.0), ck[name].get("DS", 100.0)) / 100.0
        lc = int(round((e_choice - best_ref) * truth_items.size))
        la = int(round((e_auto - best_ref) * truth_items.size))
        lost_choice += lc > 1
        lost_auto += la > 1
        errors_choice.append(e_choice)
        errors_auto.append(e_auto)
        print("%-11s %s | %-9s %5.2f  %5.2f  %+4d %+4d" % (name, " ".join("%9.5f" % s for s in scores), choice,
                                                       100 * e_choice, 100 * e_auto, lc, la), flush=True)
    print("mean error: CV choice %.2f %%, auto %.2f %%; sets lost by > 1 item: choice %d, auto %d"
          % (100 * np.mean(errors_choice), 100 * np.mean(errors_auto), lost_choice, lost_auto))


if __name__ == "__main__":
    main()
