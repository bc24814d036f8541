#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How far one temperature can take the default's calibration on the shared and
development crowds (issue 33, docs/defaults.md `calibration`): bounds, not a method.

For each set, auto's uncalibrated posteriors q (calibration=none) are tempered,
q_T proportional to q^(1/T), and scored by ECE (10 equal-width bins of the top
posterior, items with truth) for

  held-out   the library's own T (calibration=auto: chosen from the crowd alone);
  oracle     the T in [0.5, 40] with the least ECE on the set's own truth (a bound that
             no crowd-only rule can beat with a single temperature);
  constant   one T for every crowd, chosen on the truth of the other sets (leave one
             crowd out): what a global default learnt from these crowds would give a
             new one;
  scaled     the held-out T times one constant chosen the same way.

With --gold, instead: 15 % of each set's truth items given as gold (three seeded draws,
as bench/accuracy_table.py), the ECE of auto's gold-calibrated posteriors on the other
items, and its floor -- the mean ECE (100 draws) of a perfectly calibrated model with the
same confidences on as many items, the truth drawn from the posteriors themselves: what
sampling alone costs on a set of that size.

With --unanimous, instead: per set the items with truth on which every label agrees (at
least two labels), how many of them the truth says are wrong, and the confidence auto
gives them -- what no model of the labels alone can see -- and the least calibration
error those items cost a rule that gives every unanimous item one confidence c on every
crowd: min over c of the mean over the sets of (their share of the items with truth) x
|c - their accuracy|. An illustration, not a bound on the binned ECE (a bin can pool
these items with others that err the other way).

A benchmark to run by hand (a minute or so), not a test.

Usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python \\
         /usr/bin/python3 bench/calibration_bounds.py [--gold | --unanimous] [DIR ...]
"""

import argparse
import os

import numpy as np

import crowdspec
from crowd_sets import DEFAULT_DIRS, crowd_paths, ece, load

GRID = np.exp(np.linspace(np.log(0.5), np.log(40.0), 80))


def tempered(q, temperature):
    logq = np.log(np.maximum(q, 1e-300)) / temperature
    logq -= logq.max(axis=1, keepdims=True)
    p = np.exp(logq)
    return p / p.sum(axis=1, keepdims=True)


def leave_one_out(curves, names):
    """Per set: the ECE at the grid point best for the other sets, and that point."""
    out = {}
    for name in names:
        others = sum(curves[o] for o in names if o != name)
        best = int(np.argmin(others))
        out[name] = (curves[name][best], GRID[best])
    return out


def named_crowds(paths):
    """Each crowd's name (NAME of NAME_crowd.txt) and its arrays (crowd_sets.load)."""
    for path in paths:
        yield os.path.basename(path)[:-len("_crowd.txt")], load(path)


def crowd_shape(item, worker, label, truth_items, truth_labels):
    """fit_labels's size arguments for a crowd and its truth."""
    return dict(n_items=int(max(item.max(), truth_items.max())) + 1, n_workers=int(worker.max()) + 1,
                n_classes=int(max(label.max(), truth_labels.max())) + 1, warn=False)


def gold_floor(paths, share=0.15, draws=100):
    """Per set: the non-gold ECE with `share` of the truth as gold, and its sampling floor."""
    print("| set | non-gold items | ECE | floor |")
    print("|---|---|---|---|")
    rows = []
    for name, (item, worker, label, truth_items, truth_labels) in named_crowds(paths):
        shape = crowd_shape(item, worker, label, truth_items, truth_labels)
        k = shape["n_classes"]
        real, floor = [], []
        for seed in range(3):
            rng = np.random.default_rng(seed)
            gold = rng.random(truth_items.size) < share
            fit = crowdspec.fit_labels(item, worker, label, "auto", gold_item=truth_items[gold],
                                       gold_label=truth_labels[gold], **shape)
            items, labels = truth_items[~gold], truth_labels[~gold]
            real.append(ece(fit.posteriors, items, labels))
            cumulative = fit.posteriors[items].cumsum(axis=1)
            drawn = [np.minimum((rng.random(items.size)[:, None] > cumulative).sum(axis=1), k - 1)
                     for _ in range(draws)]
            floor.append(np.mean([ece(fit.posteriors, items, d) for d in drawn]))
        rows.append((np.mean(real), np.mean(floor)))
        print("| %s | %d | %.3f | %.3f |" % (name, int((~gold).sum()), rows[-1][0], rows[-1][1]))
    print("| mean | | %.3f | %.3f |" % tuple(np.mean(rows, axis=0)))


