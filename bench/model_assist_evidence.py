#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Evidence for issue 34 on the shared and development sets (NAME_crowd.txt `item worker
label`, 1-based; NAME_truth.txt `item label`).

Part 1, a model added to the crowd. Per set, a simulated classifier made from the truth:
each item with a truth gets a confidence c ~ Beta with mean ACC (concentration 8); the
classifier is right with probability c (else a uniformly random wrong class) and says
p(its class) = c, the rest spread evenly ("calibrated": right as often as it says), or
the same probabilities sharpened by temperature 1/4 ("overconfident"). Error on the
truth items of: crowd only (auto), model only (its argmax), (a) the model as a
Dawid-Skene worker (auto with model_probs), crowdlab. Goal: (a) <= the better of crowd
and model + 1 item on every set, and (a) < crowdlab on average.

Also the mean ECE of (a)'s posteriors on the truth items (10 bins, as
bench/accuracy_table.py). With --gold, part 1 again with 15 % of each set's truth
items given as gold (one seeded draw) and the calibrated classifier at 70 % and 85 %:
(a)'s error and ECE on the other truth items (the calibration is then fitted on the
gold, docs/model-assist.md).

Part 2, active labelling (--active). Start from one label per item (a seeded random
one), the rest held back; each round buy BATCH labels (2 % of the crowd's labels): by
"label next" (the items of highest cs_label_next score, ties to lower confidence, one
held-back label each, drawn at random) or at random among the held-back labels. After
each round fit auto and record the error on the truth items. Goal: the score reaches
the full crowd's error with at most 60 % of the labels, on at least three sets. The
curves are drawn as SVG (--svg FILE).

Usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so PYTHONPATH=bindings/python \\
         python3 bench/model_assist_evidence.py [--gold] [--active] [--svg docs/active_labelling.svg]
         [--sets bluebird,rte] [DIR ...]
"""

import argparse
import glob
import json
import os
import sys
import time

import numpy as np

import crowdspec
from crowd_sets import ece

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIRS = [os.path.join(HERE, "..", "..", "shared", d) for d in ("datasets", "datasets-dev")]


def load(crowd_path):
    raw = np.loadtxt(crowd_path, dtype=np.int64, ndmin=2)
    item, worker, label = raw[:, 0] - 1, raw[:, 1] - 1, raw[:, 2] - 1
    k = int(label.max()) + 1
    truth_path = crowd_path.replace("_crowd.txt", "_truth.txt")
    t = np.loadtxt(truth_path, dtype=np.int64, ndmin=2)
    n = int(max(item.max(), t[:, 0].max())) + 1
    truth = np.full(n, -1)
    truth[t[:, 0] - 1] = t[:, 1] - 1
    truth[truth >= k] = -1  # a truth class nobody gave: not scored
    return item.astype(np.int32), worker.astype(np.int32), label.astype(np.int32), truth, k, n


def errors(labels, truth):
    scored = truth >= 0
    return int(np.count_nonzero(labels[scored[:len(labels)]] != truth[:len(labels)][scored[:len(labels)]]))


def simulated_model(truth, k, acc, overconfident, rng):
    """(rows, items): a classifier's probabilities for the items with a truth."""
    items = np.flatnonzero(truth >= 0)
    conc = 8.0
    c = rng.beta(acc * conc, (1 - acc) * conc, size=items.size)
    c = np.clip(c, 1.0 / k + 1e-3, 1 - 1e-3)
    right = rng.random(items.size) < c
    wrong = (truth[items] + rng.integers(1, k, size=items.size)) % k
    said = np.where(right, truth[items], wrong)
    probs = np.tile(((1 - c) / (k - 1))[:, None], (1, k))
    probs[np.arange(items.size), said] = c
    if overconfident:
        logits = np.log(probs) / 0.25
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
    return probs, items.astype(np.int32)


def fit(item, worker, label, n, k, method="auto", **kw):
    return crowdspec.fit_labels(item, worker, label, method, n_items=n, n_classes=k, threads=2,
                                warn=False, **kw)


def truth_ece(posteriors, truth, items=None):
    """ECE of the posteriors over the items with a truth (or the listed ones)."""
    items = np.flatnonzero(truth >= 0) if items is None else items
    return ece(posteriors, items, truth[items])


def part_one(sets):
    rows, eces = [], []
    print("%-12s %4s %-13s %6s %6s %6s %6s %6s   (errors in items of the truth)"
          % ("set", "acc", "model", "truth", "crowd", "model", "(a)", "crowdlab"))
    for name, (item, worker, label, truth, k, n) in sets.items():
        crowd = fit(item, worker, label, n, k).labels
        scored = int(np.count_nonzero(truth >= 0))
        for acc in (0.70, 0.85):
            for over in (False, True):
                rng = np.random.default_rng(abs(hash((name, acc, over))) % 2 ** 32 if False else
                                            [ord(ch) for ch in name] + [int(acc * 100), int(over)])
                probs, pitems = simulated_model(truth, k, acc, over, rng)
                model_labels = np.full(n, -1)
                model_labels[pitems] = probs.argmax(axis=1)
                fitted = fit(item, worker, label, n, k, model_probs=probs, model_items=pitems)
                a = fitted.labels
                eces.append(truth_ece(fitted.posteriors, truth))
                lab = fit(item, worker, label, n, k, "crowdlab", model_probs=probs, model_items=pitems).labels
                e = [errors(crowd, truth), errors(model_labels, truth), errors(a, truth), errors(lab, truth)]
                kind = "overconfident" if over else "calibrated"
                ok = e[2] <= min(e[0], e[1]) + 1
                print("%-12s %4.2f %-13s %6d %6d %6d %6d %6d   %s" % (name, acc, kind, scored, *e,
                                                                 "" if ok else "(a) > best + 1"))
                rows.append((name, acc, kind, scored, *e))
    a = np.array([r[6] / r[3] for r in rows])
    lab = np.array([r[7] / r[3] for r in rows])
    fails = [r for r in rows if r[6] > min(r[4], r[5]) + 1]
    print("\n(a) within one item of the better of crowd and model: %d of %d cases" % (len(rows) - len(fails), len(rows)))
    print("mean error rate: (a) %.4f, crowdlab %.4f; (a) better in %d, crowdlab in %d, tied %d of %d"
          % (a.mean(), lab.mean(), np.sum(a < lab), np.sum(a > lab), np.sum(a == lab), len(rows)))
    print("mean ECE of (a)'s posteriors: %.4f" % np.mean(eces))
    return rows


def part_gold(sets, share=0.15):
    """(a) with `share` of each set's truth items as gold: error and ECE on the others."""
    print("\n(a) with %.0f %% of the truth as gold (calibrated classifier), scored on the other truth items"
          % (100 * share))
    print("%-12s %4s %6s %6s %6s %7s %7s" % ("set", "acc", "scored", "(a)", "rate", "T", "ECE"))
    rates, eces = [], []
    for name, (item, worker, label, truth, k, n) in sets.items():
        scored = np.flatnonzero(truth >= 0)
        gold = np.random.default_rng(0).random(scored.size) < share
        rest = scored[~gold]
        for acc in (0.70, 0.85):
            rng = np.random.default_rng([ord(ch) for ch in name] + [int(acc * 100), 0])
            probs, pitems = simulated_model(truth, k, acc, False, rng)
            r = fit(item, worker, label, n, k, model_probs=probs, model_items=pitems,
                    gold_item=scored[gold].astype(np.int32), gold_label=truth[scored[gold]].astype(np.int32))
            wrong = int(np.count_nonzero(r.labels[rest] != truth[rest]))
            rates.append(wrong / max(1, rest.size))
            eces.append(truth_ece(r.posteriors, truth, rest))
            print("%-12s %4.2f %6d %6d %6.4f %7.2f %7.3f" % (name, acc, rest.size, wrong, rates[-1], r.temperature,
                                                           eces[-1]))
    print("mean error rate %.4f, mean ECE %.4f over %d cases" % (np.mean(rates), np.mean(eces), len(rates)))


def active(name, item, worker, label, truth, k, n, rng):
    """The error curves (labels bought, errors) of label-next and random buying."""
    total = item.size
    full = errors(fit(item, worker, label, n, k).labels, truth)
    order = rng.permutation(total)
    first = np.zeros(total, dtype=bool)
    seen = np.zeros(n, dtype=bool)
    for e in order:  # one random label per item
        if not seen[item[e]]:
            seen[item[e]] = True
            first[e] = True
    batch = max(1, int(round(0.02 * total)))
    curves = {}
    for strategy in ("label next", "random"):
        have = first.copy()
        srng = np.random.default_rng(rng.integers(2 ** 32))
        points = []
        while True:
            r = fit(item[have], worker[have], label[have], n, k)
            points.append((int(have.sum()), errors(r.labels, truth)))
            held = np.flatnonzero(~have)
            if held.size == 0 or have.sum() >= total:
                break
            if strategy == "random":
                have[srng.choice(held, size=min(batch, held.size), replace=False)] = True
                continue
            # The items of highest score that still have held-back labels.
            held_items = np.unique(item[held])
            conf = r.posteriors.max(axis=1)
            score = r.diagnostics.label_next
            key = np.lexsort((srng.random(held_items.size), conf[held_items], -score[held_items]))
            chosen = held_items[key[:batch]]
            shuffled = held[srng.permutation(held.size)]
            _, first_of = np.unique(item[shuffled], return_index=True)
            pick = dict(zip(item[shuffled][first_of].tolist(), shuffled[first_of].tolist()))
            have[[pick[j] for j in chosen.tolist()]] = True
        curves[strategy] = points
    return full, total, curves


def reach(points, target):
    """The fewest labels at which the curve is at or below target errors (None: never)."""
    for labels, e in points:
        if e <= target:
            return labels
    return None


def error_at(points, labels):
    """The errors at the first point with at least `labels` labels."""
    for n, e in points:
        if n >= labels:
            return e
    return points[-1][1]


def svg(results, path):
    cols = 3
    rows = (len(results) + cols - 1) // cols
    w, h, pad = 300, 200, 40
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="11">' % (cols * w, rows * h + 30)]
    out.append('<text x="10" y="18" font-size="13">Active labelling: error rate on the truth items vs labels '
               'bought (blue: label next, grey: random; dashed: the full crowd)</text>')
    for idx, (name, (full, total, scored, curves)) in enumerate(results.items()):
        x0, y0 = (idx % cols) * w, 30 + (idx // cols) * h
        all_e = [e for c in curves.values() for _, e in c] + [full]
        top = max(all_e) / scored * 1.05 + 1e-9
        fx = lambda labels: x0 + pad + (w - pad - 10) * labels / total
        fy = lambda e: y0 + h - pad - (h - pad - 20) * (e / scored) / top  # plot: y0 + 20 .. y0 + h - pad
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#ccc"/>'
                   % (x0 + pad, y0 + 10, w - pad - 10, h - pad - 10))
        out.append('<text x="%d" y="%d">%s</text>' % (x0 + pad + 4, y0 + 24, name))
        out.append('<text x="%d" y="%d">%.2f</text>' % (x0 + 4, fy(0), 0.0))
        out.append('<text x="%d" y="%d">%.2f</text>' % (x0 + 4, fy(top * scored) + 4, top))
        out.append('<text x="%d" y="%d">labels: %d</text>' % (x0 + w - 90, y0 + h - 12, total))
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#000" stroke-dasharray="4 3"/>'
                   % (fx(0), fy(full), fx(total), fy(full)))
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c00" stroke-dasharray="2 2"/>'
                   % (fx(0.6 * total), y0 + 10, fx(0.6 * total), fy(0)))
        for strategy, colour in (("random", "#888"), ("label next", "#1f5fbf")):
            pts = " ".join("%.1f,%.1f" % (fx(l), fy(e)) for l, e in curves[strategy])
            out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>' % (colour, pts))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="*", default=DEFAULT_DIRS)
    ap.add_argument("--active", action="store_true", help="run the active-labelling simulation too")
    ap.add_argument("--svg", help="write the active-labelling curves to this SVG file")
    ap.add_argument("--sets", help="comma-separated set names (default: all)")
    ap.add_argument("--skip-model", action="store_true", help="skip part 1")
    ap.add_argument("--gold", action="store_true", help="part 1 again with 15 %% of the truth as gold")
    ap.add_argument("--json", help="also write the active-labelling curves to this JSON file")
    args = ap.parse_args()
    wanted = set(args.sets.split(",")) if args.sets else None
    sets = {}
    for d in args.dirs:
        for path in sorted(glob.glob(os.path.join(d, "*_crowd.txt"))):
            name = os.path.basename(path)[:-len("_crowd.txt")]
            if wanted is None or name in wanted:
                sets[name] = load(path)
    if not sets:
        sys.exit("no data sets found in %s" % ", ".join(args.dirs))
    if not args.skip_model:
        part_one(sets)
    if args.gold:
        part_gold(sets)
    if args.active:
        print("\nactive labelling: labels needed to reach the full crowd's error (share of all labels)")
        print("%-12s %7s %6s %14s %14s %18s" % ("set", "labels", "full", "label next", "random",
                                                 "errors at 60%: next/random"))
        results, met = {}, 0
        for name, (item, worker, label, truth, k, n) in sets.items():
            t0 = time.time()
            rng = np.random.default_rng([ord(ch) for ch in name])
            full, total, curves = active(name, item, worker, label, truth, k, n, rng)
            scored = int(np.count_nonzero(truth >= 0))
            results[name] = (full, total, scored, curves)
            cells = []
            for s in ("label next", "random"):
                r = reach(curves[s], full)
                cells.append("%7s (%4s)" % (r if r is not None else "never",
                                              "%.0f%%" % (100.0 * r / total) if r is not None else "-"))
            r = reach(curves["label next"], full)
            met += r is not None and r <= 0.6 * total
            at60 = [error_at(curves[s], 0.6 * total) for s in ("label next", "random")]
            print("%-12s %7d %6d %s %s %9d / %-6d   %.0fs" % (name, total, full, cells[0], cells[1], at60[0], at60[1],
                                                           time.time() - t0))
            sys.stdout.flush()
        print("label next reaches the full crowd's error with <= 60%% of the labels on %d of %d sets"
              % (met, len(sets)))
        if args.svg:
            svg(results, args.svg)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f)


if __name__ == "__main__":
    main()
