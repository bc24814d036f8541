#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Why issue 34's goal (a) cannot hold on every crowd: two measurements.

Goal (a) asks that the model-as-a-worker fit be never worse than the better of
crowd-only and model-only by more than one item. bench/model_assist_evidence.py meets
it in 46 of 60 cases; the 14 misses are crowds much worse than the classifier
(bm, face, hitspam_cf, trec, adult2 with an 85 % classifier).

Part 1, two worlds with the same data (simulation). World A: each item has a truth y;
the crowd answers around a consensus c, which is y except on 30 % of the items
(shared mistakes: there it is another class); the workers label c independently with
their own accuracy; a classifier is right about y 85 % of the time (calibrated
probabilities, as in model_assist_evidence.py). World B is the same labels and the same
classifier outputs with the truth taken to be c. Both are Dawid-Skene crowds with a
classifier: in B the workers are conditionally independent given the truth c, and so
is the classifier (it depends on c only through y, which depends on nothing else the
crowd did), with the confusion matrix P(classifier | c). No method sees which world it
is in, so each gives one labelling for both. Where c != y the labelling is wrong in A
or in B, so err_A + err_B >= |{c != y}|, while the goal asks err_A <= best_A + 1 and
err_B <= best_B + 1. The script prints both sides: when |{c != y}| > best_A + best_B + 2
no method meets the goal in both worlds.