def unanimous(paths):
    """Per set: the unanimous items with truth, their accuracy by the truth and auto's
    confidence on them; then the best single confidence for all of them."""
    print("| set | items with truth | unanimous (>= 2 labels) | wrong by the truth | auto's mean confidence on them |")
    print("|---|---|---|---|---|")
    shares = []
    for name, (item, worker, label, truth_items, truth_labels) in named_crowds(paths):
        # one truth line per item (dog's file repeats each of its 807 items ten times)
        truth_items, first = np.unique(truth_items, return_index=True)
        truth_labels = truth_labels[first]
        shape = crowd_shape(item, worker, label, truth_items, truth_labels)
        fit = crowdspec.fit_labels(item, worker, label, "auto", **shape)
        votes = np.zeros((shape["n_items"], shape["n_classes"]), dtype=np.int64)
        np.add.at(votes, (item, label), 1)
        count = votes.sum(axis=1)
        agreed = (votes.max(axis=1) == count) & (count >= 2)
        which = truth_items[agreed[truth_items]]
        right = votes[which].argmax(axis=1) == truth_labels[agreed[truth_items]]
        accuracy = right.mean() if which.size else 1.0
        confidence = fit.posteriors[which].max(axis=1).mean() if which.size else float("nan")
        shares.append((which.size / truth_items.size, accuracy))
        print("| %s | %d | %d | %.1f %% | %.3f |" % (name, truth_items.size, which.size, 100.0 * (1.0 - accuracy),
                                                    confidence))
    grid = np.linspace(0.5, 1.0, 501)
    cost = [np.mean([w * abs(c - a) for w, a in shares]) for c in grid]
    best = int(np.argmin(cost))
    print("\nOne confidence c for every unanimous item of every set: least cost %.4f at c = %.3f "
          "(c = 0.95: %.4f, c = 0.99: %.4f)" % (cost[best], grid[best], cost[450], cost[490]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="*", default=DEFAULT_DIRS)
    parser.add_argument("--gold", action="store_true", help="the gold calibration's ECE and its sampling floor")
    parser.add_argument("--unanimous", action="store_true",
                        help="the items every label agrees on: how often the truth overrules them")
    args = parser.parse_args()
    paths = crowd_paths(args.dirs)
    if args.gold:
        return gold_floor(paths)
    if args.unanimous:
        return unanimous(paths)
    sets = {}
    for name, (item, worker, label, truth_items, truth_labels) in named_crowds(paths):
        shape = crowd_shape(item, worker, label, truth_items, truth_labels)
        raw = crowdspec.fit_labels(item, worker, label, "auto", calibration="none", **shape)
        cal = crowdspec.fit_labels(item, worker, label, "auto", **shape)
        sets[name] = (raw.posteriors, truth_items, truth_labels, cal.temperature,
                      ece(cal.posteriors, truth_items, truth_labels))
    names = list(sets)
    constant = {n: np.array([ece(tempered(s[0], t), s[1], s[2]) for t in GRID]) for n, s in sets.items()}
    scaled = {n: np.array([ece(tempered(s[0], c * s[3]), s[1], s[2]) for c in GRID]) for n, s in sets.items()}
    by_constant, by_scale = leave_one_out(constant, names), leave_one_out(scaled, names)
    print("| set | held-out T | ECE | oracle T | ECE | constant T (others') | ECE | scale (others') | ECE |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for n in names:
        best = int(np.argmin(constant[n]))
        row = (sets[n][4], constant[n][best], by_constant[n][0], by_scale[n][0])
        rows.append(row)
        print("| %s | %.2f | %.3f | %.2f | %.3f | %.2f | %.3f | %.2f | %.3f |"
              % (n, sets[n][3], row[0], GRID[best], row[1], by_constant[n][1], row[2], by_scale[n][1], row[3]))
    mean = np.mean(rows, axis=0)
    print("| mean | | %.3f | | %.3f | | %.3f | | %.3f |" % tuple(mean))


if __name__ == "__main__":
    main()