Part 2, the real misses: Dawid-Skene EM with the classifier as a soft-observing worker
(the model of (a), in numpy with add-1/2 smoothing instead of auto's pooled prior),
started once from the majority vote and once from the truth itself (one-hot posteriors
on the truth items: the M-step that opens EM sees the parameters the truth implies,
the classifier's matrix included). If the truth's start ends on the crowd's side too,
the likelihood has no fixed point near the truth, and no criterion computed from the
labels and the classifier's outputs will lead a fit there; the two fits'
log-likelihoods are printed. The library's (a) (auto) is given for reference.

Usage: CROWDSPEC_LIBRARY=build/src/libcrowdspec.so.0 PYTHONPATH=bindings/python:bench \\
         python3 bench/model_assist_identifiability.py [DIR ...]
"""

import argparse
import os
import sys

import numpy as np

from model_assist_evidence import DEFAULT_DIRS, errors, fit, load, simulated_model


def one_world_pair(seed, n=2000, k=2, workers=60, per_item=5, share=0.3, acc=0.85):
    """Part 1 for one simulated pair of worlds: the row of figures."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    shared = rng.random(n) < share
    c = np.where(shared, (y + rng.integers(1, k, size=n)) % k, y)
    skill = rng.uniform(0.65, 0.9, size=workers)
    item = np.repeat(np.arange(n), per_item).astype(np.int32)
    worker = np.concatenate([rng.choice(workers, size=per_item, replace=False) for _ in range(n)]).astype(np.int32)
    right = rng.random(item.size) < skill[worker]
    label = np.where(right, c[item], (c[item] + rng.integers(1, k, size=item.size)) % k).astype(np.int32)
    probs, pitems = simulated_model(y, k, acc, False, rng)  # every item has a truth: rows for 0 .. n-1
    crowd = fit(item, worker, label, n, k).labels
    model = probs.argmax(axis=1)
    a = fit(item, worker, label, n, k, model_probs=probs, model_items=pitems).labels
    out = {}
    for world, truth in (("A", y), ("B", c)):
        e = {"crowd": errors(crowd, truth), "model": errors(model, truth), "(a)": errors(a, truth)}
        e["best"] = min(e["crowd"], e["model"])
        out[world] = e
    out["differ"] = int(np.count_nonzero(c != y))
    return out


def part_one(seeds):
    print("Part 1: one data set, two truths (k = 2, 2000 items, 5 labels an item from 60 workers of")
    print("accuracy 0.65-0.9 around a consensus that differs from the truth on 30 % of the items;")
    print("a calibrated classifier of accuracy 0.85 about the truth)")
    print("%5s | %-23s | %-23s | %8s %10s" % ("seed", "world A: crowd model (a)", "world B: crowd model (a)",
                                           "c != y", "bestA+bestB"))
    for s in seeds:
        r = one_world_pair(s)
        A, B = r["A"], r["B"]
        print("%5d | %7d %6d %7d  | %7d %6d %7d  | %8d %10d   (a) meets the goal in A: %s, in B: %s"
              % (s, A["crowd"], A["model"], A["(a)"], B["crowd"], B["model"], B["(a)"], r["differ"],
                 A["best"] + B["best"], "yes" if A["(a)"] <= A["best"] + 1 else "no",
                 "yes" if B["(a)"] <= B["best"] + 1 else "no"))
    print("Any labelling errs in A or in B on each item where c != y, so err_A + err_B >= c != y, which")
    print("exceeds best_A + best_B + 2 above: no method meets the goal in both worlds.\n")


def em_with_classifier(item, worker, label, probs, pitems, n, k, q, alpha=0.5, rounds=2000):
    """Dawid-Skene EM with the classifier as a soft-observing worker (the model of (a),
    with add-alpha smoothing in place of the library's pooled prior), from posteriors q:
    M-step first. The classifier's matrix takes one inner EM step a round on its soft
    observations (a generalised EM step). Returns (labels, log-likelihood, rounds)."""
    m = int(worker.max()) + 1
    code = worker * k + label
    model_of = np.full(n, -1)
    model_of[pitems] = np.arange(pitems.size)
    has = model_of >= 0
    prev = -np.inf
    pi_m = np.full((k, k), 1.0 / k)
    for r in range(rounds):
        counts = np.stack([np.bincount(code, weights=q[item, t], minlength=m * k) for t in range(k)], axis=1)
        counts = counts.reshape(m, k, k).transpose(0, 2, 1) + alpha  # worker x true x observed
        pi = counts / counts.sum(axis=2, keepdims=True)
        prior = (q.sum(axis=0) + alpha) / (n + k * alpha)
        qm = q[pitems]  # the classifier's rows: responsibilities over (true t, said o)
        resp = qm[:, :, None] * pi_m[None, :, :] * probs[:, None, :]
        resp /= np.maximum(resp.sum(axis=2, keepdims=True), 1e-300)
        pi_m = (qm[:, :, None] * resp).sum(axis=0) + alpha
        pi_m /= pi_m.sum(axis=1, keepdims=True)
        log_pi = np.log(pi)
        logq = np.log(prior)[None, :] + np.stack(
            [np.bincount(item, weights=log_pi[worker, t, label], minlength=n) for t in range(k)], axis=1)
        logq[has] += np.log(probs @ pi_m.T)[model_of[has]]
        top = logq.max(axis=1, keepdims=True)
        z = np.exp(logq - top)
        ll = float(np.sum(top[:, 0] + np.log(z.sum(axis=1))))
        q = z / z.sum(axis=1, keepdims=True)
        if ll - prev < 1e-9 * abs(ll):
            break
        prev = ll
    return q.argmax(axis=1), ll, r + 1


def part_two(sets, cases):
    print("Part 2: EM of (a) (numpy, add-1/2 smoothing) started from the majority vote and from the truth")
    print("(posteriors one-hot at the truth, the vote where there is none), on the cases")
    print("bench/model_assist_evidence.py misses; the library's (a) (auto, from the vote) for reference")
    print("%-11s %4s %-13s %6s %6s %8s | %-18s | %-18s | %s" % ("set", "acc", "model", "crowd", "model", "library",
                                                              "EM from the vote", "EM from the truth",
                                                              "log-lik. vote - truth"))
    for name, acc, over in cases:
        if name not in sets:
            continue
        item, worker, label, truth, k, n = sets[name]
        rng = np.random.default_rng([ord(ch) for ch in name] + [int(acc * 100), int(over)])
        probs, pitems = simulated_model(truth, k, acc, over, rng)
        model = np.full(n, -1)
        model[pitems] = probs.argmax(axis=1)
        crowd = fit(item, worker, label, n, k).labels
        library = fit(item, worker, label, n, k, model_probs=probs, model_items=pitems).labels
        vote = np.zeros((n, k))
        np.add.at(vote, (item, label), 1.0)
        vote = np.where(vote.sum(axis=1, keepdims=True) > 0, vote, 1.0)
        vote /= vote.sum(axis=1, keepdims=True)
        onehot = vote.copy()
        onehot[truth >= 0] = np.eye(k)[truth[truth >= 0]]
        a_vote, ll_vote, it_vote = em_with_classifier(item, worker, label, probs, pitems, n, k, vote)
        a_truth, ll_truth, it_truth = em_with_classifier(item, worker, label, probs, pitems, n, k, onehot)
        print("%-11s %4.2f %-13s %6d %6d %8d | %5d errors %4d it | %5d errors %4d it | %+.1f"
              % (name, acc, "overconfident" if over else "calibrated", errors(crowd, truth), errors(model, truth),
                 errors(library, truth), errors(a_vote, truth), it_vote, errors(a_truth, truth), it_truth,
                 ll_vote - ll_truth))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="*", default=DEFAULT_DIRS)
    args = ap.parse_args()
    part_one(range(1, 6))
    sets = {}
    for d in args.dirs:
        if not os.path.isdir(d):
            print("skipped: %s is not there" % d)
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith("_crowd.txt"):
                sets[f[:-len("_crowd.txt")]] = load(os.path.join(d, f))
    if not sets:
        print("Part 2 skipped: no crowd found")
        return 0
    cases = [(s, 0.85, over) for s in ("trec", "adult2", "bm", "face", "hitspam_cf") for over in (False, True)]
    cases += [("bm", 0.70, True), ("face", 0.70, False), ("face", 0.70, True), ("hitspam_cf", 0.70, True)]
    part_two(sets, cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
